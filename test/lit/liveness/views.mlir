// Views take no heap bytes (#coreai.none); their root buffer lives
// until the last use of any view of it, through chains of views.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s
// RUN: rm -rf %t && coreai-plan buffers %s --emit-problem %t > /dev/null
// RUN: cat %t/view_extends_root.csv %t/view_chain.csv %t/alias_of_wins.csv %t/upstream_views.csv | FileCheck %s --check-prefix=CSV

// %0 is read through its view %1 at position 3, so it is live on [0, 4)
// together with %2: heap 64 + 128.
// CHECK-LABEL: func.func @view_extends_root
// CHECK-SAME: heap = 192{{[,>]}}
// CHECK: %[[ROOT:.*]] = "torch.aten.neg"{{.*}}size = 64>
// CHECK: "torch.aten.view"(%[[ROOT]]) {coreai.alias_of = [0]} :
// CSV-LABEL: id,lower,upper,size
// CSV-NEXT: %0,0,4,64
// CSV-NEXT: %2,2,4,128
func.func @view_extends_root(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.view"(%0) {coreai.alias_of = [0]} : (tensor<16xf32>) -> tensor<4x4xf32>
  %2 = "torch.aten.cat"(%a, %a) : (tensor<16xf32>, tensor<16xf32>) -> tensor<32xf32>
  %3 = "test.use"(%1, %2) : (tensor<4x4xf32>, tensor<32xf32>) -> tensor<16xf32>
  return %3 : tensor<16xf32>
}

// A chain view -> permute (no coreai.alias_of: ATen fallback list) -> slice:
// the last use of the last view (position 5) keeps %0 alive.
// CHECK-LABEL: func.func @view_chain
// CHECK-SAME: heap = 320{{[,>]}}{{.*}}buffers = 2{{[,>]}}
// CHECK: "torch.aten.view"{{.*}}coreai.alias_of = [0]} :
// CHECK: "torch.aten.permute"(%{{.*}}) :
// CHECK: "torch.aten.slice"{{.*}}coreai.alias_of = [0]} :
// CHECK: "torch.aten.cat"{{.*}}coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 256>]
// CSV-LABEL: id,lower,upper,size
// CSV-NEXT: %0,0,6,64
// CSV-NEXT: %4,4,6,256
func.func @view_chain(%a: tensor<16xf32>) -> tensor<2x4xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.view"(%0) {coreai.alias_of = [0]} : (tensor<16xf32>) -> tensor<4x4xf32>
  %2 = "torch.aten.permute"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = "torch.aten.slice"(%2) {coreai.alias_of = [0]} : (tensor<4x4xf32>) -> tensor<2x4xf32>
  %4 = "torch.aten.cat"(%a, %a, %a, %a) : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<64xf32>
  %5 = "test.use"(%3, %4) : (tensor<2x4xf32>, tensor<64xf32>) -> tensor<2x4xf32>
  return %5 : tensor<2x4xf32>
}

// coreai.alias_of is the ground truth: -1 makes even a view op allocate.
// CHECK-LABEL: func.func @alias_of_wins
// CHECK: "torch.aten.view"{{.*}}coreai.alias_of = [-1], coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 64>]
// CSV-LABEL: id,lower,upper,size
// CSV-NEXT: %0,0,2,64
// CSV-NEXT: %1,1,3,64
func.func @alias_of_wins(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.view"(%0) {coreai.alias_of = [-1]} : (tensor<16xf32>) -> tensor<4x4xf32>
  %2 = "test.use"(%1) : (tensor<4x4xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// Upstream views: tensor reshapes, tensor.extract_slice and tosa.reshape.
// CHECK-LABEL: func.func @upstream_views
// CHECK-SAME: buffers = 1{{[,>]}}
// CHECK: tensor.expand_shape
// CHECK-NOT: #coreai.{{heap|lent}}
// CHECK: return
// CSV-LABEL: id,lower,upper,size
// CSV-NEXT: %1,1,7,64
func.func @upstream_views(%a: tensor<16xf32>) -> tensor<2x2xf32> {
  %shape = tosa.const_shape {values = dense<[2, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
  %2 = tensor.collapse_shape %1 [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  %3 = tosa.reshape %2, %shape : (tensor<16xf32>, !tosa.shape<2>) -> tensor<2x8xf32>
  %4 = tensor.extract_slice %3[0, 0] [2, 2] [1, 1] : tensor<2x8xf32> to tensor<2x2xf32>
  %5 = "test.use"(%4) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %5 : tensor<2x2xf32>
}

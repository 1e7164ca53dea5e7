// A result nobody uses still occupies memory at its defining op: it lives on
// [def, def + 1).
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s
// RUN: rm -rf %t && coreai-plan buffers %s --emit-problem %t > /dev/null
// RUN: cat %t/dead_first.csv %t/dead_in_the_middle.csv | FileCheck %s --check-prefix=CSV

// The dead %0 and the live %1 never overlap: they share bytes.
// CHECK-LABEL: func.func @dead_first
// CHECK-SAME: heap = 256{{[,>]}}{{.*}}buffers = 2{{[,>]}}
// CHECK: %0 = "test.producer"{{.*}}coreai.placement = [#coreai.heap<offset = 0, size = 256>]
// CHECK: %1 = "torch.aten.neg"{{.*}}coreai.placement = [#coreai.heap<offset = 0, size = 64>]
// CSV-LABEL: id,lower,upper,size
// CSV-NEXT: %0,0,1,256
// CSV-NEXT: %1,1,3,64
func.func @dead_first(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "test.producer"(%a) : (tensor<16xf32>) -> tensor<64xf32>
  %1 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "test.use"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// The dead %1 is live at position 1 together with %0: 64 + 256 bytes.
// CHECK-LABEL: func.func @dead_in_the_middle
// CHECK-SAME: heap = 320{{[,>]}}{{.*}}buffers = 2{{[,>]}}
// CSV-LABEL: id,lower,upper,size
// CSV-NEXT: %0,0,3,64
// CSV-NEXT: %1,1,2,256
func.func @dead_in_the_middle(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "test.producer"(%a) : (tensor<16xf32>) -> tensor<64xf32>
  %2 = "test.use"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// A returned view takes its root out of the heap too: the caller reads the
// output's bytes after the call. Views of arguments are never planned.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s
// RUN: rm -rf %t && coreai-plan buffers %s --emit-problem %t.csv > /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

// CHECK-LABEL: func.func @returned_view
// CHECK-SAME: heap = 128{{[,>]}}{{.*}}buffers = 1{{[,>]}}
// CHECK: %0 = "torch.aten.neg"
// CHECK-NOT: #coreai.{{heap|lent}}
// CHECK: %2 = "torch.aten.cat"{{.*}}coreai.placement = [#coreai.heap<offset = 0, size = 128>]
// CHECK-NOT: #coreai.{{heap|lent}}
// CHECK: return
// CSV: id,lower,upper,size
// CSV-NEXT: %2,2,5,128
// CSV-NOT: %
func.func @returned_view(%a: tensor<16xf32>) -> (tensor<4x4xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.view"(%0) {coreai.alias_of = [0]} : (tensor<16xf32>) -> tensor<4x4xf32>
  %2 = "torch.aten.cat"(%0, %0) : (tensor<16xf32>, tensor<16xf32>) -> tensor<32xf32>
  %3 = "torch.aten.permute"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %4 = "test.use"(%2, %3) : (tensor<32xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %1, %4 : tensor<4x4xf32>, tensor<16xf32>
}

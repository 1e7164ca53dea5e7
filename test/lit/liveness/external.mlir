// Function arguments, returned values and constants live outside the
// scratch heap; outputs-in-heap plans the returned values too, live until
// the return.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=outputs-in-heap=true %s | FileCheck %s --check-prefix=HEAP
// RUN: rm -rf %t && coreai-plan buffers %s --outputs-in-heap --emit-problem %t.csv > /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

// CHECK-LABEL: func.func @external
// CHECK-SAME: heap = 64{{[,>]}}{{.*}}buffers = 1{{[,>]}}
// CHECK: arith.constant
// CHECK-NOT: #coreai.{{heap|lent}}
// CHECK: "tosa.const"
// CHECK-NOT: #coreai.{{heap|lent}}
// CHECK: %[[MUL:.*]] = "torch.aten.mul"{{.*}}coreai.placement = [#coreai.heap<offset = 0, size = 64>]
// CHECK-NOT: #coreai.{{heap|lent}}
// CHECK: return

// HEAP-LABEL: func.func @external
// HEAP-SAME: heap = 192{{[,>]}}{{.*}}buffers = 3{{[,>]}}
// CSV: id,lower,upper,size
// CSV-NEXT: %1,2,5,64
// CSV-NEXT: %2,3,6,64
// CSV-NEXT: %3,4,6,64
func.func @external(%w: tensor<16xf32>, %x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %c = arith.constant dense<1.0> : tensor<16xf32>
  %t = "tosa.const"() <{values = dense<2.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %0 = "torch.aten.mul"(%w, %x) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.add"(%0, %c) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.add"(%0, %t) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %1, %2 : tensor<16xf32>, tensor<16xf32>
}

// A value used inside a nested region (scf.for, scf.if, linalg bodies) is
// used at the position of the enclosing top-level op; tensors made inside a
// region live at that op's position only.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s
// RUN: rm -rf %t && coreai-plan buffers %s --emit-problem %t > /dev/null
// RUN: cat %t/for_body.csv %t/if_branches.csv | FileCheck %s --check-prefix=CSV

// %1 is only read in the loop body: it lives until the scf.for (position 4).
// The loop body's %5 lives at position 4 only.
// CHECK-LABEL: func.func @for_body
// CHECK-SAME: heap = 320{{[,>]}}{{.*}}buffers = 5{{[,>]}}
// CHECK: scf.for
// CHECK: "torch.aten.add"{{.*}}coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 64>]
// CHECK: } {coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 64>]}
// CSV-LABEL: id,lower,upper,size
// CSV-NEXT: %0,2,5,64
// CSV-NEXT: %1,3,5,64
// CSV-NEXT: %2,4,7,64
// CSV-NEXT: %5,4,5,64
// CSV-NEXT: %3,5,7,256
func.func @for_body(%a: tensor<16xf32>, %n: index) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0) -> (tensor<16xf32>) {
    %s = "torch.aten.add"(%acc, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    scf.yield %s : tensor<16xf32>
  }
  %3 = "torch.aten.cat"(%a, %a, %a, %a) : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<64xf32>
  %4 = "test.use"(%2, %3) : (tensor<16xf32>, tensor<64xf32>) -> tensor<16xf32>
  return %4 : tensor<16xf32>
}

// Both branches' reads count at the scf.if (position 3).
// CHECK-LABEL: func.func @if_branches
// CSV-LABEL: id,lower,upper,size
// CSV-NEXT: %0,0,4,64
// CSV-NEXT: %1,1,4,128
// CSV-NEXT: %2,2,3,256
// CSV-NEXT: %3,3,5,64
func.func @if_branches(%a: tensor<16xf32>, %c: i1) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "test.producer"(%a) : (tensor<16xf32>) -> tensor<32xf32>
  %2 = "test.producer"(%a) : (tensor<16xf32>) -> tensor<64xf32>
  %3 = scf.if %c -> tensor<16xf32> {
    scf.yield %0 : tensor<16xf32>
  } else {
    %r = "test.use"(%1) : (tensor<32xf32>) -> tensor<16xf32>
    scf.yield %r : tensor<16xf32>
  }
  %4 = "test.use"(%3) : (tensor<16xf32>) -> tensor<16xf32>
  return %4 : tensor<16xf32>
}

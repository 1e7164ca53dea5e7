// reorder=true: the ops are put in another topological order when that
// lowers the planned heap; the function keeps it (the planned graph runs in
// that order) and coreai.plan says `reordered`. Data dependencies and the
// order of ops with side effects are kept.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=reorder=true %s | FileCheck %s
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s --check-prefix=EXPORTED
// The coreai-reorder pass (for pipelines that plan after bufferization)
// compares lower bounds instead of planned heaps, and says what it did.
// RUN: coreai-plan-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(coreai-reorder))' %s 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: remark: reordered @sink_early_producer: lower bound 1540 -> 1028 bytes
// PASS-NOT: remark: reordered
// PASS-LABEL: func.func @sink_early_producer
// PASS: "torch.aten.exp"
// PASS-NEXT: "torch.aten.sum"
// PASS-NEXT: "torch.aten.neg"

// %0 (1 KiB) is made long before its only reader; the exp/sum pair in
// between needs 516 bytes more (the sum at offset 1536). Made after them,
// %0 takes exp's dead bytes and lives with the sum: a heap of 1028 bytes
// instead of 1540.
// CHECK-LABEL: func.func @sink_early_producer
// CHECK-SAME: heap = 1028{{[,>]}}
// CHECK-SAME: reordered = true
// CHECK: %[[EXP:.*]] = "torch.aten.exp"
// CHECK-NEXT: %[[SUM:.*]] = "torch.aten.sum"(%[[EXP]])
// CHECK-NEXT: %[[NEG:.*]] = "torch.aten.neg"
// CHECK-NEXT: "torch.aten.mul"(%[[NEG]], %[[SUM]])
// EXPORTED-LABEL: func.func @sink_early_producer
// EXPORTED-SAME: heap = 1540{{[,>]}}
// EXPORTED-NOT: reordered
// EXPORTED: "torch.aten.neg"
// EXPORTED-NEXT: "torch.aten.exp"
func.func @sink_early_producer(%a: tensor<256xf32>, %b: tensor<128xf32>) -> tensor<256xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<256xf32>) -> tensor<256xf32>
  %1 = "torch.aten.exp"(%b) : (tensor<128xf32>) -> tensor<128xf32>
  %2 = "torch.aten.sum"(%1) : (tensor<128xf32>) -> tensor<1xf32>
  %3 = "torch.aten.mul"(%0, %2) : (tensor<256xf32>, tensor<1xf32>) -> tensor<256xf32>
  return %3 : tensor<256xf32>
}

// The same shape, but the producer and the pair are ops with side effects
// (unregistered, not ATen): their order is kept, and so is the heap.
// CHECK-LABEL: func.func @effects_keep_order
// CHECK-SAME: heap = 1540{{[,>]}}
// CHECK-SAME: reordered = false
// CHECK: "test.produce"
// CHECK-NEXT: "test.exp"
// CHECK-NEXT: "test.sum"
func.func @effects_keep_order(%a: tensor<256xf32>, %b: tensor<128xf32>) -> tensor<256xf32> {
  %0 = "test.produce"(%a) : (tensor<256xf32>) -> tensor<256xf32>
  %1 = "test.exp"(%b) : (tensor<128xf32>) -> tensor<128xf32>
  %2 = "test.sum"(%1) : (tensor<128xf32>) -> tensor<1xf32>
  %3 = "torch.aten.mul"(%0, %2) : (tensor<256xf32>, tensor<1xf32>) -> tensor<256xf32>
  return %3 : tensor<256xf32>
}

// An order that is already best is left alone.
// CHECK-LABEL: func.func @already_best
// CHECK-SAME: reordered = false
func.func @already_best(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

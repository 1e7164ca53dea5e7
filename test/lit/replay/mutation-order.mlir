// A reader of a value that an op writes in place must stay on its side of
// the write: here tanh read the state before add_ in the original and
// after it in this (hand-planned: the planner refuses mutations) function.
// RUN: not coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay=original=%S/Inputs/dataflow-original.mlir %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: @reader_after_mutation does not compute what the original @reader_after_mutation does: 'torch.aten.tanh' at {{.*}}mutation-order.mlir:[[@LINE+3]]:{{[0-9]+}} moved to the other side of 'torch.aten.add_' at {{.*}}mutation-order.mlir:[[@LINE+2]]:{{[0-9]+}}, which writes into operand #0 it uses
func.func @reader_after_mutation(%s: tensor<16xf32> {coreai.kind = "state", coreai.name = "s"}, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %1 = "torch.aten.add_"(%s, %b) {coreai.alias_of = [0]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %0 = "torch.aten.tanh"(%s) : (tensor<16xf32>) -> tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}

// Identical ops on either side of a write read two contents under one
// name: unlike identical ops of a graph without writes (dataflow.mlir,
// @identical_ops_swapped), they are not interchangeable, and a plan that
// feeds tanh the neg after the write is refused.
// RUN: not coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay=original=%S/Inputs/dataflow-original.mlir %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=AROUND
// AROUND: error: @identical_reads_around_a_write does not compute what the original @identical_reads_around_a_write does: 'torch.aten.tanh' at {{.*}}mutation-order.mlir:[[@LINE+5]]:{{[0-9]+}} has no counterpart in the original
func.func @identical_reads_around_a_write(%s: tensor<16xf32> {coreai.kind = "state", coreai.name = "s"}, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%s) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.add_"(%s, %b) {coreai.alias_of = [0]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.neg"(%s) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.tanh"(%2) : (tensor<16xf32>) -> tensor<16xf32>
  %4 = "torch.aten.exp"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1, %3, %4, %0, %2 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

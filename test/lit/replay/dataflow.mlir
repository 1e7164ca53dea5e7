// With the original graph, the replay also checks that the planned function
// computes the original's dataflow: every op once, same attributes, operands
// matched through the dataflow, same returned values, effects in order, and
// readers of a value written in place on their side of the write. Each
// function below is the original (Inputs/dataflow-original.mlir) changed in
// one way and planned; only @reordered (a legal order) passes.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers -mlir-print-debuginfo %s | not coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay=original=%S/Inputs/dataflow-original.mlir -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="@reordered"

// Independent ops in another order: the same dataflow.
func.func @reordered(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %1 = "torch.aten.tanh"(%b) : (tensor<16xf32>) -> tensor<16xf32>
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.sub"(%0, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// CHECK: error: @swapped_operands does not compute what the original @swapped_operands does: 'torch.aten.sub' at {{.*}}dataflow.mlir:[[@LINE+4]]:{{[0-9]+}} has no counterpart in the original (same op, attributes and operands by dataflow)
func.func @swapped_operands(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%b) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.sub"(%1, %0) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// A duplicate op deduplicated (one neg feeding both tanh): not the same
// ops, though the values are equal.
// CHECK: error: @dropped_op does not compute what the original @dropped_op does: 'torch.aten.tanh' at {{.*}}dataflow.mlir:[[@LINE+4]]:{{[0-9]+}} has no counterpart in the original
func.func @dropped_op(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}

// CHECK: error: @swapped_results does not compute what the original @swapped_results does: result 0 is not the value the original returns there
func.func @swapped_results(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  return %1, %0 : tensor<16xf32>, tensor<16xf32>
}

// Two draws in the other order.
// CHECK: error: @random_swapped does not compute what the original @random_swapped does: 'torch.aten.randn' at {{.*}} and 'torch.aten.randn' at {{.*}} have effects and run in the other order than in the original
func.func @random_swapped() -> (tensor<16xf32>, tensor<16xf32>) {
  %1 = "torch.aten.randn"() {coreai.node = "second"} : () -> tensor<16xf32>
  %0 = "torch.aten.randn"() {coreai.node = "first"} : () -> tensor<16xf32>
  %2 = "torch.aten.neg"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.neg"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}

// Identical draws matched in order: the first draw of the plan is the
// first of the original, so here neg now reads the second draw.
// CHECK: error: @identical_draws does not compute what the original @identical_draws does: 'torch.aten.neg' at {{.*}}dataflow.mlir:[[@LINE+4]]:{{[0-9]+}} has no counterpart in the original
func.func @identical_draws() -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.randn"() : () -> tensor<16xf32>
  %1 = "torch.aten.randn"() : () -> tensor<16xf32>
  %2 = "torch.aten.neg"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}

// An op whose result nobody uses, dropped.
// CHECK: error: @dead_op_dropped does not compute what the original @dead_op_dropped does: the original's 'torch.aten.neg' at {{.*}}dataflow-original.mlir:{{[0-9]+}}:{{[0-9]+}} is missing
func.func @dead_op_dropped(%a: tensor<16xf32>) -> tensor<16xf32> {
  %1 = "torch.aten.tanh"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

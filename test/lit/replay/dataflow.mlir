// With the original graph, the replay also checks that the planned function
// computes the original's dataflow: every op once, same attributes, operands
// matched through the dataflow, same returned values, effects in order, and
// readers of a value written in place on their side of the write. Each
// function below is the original (Inputs/dataflow-original.mlir) changed in
// one way and planned; only @reordered, @identical_ops_swapped,
// @identical_values_exchanged and @identical_regions_swapped (the same
// dataflow) pass.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers -mlir-print-debuginfo %s | not coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay=original=%S/Inputs/dataflow-original.mlir -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="@reordered" --implicit-check-not="@identical_ops_swapped" --implicit-check-not="@identical_values_exchanged" --implicit-check-not="@identical_regions_swapped"

#id = affine_map<(d0) -> (d0)>

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

// A duplicate op deduplicated (one neg feeding both tanh): the values are
// equal, but every op of the original must run.
// CHECK: error: @dropped_op does not compute what the original @dropped_op does: the original's 'torch.aten.neg' at {{.*}}dataflow-original.mlir:{{[0-9]+}}:{{[0-9]+}} is missing
func.func @dropped_op(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}

// Identical ops without effects compute one value: either may feed either
// reader, as fusion or reordering leaves them (issue 41).
func.func @identical_ops_swapped(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %1 = "torch.aten.neg"(%a) {coreai.node = "neg"} : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.exp"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  %0 = "torch.aten.neg"(%a) {coreai.node = "neg"} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}

// The values of identical ops are one value: read in the other order, or
// returned in each other's place, they are the same.
func.func @identical_values_exchanged(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.sub"(%1, %0) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2, %1, %0 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// Ops with regions are identical when their regions are.
func.func @identical_regions_swapped(%a: tensor<16xf32>, %o: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.exp"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}

// CHECK: error: @other_regions_swapped does not compute what the original @other_regions_swapped does: 'torch.aten.tanh' at {{.*}}dataflow.mlir:[[@LINE+12]]:{{[0-9]+}} has no counterpart in the original
func.func @other_regions_swapped(%a: tensor<16xf32>, %o: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = math.exp %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.exp"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}

// Identical ops the planner does not know may have effects: matched in
// order, like identical draws.
// CHECK: error: @identical_unknown_ops does not compute what the original @identical_unknown_ops does: 'torch.aten.tanh' at {{.*}}dataflow.mlir:[[@LINE+4]]:{{[0-9]+}} has no counterpart in the original
func.func @identical_unknown_ops(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.foo"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.foo"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.exp"(%0) : (tensor<16xf32>) -> tensor<16xf32>
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

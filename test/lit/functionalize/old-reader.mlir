// Adversarial: a reader of the old value placed before the write keeps
// reading the old value, and a reader after it the new one. Functional,
// the write is a new value: the planner (in-place reuse and reorder on,
// the plan replayed on a shadow heap by every run) may write the sum over
// the product only where no reader of the product is left.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-functionalize %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: coreai-plan buffers %s --in-place --reorder -o %t/planned.mlir | FileCheck %s --check-prefix=PLAN
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay %t/planned.mlir > /dev/null

// CHECK: %[[T:.*]] = "torch.aten.mul"(%arg0, %arg0)
// CHECK: %[[OLD:.*]] = "torch.aten.neg"(%[[T]])
// CHECK: %[[NEW:.*]] = "torch.aten.add"(%[[T]], %arg0) {{{.*}}coreai.node = "add_"
// CHECK: %[[AFTER:.*]] = "torch.aten.exp"(%[[NEW]])
// CHECK: return %[[OLD]], %[[AFTER]] :
// PLAN: @main 0
func.func @main(%x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4xf32> {coreai.kind = "output"}, tensor<4xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.mul"(%x, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %old = "torch.aten.neg"(%t) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4xf32>) -> tensor<4xf32>
  %r = "torch.aten.add_"(%t, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %after = "torch.aten.exp"(%t) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "exp"} : (tensor<4xf32>) -> tensor<4xf32>
  return %old, %after : tensor<4xf32>, tensor<4xf32>
}

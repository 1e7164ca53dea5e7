// A view read after its storage was written is made again from the new
// value (a second op with the same `coreai.node`), just before its reader.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-functionalize %s | FileCheck %s

// CHECK: %[[T:.*]] = "torch.aten.neg"(%arg0)
// CHECK: %[[V:.*]] = "torch.aten.view"(%[[T]]) {coreai.alias_of = [0], coreai.args = "(T, [32])", coreai.node = "view"
// CHECK: %[[OLD:.*]] = "torch.aten.exp"(%[[V]])
// CHECK: %[[NEW:.*]] = "torch.aten.add"(%[[T]], %arg0)
// CHECK: %[[AGAIN:.*]] = "torch.aten.view"(%[[NEW]]) {coreai.alias_of = [0], coreai.args = "(T, [32])", coreai.node = "view"
// CHECK: %[[R:.*]] = "torch.aten.mul"(%[[AGAIN]], %[[AGAIN]])
// CHECK: return %[[OLD]], %[[R]] :
func.func @main(%x: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<32xf32> {coreai.kind = "output"}, tensor<32xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %v = "torch.aten.view"(%t) {coreai.overload = "default", coreai.args = "(T, [32])", coreai.node = "view", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<32xf32>
  %old = "torch.aten.exp"(%v) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "exp"} : (tensor<32xf32>) -> tensor<32xf32>
  %a = "torch.aten.add_"(%t, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "torch.aten.mul"(%v, %v) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul"} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %old, %r : tensor<32xf32>, tensor<32xf32>
}

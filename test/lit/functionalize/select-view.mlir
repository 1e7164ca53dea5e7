// A write through `select` is written back by select_scatter.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-functionalize %s | FileCheck %s

// CHECK: %[[T:.*]] = "torch.aten.neg"(%arg0)
// CHECK: %[[ROW:.*]] = "torch.aten.select"(%[[T]]) {coreai.alias_of = [0], coreai.args = "(T, 0, -1)"
// CHECK: %[[F:.*]] = "torch.aten.fill"(%[[ROW]]) {coreai.args = "(T, 0.0)", coreai.node = "fill_", coreai.overload = "Scalar"}
// CHECK: %[[S:.*]] = "torch.aten.select_scatter"(%[[T]], %[[F]]) {coreai.args = "(T, T, 0, -1)", coreai.node = "select_scatter", coreai.overload = "default"} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK: return %[[S]] :
func.func @main(%x: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4x8xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %row = "torch.aten.select"(%t) {coreai.overload = "int", coreai.args = "(T, 0, -1)", coreai.node = "select", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<8xf32>
  %f = "torch.aten.fill_"(%row) {coreai.overload = "Scalar", coreai.args = "(T, 0.0)", coreai.node = "fill_"} : (tensor<8xf32>) -> tensor<8xf32>
  return %t : tensor<4x8xf32>
}

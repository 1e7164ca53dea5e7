// A write through a slice is written back into its source by
// slice_scatter (defaults filled in: start 0, end the int64 maximum, step
// 1), and a later read of the source sees the scattered value.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-functionalize -split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @slice_copy
// CHECK: %[[T:.*]] = "torch.aten.neg"(%arg0)
// CHECK: %[[V:.*]] = "torch.aten.slice"(%[[T]]) {coreai.alias_of = [0], coreai.args = "(T, 1, 2, 6)"
// CHECK: %[[C:.*]] = "torch.aten.copy"(%[[V]], %arg1) {coreai.args = "(T, T)", coreai.node = "copy_", coreai.overload = "default"}
// CHECK: %[[S:.*]] = "torch.aten.slice_scatter"(%[[T]], %[[C]]) {coreai.args = "(T, T, 1, 2, 6, 1)", coreai.node = "slice_scatter", coreai.overload = "default"} : (tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
// CHECK: %[[E:.*]] = "torch.aten.exp"(%[[S]])
// CHECK: return %[[E]] :
func.func @slice_copy(%x: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"}, %k: tensor<4x4xf32> {coreai.kind = "input", coreai.name = "k"}) -> (tensor<4x8xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %v = "torch.aten.slice"(%t) {coreai.overload = "Tensor", coreai.args = "(T, 1, 2, 6)", coreai.node = "slice", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  %c = "torch.aten.copy_"(%v, %k) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "copy_"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = "torch.aten.exp"(%t) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "exp"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

// A slice of a slice: written back twice, up to the root; `None` bounds
// are the defaults.
// CHECK-LABEL: func.func @nested
// CHECK: %[[C:.*]] = "torch.aten.add"
// CHECK: %[[INNER:.*]] = "torch.aten.slice_scatter"(%[[OUTER:.*]], %[[C]]) {coreai.args = "(T, T, 1, 0, 2, 1)"
// CHECK: "torch.aten.slice_scatter"(%[[T:.*]], %[[INNER]]) {coreai.args = "(T, T, 0, 1, 9223372036854775807, 1)"
func.func @nested(%x: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4x8xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = "torch.aten.slice"(%t) {coreai.overload = "Tensor", coreai.args = "(T, 0, 1, None)", coreai.node = "slice", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<3x8xf32>
  %b = "torch.aten.slice"(%a) {coreai.overload = "Tensor", coreai.args = "(T, 1, 0, 2)", coreai.node = "slice_1", coreai.alias_of = [0]} : (tensor<3x8xf32>) -> tensor<3x2xf32>
  %c = "torch.aten.add_"(%b, %b) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %t : tensor<4x8xf32>
}

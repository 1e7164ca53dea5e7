// Writes through reshapes are a `view` of the new value with the source's
// shape; through `permute` and `transpose` the inverse permutation.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-functionalize -split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @reshape
// CHECK: %[[A:.*]] = "torch.aten.add"(%[[V:.*]], %[[V]])
// CHECK: %[[BACK:.*]] = "torch.aten.view"(%[[A]]) {coreai.alias_of = [0], coreai.args = "(T, [4, 8])", coreai.node = "view_scatter", coreai.overload = "default"} : (tensor<32xf32>) -> tensor<4x8xf32>
// CHECK: return %[[BACK]] :
func.func @reshape(%x: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4x8xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %v = "torch.aten.view"(%t) {coreai.overload = "default", coreai.args = "(T, [32])", coreai.node = "view", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<32xf32>
  %a = "torch.aten.add_"(%v, %v) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %t : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @permute
// CHECK: %[[M:.*]] = "torch.aten.mul"(%[[P:.*]]) {coreai.args = "(T, 3.0)"
// CHECK: %[[BACK:.*]] = "torch.aten.permute"(%[[M]]) {coreai.alias_of = [0], coreai.args = "(T, [1, 2, 0])", coreai.node = "permute_scatter", coreai.overload = "default"} : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
// CHECK: return %[[BACK]] :
func.func @permute(%x: tensor<2x3x4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<2x3x4xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %p = "torch.aten.permute"(%t) {coreai.overload = "default", coreai.args = "(T, [2, 0, 1])", coreai.node = "permute", coreai.alias_of = [0]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %m = "torch.aten.mul_"(%p) {coreai.overload = "Scalar", coreai.args = "(T, 3.0)", coreai.node = "mul_"} : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  return %t : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK: %[[BACK:.*]] = "torch.aten.transpose"(%[[M:.*]]) {coreai.alias_of = [0], coreai.args = "(T, 0, 1)", coreai.node = "transpose_scatter", coreai.overload = "int"} : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK: return %[[BACK]] :
func.func @transpose(%x: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4x8xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = "torch.aten.transpose"(%t) {coreai.overload = "int", coreai.args = "(T, 0, 1)", coreai.node = "transpose", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %m = "torch.aten.mul_"(%p) {coreai.overload = "Scalar", coreai.args = "(T, 3.0)", coreai.node = "mul_"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %t : tensor<4x8xf32>
}

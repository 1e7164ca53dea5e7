// An in-place op on an intermediate becomes its functional twin: the twin's
// result is the new value every later reader sees, and nothing outlives
// the call (no state update). The in-place result itself is `self`.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-functionalize -split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @add_inplace
// CHECK: %[[T:.*]] = "torch.aten.mul"(%arg0, %arg0)
// CHECK: %[[NEW:.*]] = "torch.aten.add"(%[[T]], %arg0) {coreai.args = "(T, T)", coreai.node = "add_", coreai.overload = "Tensor"}
// CHECK-NOT: add_"
// CHECK: %[[NEG:.*]] = "torch.aten.neg"(%[[NEW]])
// CHECK: return %[[NEG]], %[[NEW]] :
func.func @add_inplace(%x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4xf32> {coreai.kind = "output"}, tensor<4xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.mul"(%x, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = "torch.aten.add_"(%t, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = "torch.aten.neg"(%t) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4xf32>) -> tensor<4xf32>
  return %n, %r : tensor<4xf32>, tensor<4xf32>
}

// -----

// Two writes in a row: the second reads the first's value; `mul_` with a
// scalar keeps its `coreai.args`.
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.*]] = "torch.aten.add"(%[[T:.*]], %arg0)
// CHECK: %[[M:.*]] = "torch.aten.mul"(%[[A]]) {coreai.args = "(T, 2.0)", coreai.node = "mul_", coreai.overload = "Scalar"}
// CHECK: return %[[M]] :
func.func @chain(%x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4xf32>) -> tensor<4xf32>
  %a = "torch.aten.add_"(%t, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m = "torch.aten.mul_"(%a) {coreai.overload = "Scalar", coreai.args = "(T, 2.0)", coreai.node = "mul_"} : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

// `detach_` changes no data: it goes, and its result is `self`.
// CHECK-LABEL: func.func @detach
// CHECK-NOT: detach
// CHECK: return %[[T:.*]] :
func.func @detach(%x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4xf32>) -> tensor<4xf32>
  %d = "torch.aten.detach_"(%t) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "detach_"} : (tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

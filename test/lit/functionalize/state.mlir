// A write into a `coreai.kind = "state"` argument becomes its state
// update: the state's final value is returned as a `state_update` result
// named like the state, before the other results (arguments' order). A
// graph that already returns the written value as the state's update keeps
// that one result.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-functionalize -split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @cache
// CHECK-SAME: -> (tensor<8x4xf32> {coreai.kind = "state_update", coreai.name = "cache"}, tensor<4xf32> {coreai.kind = "output"})
// CHECK: %[[ROW:.*]] = "torch.aten.select"(%arg0)
// CHECK: %[[C:.*]] = "torch.aten.copy"(%[[ROW]], %arg1)
// CHECK: %[[S:.*]] = "torch.aten.select_scatter"(%arg0, %[[C]])
// The view written is up to date: its reader reads the written value.
// CHECK: %[[N:.*]] = "torch.aten.neg"(%[[C]])
// CHECK: return %[[S]], %[[N]] :
func.func @cache(%cache: tensor<8x4xf32> {coreai.kind = "state", coreai.name = "cache"}, %x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4xf32> {coreai.kind = "output"}) {
  %row = "torch.aten.select"(%cache) {coreai.overload = "int", coreai.args = "(T, 0, 3)", coreai.node = "row", coreai.alias_of = [0]} : (tensor<8x4xf32>) -> tensor<4xf32>
  %c = "torch.aten.copy_"(%row, %x) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "copy_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = "torch.aten.neg"(%row) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// Two states, written in the other order: their updates follow the
// arguments' order.
// CHECK-LABEL: func.func @two
// CHECK-SAME: -> (tensor<4xf32> {coreai.kind = "state_update", coreai.name = "a"}, tensor<4xf32> {coreai.kind = "state_update", coreai.name = "b"})
// CHECK: %[[B:.*]] = "torch.aten.add"(%arg1, %arg2)
// CHECK: %[[A:.*]] = "torch.aten.mul"(%arg0, %arg2)
// CHECK: return %[[A]], %[[B]] :
func.func @two(%a: tensor<4xf32> {coreai.kind = "state", coreai.name = "a"}, %b: tensor<4xf32> {coreai.kind = "state", coreai.name = "b"}, %x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> () {
  %1 = "torch.aten.add_"(%b, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "torch.aten.mul_"(%a, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// The graph returns the in-place result as the state's update itself.
// CHECK-LABEL: func.func @returned
// CHECK-SAME: -> (tensor<4xf32> {coreai.kind = "state_update", coreai.name = "a"})
// CHECK: %[[A:.*]] = "torch.aten.mul"(%arg0, %arg1)
// CHECK: return %[[A]] :
func.func @returned(%a: tensor<4xf32> {coreai.kind = "state", coreai.name = "a"}, %x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4xf32> {coreai.kind = "state_update", coreai.name = "a"}) {
  %1 = "torch.aten.mul_"(%a, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// `index_put_` and `index_copy_` become `index_put` and `index_copy`, whose
// results are the whole written tensor.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-functionalize -split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @index_put
// CHECK: %[[T:.*]] = "torch.aten.neg"(%arg0)
// CHECK: %[[P:.*]] = "torch.aten.index_put"(%[[T]], %arg1, %arg2) {coreai.args = "(T, [T], T)", coreai.node = "index_put_", coreai.overload = "default"}
// CHECK: return %[[P]] :
func.func @index_put(%x: tensor<8x4xf32> {coreai.kind = "input", coreai.name = "x"}, %i: tensor<2xi64> {coreai.kind = "input", coreai.name = "i"}, %v: tensor<2x4xf32> {coreai.kind = "input", coreai.name = "v"}) -> (tensor<8x4xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %p = "torch.aten.index_put_"(%t, %i, %v) {coreai.overload = "default", coreai.args = "(T, [T], T)", coreai.node = "index_put_"} : (tensor<8x4xf32>, tensor<2xi64>, tensor<2x4xf32>) -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @index_copy
// CHECK: %[[C:.*]] = "torch.aten.index_copy"(%[[T:.*]], %arg1, %arg2) {coreai.args = "(T, 0, T, T)", coreai.node = "index_copy_", coreai.overload = "default"}
// CHECK: return %[[C]] :
func.func @index_copy(%x: tensor<8x4xf32> {coreai.kind = "input", coreai.name = "x"}, %i: tensor<2xi64> {coreai.kind = "input", coreai.name = "i"}, %v: tensor<2x4xf32> {coreai.kind = "input", coreai.name = "v"}) -> (tensor<8x4xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %p = "torch.aten.index_copy_"(%t, %i, %v) {coreai.overload = "default", coreai.args = "(T, 0, T, T)", coreai.node = "index_copy_"} : (tensor<8x4xf32>, tensor<2xi64>, tensor<2x4xf32>) -> tensor<8x4xf32>
  return %p : tensor<8x4xf32>
}

// Writes that cannot be made functional are refused at the writer, with a
// non-zero exit: weights, inputs, constants and unmarked arguments may not
// change in a call; a view other than slices, selects, reshapes and
// permutations cannot be written back; a state written in place and
// returned as another value is ambiguous.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-functionalize -split-input-file -verify-diagnostics %s
// The planner's commands read models through the same functionalisation.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c 'coreai-plan buffers %S/Inputs/weight-write.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CLI
// CLI: weight-write.mlir:4:8: error: writes in place into weight argument 'w': only a state argument (coreai.kind = "state") may be updated by a call
// CLI: exit=1

func.func @weight(%w: tensor<4xf32> {coreai.kind = "weight", coreai.name = "w"}, %x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> () {
  // expected-error @+1 {{writes in place into weight argument 'w': only a state argument (coreai.kind = "state") may be updated by a call}}
  %1 = "torch.aten.add_"(%w, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @input(%x: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"}) -> () {
  %v = "torch.aten.slice"(%x) {coreai.overload = "Tensor", coreai.args = "(T, 0, 0, 2)", coreai.node = "slice", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  // expected-error @+1 {{writes in place into input argument 'x': only a state argument}}
  %1 = "torch.aten.mul_"(%v) {coreai.overload = "Scalar", coreai.args = "(T, 2.0)", coreai.node = "mul_"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @unmarked(%x: tensor<4xf32>) -> () {
  // expected-error @+1 {{writes in place into unmarked argument #0}}
  %1 = "torch.aten.mul_"(%x) {coreai.overload = "Scalar", coreai.args = "(T, 2.0)", coreai.node = "mul_"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @expand(%x: tensor<1x8xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<1x8xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %e = "torch.aten.expand"(%t) {coreai.overload = "default", coreai.args = "(T, [4, 8])", coreai.node = "expand", coreai.alias_of = [0]} : (tensor<1x8xf32>) -> tensor<4x8xf32>
  // expected-error @+1 {{writes in place through 'expand' (aten.expand.default), a view that cannot be written back functionally}}
  %1 = "torch.aten.mul_"(%e) {coreai.overload = "Scalar", coreai.args = "(T, 2.0)", coreai.node = "mul_"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t : tensor<1x8xf32>
}

// -----

func.func @ambiguous(%a: tensor<4xf32> {coreai.kind = "state", coreai.name = "a"}, %x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4xf32> {coreai.kind = "state_update", coreai.name = "a"}) {
  // expected-error @+1 {{writes in place into state argument 'a' and returns another value as its state_update}}
  %1 = "torch.aten.mul_"(%a, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{has in-place ops and more than one block}}
func.func @blocks(%x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "torch.aten.mul_"(%t) {coreai.overload = "Scalar", coreai.args = "(T, 2.0)", coreai.node = "mul_"} : (tensor<4xf32>) -> tensor<4xf32>
  "test.br"()[^next] : () -> ()
^next:
  return %t : tensor<4xf32>
}

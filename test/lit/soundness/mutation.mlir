// The coreai-plan-buffers pass plans functional graphs only: a graph that
// still writes into operands (ATen's in-place `*_` ops, `out=` variants:
// torch.export emits them before run_decompositions()) is refused at the
// op, since a reorder could move a reader across the write and in-place
// reuse could place another value over the written bytes. A write into a
// function input is named. The CLI runs coreai-functionalize first
// (functionalize/), which makes the first function functional and refuses
// the write into a weight.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="in-place=true reorder=true" -split-input-file -verify-diagnostics %s
// RUN: sh -c 'coreai-plan buffers %s; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CLI
// CLI-NOT: intermediate
// CLI: mutation.mlir:{{[0-9]+}}:8: error: writes in place into weight argument 'w': only a state argument (coreai.kind = "state") may be updated by a call
// CLI: exit=1

// The reader %1 of %0 must see %0 before the add_; a memory-aware order
// could move it after.
func.func @intermediate(%a: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{'torch.aten.add_' writes into its operand #0 (%0): only functional graphs are planned}}
  %2 = "torch.aten.add_"(%0, %b) {coreai.args = "(T, T)"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %1, %2 : tensor<16xf32>, tensor<16xf32>
}

// -----

func.func @input(%x: tensor<16xf32> {coreai.kind = "input", coreai.name = "x"}) -> tensor<16xf32> {
  // expected-error @+1 {{'torch.aten.mul_' writes into its operand #0 (%arg0, function argument #0 of kind 'input')}}
  %0 = "torch.aten.mul_"(%x, %x) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @weight(%w: tensor<16xf32> {coreai.kind = "weight", coreai.name = "w"}, %src: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'torch.aten.copy_' writes into its operand #0 (%arg0, function argument #0 of kind 'weight')}}
  %0 = "torch.aten.copy_"(%w, %src) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A mutation through a view writes the view's base.
func.func @through_view(%c: tensor<8x16xf16> {coreai.kind = "state", coreai.name = "cache"}, %i: tensor<1xi64>, %v: tensor<1x16xf16>) -> tensor<16xf16> {
  %0 = "torch.aten.slice"(%c) {coreai.alias_of = [0]} : (tensor<8x16xf16>) -> tensor<8x16xf16>
  // expected-error @+1 {{'torch.aten.index_put_' writes into its operand #0 (%0)}}
  %1 = "torch.aten.index_put_"(%0, %i, %v) {coreai.args = "(T, [T], T)"} : (tensor<8x16xf16>, tensor<1xi64>, tensor<1x16xf16>) -> tensor<8x16xf16>
  %2 = "torch.aten.select"(%1) {coreai.alias_of = [0]} : (tensor<8x16xf16>) -> tensor<16xf16>
  %3 = "torch.aten.neg"(%2) : (tensor<16xf16>) -> tensor<16xf16>
  return %3 : tensor<16xf16>
}

// -----

// `out=` variants write the tensor passed for `out` (the trailing operand).
func.func @out_variant(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{'torch.aten.add' writes into its operand #2 (%0)}}
  %1 = "torch.aten.add"(%b, %b, %0) {coreai.overload = "out", coreai.args = "(T, T, out=T)"} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// In-place dunders (`__iand__`) too; detach_ as well.
func.func @dunder(%a: tensor<16xi1>, %b: tensor<16xi1>) -> tensor<16xi1> {
  %0 = "torch.aten.bitwise_not"(%a) : (tensor<16xi1>) -> tensor<16xi1>
  // expected-error @+1 {{'torch.aten.__iand__' writes into its operand #0 (%0)}}
  %1 = "torch.aten.__iand__"(%0, %b) : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
  return %1 : tensor<16xi1>
}

// -----

func.func @detach(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{'torch.aten.detach_' writes into its operand #0 (%0)}}
  %1 = "torch.aten.detach_"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

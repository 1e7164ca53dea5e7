// Every malformed coreai annotation is refused when the file is parsed,
// with its location, before any pass runs: coreai-plan-opt here, and
// `coreai-plan plan` on the same kind of file (exit 1) below.
// RUN: coreai-plan-opt --allow-unregistered-dialect -split-input-file -verify-diagnostics %s
// RUN: sh -c 'coreai-plan plan %S/Inputs/bad-placement.mlir --target generic -o %t; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CLI
// RUN: not ls %t
// CLI: bad-placement.mlir:5:{{[0-9]+}}: error: 'coreai.placement' of result 0: gives 32 bytes, but its type 'tensor<16xf32>' takes 64
// CLI: exit=1
// RUN: sh -c 'coreai-plan-opt --allow-unregistered-dialect %S/Inputs/bad-placement.mlir -o /dev/null; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: bad-placement.mlir:5:8: error: 'coreai.placement' of result 0: gives 32 bytes, but its type 'tensor<16xf32>' takes 64
// OPT: exit=1

func.func @count(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.placement' must be an array with one placement per result (1), got [#coreai.none, #coreai.none]}}
  %0 = "torch.aten.neg"(%x) {coreai.placement = [#coreai.none, #coreai.none]} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @not_a_placement(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.placement' of result 0 must be #coreai.heap, #coreai.lent, #coreai.output, #coreai.state, #coreai.fused or #coreai.none, got 3 : i64}}
  %0 = "torch.aten.neg"(%x) {coreai.placement = [3]} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @unknown_kind(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{unknown attribute `stack` in dialect `coreai`}}
  %0 = "torch.aten.neg"(%x) {coreai.placement = [#coreai.stack<offset = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @negative_offset(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'offset' must not be negative, got -64}}
  %0 = "torch.aten.neg"(%x) {coreai.placement = [#coreai.heap<offset = -64, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @size_of_type(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.placement' of result 0: gives 32 bytes, but its type 'tensor<16xf32>' takes 64}}
  %0 = "torch.aten.neg"(%x) {coreai.placement = [#coreai.heap<offset = 0, size = 32>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @output_out_of_range(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.placement' of result 0: names output 1, but the function has 1}}
  %0 = "torch.aten.neg"(%x) {coreai.placement = [#coreai.lent<output = 1, offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @state_out_of_range(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.placement' of result 0: names argument 2, but the function has 1}}
  %0 = "torch.aten.neg"(%x) {coreai.placement = [#coreai.state<arg = 2>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @in_place_out_of_range(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.placement' of result 0: is in place over operand 1, but the op has 1}}
  %0 = "torch.aten.neg"(%x) {coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 1>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @old_arrays(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.offsets' is the old placement form (one array slot per result); this coreai-plan reads one 'coreai.placement' per op: plan the graph again}}
  %0 = "torch.aten.neg"(%x) {coreai.offsets = array<i64: 0>} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// expected-error @+1 {{'coreai.plan' must be a #coreai.plan, got {heap = 0 : i64}}}
func.func @old_plan() attributes {coreai.plan = {heap = 0 : i64}} {
  return
}

// -----

// expected-error @+1 {{'alignment' must be a power of two, got 3}}
func.func @bad_alignment() attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 3, buffers = 0, algorithm = "best", optimal = true>} {
  return
}

// -----

// expected-error @+1 {{'coreai.kind' of an argument must be one of "weight" "input" "state" "constant", got "wieght"}}
func.func @arg_kind(%w: tensor<4xf32> {coreai.kind = "wieght"}) {
  return
}

// -----

// expected-error @+1 {{malformed coreai.sym_ranges: [1:2, byte=2]: Expected object key}}
module attributes {coreai.sym_ranges = "{s58: [1, 64]"} {
}

// -----

func.func @unknown_name(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{unknown attribute 'coreai.ofset' (docs/LIVENESS.md lists the coreai attributes)}}
  %0 = "torch.aten.neg"(%x) {coreai.ofset = 3} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// The exporter's strings are parsed at the boundary, by one parser each
// (coreai-plan/Exporter/): arguments that are no Python tuple, a symbolic
// shape outside the grammar, ranges without [min, max].
func.func @unreadable_args(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.args' must be the call's arguments as a Python tuple ("(T, 2, dim=-1)"), got "(T, [T], T"}}
  %0 = "torch.aten.index_put"(%x) {coreai.args = "(T, [T], T"} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @unbalanced_keyword(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.args' must be the call's arguments as a Python tuple}}
  %0 = "torch.aten.clone"(%x) {coreai.args = "(T, memory_format=torch.contiguous_format"} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// expected-error @+1 {{'coreai.sym_shape' is not a symbolic shape: in 's0 //': unexpected end}}
func.func @arg_shape(%x: tensor<?xf32> {coreai.sym_shape = "s0 // "}) {
  return
}

// -----

// expected-error @+1 {{malformed coreai.sym_ranges: symbol 's0' needs [min, max]}}
module attributes {coreai.sym_ranges = "{\"s0\": [\"64\", \"1\"]}"} {
}

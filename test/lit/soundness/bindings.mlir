// The runtime writes each state_update back into the `state` argument of
// the same coreai.name. Anything but one update per state, one state per
// name, is bad input: an error at the function naming the result or the
// arguments, exit 1, nothing written.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers -split-input-file -verify-diagnostics %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c 'coreai-plan plan %s --target h18p -o %t/out; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CLI
// RUN: not ls %t/out/plan.json
// CLI: bindings.mlir:{{[0-9]+}}:1: error: results #0 and #1 of @twice both update the state 'cache'
// CLI: exit=1

// expected-error @+1 {{results #0 and #1 of @twice both update the state 'cache': the runtime's write-back would be ambiguous}}
func.func @twice(%c: tensor<8xf16> {coreai.kind = "state", coreai.name = "cache"}, %v: tensor<8xf16>) -> (tensor<8xf16> {coreai.kind = "state_update", coreai.name = "cache"}, tensor<8xf16> {coreai.kind = "state_update", coreai.name = "cache"}) {
  %0 = "torch.aten.add"(%c, %v) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  %1 = "torch.aten.mul"(%c, %v) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %0, %1 : tensor<8xf16>, tensor<8xf16>
}

// -----

// expected-error @+1 {{result #0 of @no_such_state updates 'cache', but no 'state' argument has that name}}
func.func @no_such_state(%c: tensor<8xf16> {coreai.kind = "state", coreai.name = "kache"}, %v: tensor<8xf16>) -> (tensor<8xf16> {coreai.kind = "state_update", coreai.name = "cache"}) {
  %0 = "torch.aten.add"(%c, %v) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// expected-error @+1 {{result #0 of @unnamed_update is a 'state_update' without a 'coreai.name': it names no state argument}}
func.func @unnamed_update(%c: tensor<8xf16> {coreai.kind = "state", coreai.name = "cache"}, %v: tensor<8xf16>) -> (tensor<8xf16> {coreai.kind = "state_update"}) {
  %0 = "torch.aten.add"(%c, %v) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// expected-error @+1 {{result #0 of @updates_input updates 'x', which is argument #1 of kind 'input', not a 'state': the function may not change it}}
func.func @updates_input(%c: tensor<8xf16> {coreai.kind = "state", coreai.name = "cache"}, %x: tensor<8xf16> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<8xf16> {coreai.kind = "state_update", coreai.name = "x"}) {
  %0 = "torch.aten.index_put"(%x, %c) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// expected-error @+1 {{result #0 of @updates_weight updates 'w', which is argument #0 of kind 'weight', not a 'state'}}
func.func @updates_weight(%w: tensor<8xf16> {coreai.kind = "weight", coreai.name = "w"}, %v: tensor<8xf16>) -> (tensor<8xf16> {coreai.kind = "state_update", coreai.name = "w"}) {
  %0 = "torch.aten.add"(%w, %v) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// expected-error @+1 {{arguments #0 and #1 of @same_name are both the state 'cache': the runtime's write-back would be ambiguous}}
func.func @same_name(%c0: tensor<8xf16> {coreai.kind = "state", coreai.name = "cache"}, %c1: tensor<8xf16> {coreai.kind = "state", coreai.name = "cache"}) -> (tensor<8xf16> {coreai.kind = "state_update", coreai.name = "cache"}) {
  %0 = "torch.aten.add"(%c0, %c1) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// expected-error @+1 {{argument #0 of @unnamed_state is a 'state' without a 'coreai.name'}}
func.func @unnamed_state(%c: tensor<8xf16> {coreai.kind = "state"}, %v: tensor<8xf16>) -> tensor<8xf16> {
  %0 = "torch.aten.add"(%c, %v) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

// expected-error @+1 {{result #0 of @other_type updates the state 'cache' with type 'tensor<4xf16>', but the state is 'tensor<8xf16>'}}
func.func @other_type(%c: tensor<8xf16> {coreai.kind = "state", coreai.name = "cache"}, %v: tensor<4xf16>) -> (tensor<4xf16> {coreai.kind = "state_update", coreai.name = "cache"}) {
  %0 = "torch.aten.neg"(%v) : (tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Well-formed: two states, each updated once, and a state only read.
func.func @fine(%c0: tensor<8xf16> {coreai.kind = "state", coreai.name = "c0"}, %c1: tensor<8xf16> {coreai.kind = "state", coreai.name = "c1"}, %c2: tensor<8xf16> {coreai.kind = "state", coreai.name = "c2"}) -> (tensor<8xf16> {coreai.kind = "state_update", coreai.name = "c1"}, tensor<8xf16> {coreai.kind = "state_update", coreai.name = "c0"}, tensor<8xf16> {coreai.kind = "output"}) {
  %0 = "torch.aten.add"(%c0, %c2) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  %1 = "torch.aten.mul"(%c1, %c2) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  %2 = "torch.aten.neg"(%c2) : (tensor<8xf16>) -> tensor<8xf16>
  return %1, %0, %2 : tensor<8xf16>, tensor<8xf16>, tensor<8xf16>
}

// Planted faults, one per function: the replay fails on each, naming the
// op, the value and the bytes. It recomputes what it can (sizes from the
// types, which operand a result may be written over from the op class)
// and trusts no annotation it can check.
// RUN: not coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay -split-input-file %s -o /dev/null 2>&1 | FileCheck %s

// An offset off the plan's alignment.
// CHECK: error: the plan of @misaligned fails the replay: 'torch.aten.neg' at {{.*}}faults.mlir:[[@LINE+2]]:{{[0-9]+}}: %0 at heap offset 32 is not aligned to 64 bytes
func.func @misaligned(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 96, lower_bound = 0, alignment = 64, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 32, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// A size smaller than the type: %1 would fit after 32 bytes if anything
// believed it. The dialect refuses it when the file is parsed (the replay
// sizes every value from its type too).
// CHECK: faults.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'coreai.placement' of result 0: gives 32 bytes, but its type 'tensor<16xf32>' takes 64
func.func @size_smaller(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 96, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 32>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%a) {coreai.placement = [#coreai.heap<offset = 32, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.add"(%0, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// -----

// An intermediate with no place at all (no offset, output or state) that
// is not returned: the runtime would have nowhere to put it.
// CHECK: error: the plan of @no_place fails the replay: 'torch.aten.neg' at {{.*}}: %0 (64 bytes) has no place: no heap offset, output or state, and it is not returned
func.func @no_place(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// Two places for one value: in the typed form, two entries for one
// result, refused when the file is parsed.
// CHECK: faults.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'coreai.placement' must be an array with one placement per result (1), got [#coreai.heap<offset = 0, size = 64>, #coreai.output<0>]
func.func @two_places(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>, #coreai.output<0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// A negative offset: refused when the file is parsed.
// CHECK: faults.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'offset' must not be negative, got -64
func.func @negative_offset(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = -64, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// An output chain built in the storage of the wrong output: the runtime
// reads output 0 from output 0's storage.
// CHECK: error: the plan of @wrong_output fails the replay: 'func.return' at {{.*}}: result 0 is %1, which sits in the storage of output 1
func.func @wrong_output(%a: tensor<16xf32>) -> (tensor<16xf32> {coreai.kind = "output"}, tensor<16xf32> {coreai.kind = "output"}) attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.output<1>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) {coreai.placement = [#coreai.output<1>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.sin"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  return %1, %2 : tensor<16xf32>, tensor<16xf32>
}

// -----

// An output's storage written by a value that is not returned there.
// CHECK: error: the plan of @stale_output fails the replay: 'func.return' at {{.*}}: output 0's storage holds a value the function does not return there
func.func @stale_output(%a: tensor<16xf32>) -> (tensor<16xf32> {coreai.kind = "output"}) attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// A state update written into another state's storage.
// CHECK: error: the plan of @wrong_state fails the replay: 'func.return' at {{.*}}: result 0 (the update of 'c0') is %0, which sits in the storage of state argument 1 (c1)
func.func @wrong_state(%c0: tensor<16xf32> {coreai.kind = "state", coreai.name = "c0"}, %c1: tensor<16xf32> {coreai.kind = "state", coreai.name = "c1"}, %i: tensor<2xi64>, %v: tensor<2xf32>) -> (tensor<16xf32> {coreai.kind = "state_update", coreai.name = "c0"}) attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.index_put"(%c0, %i, %v) {coreai.placement = [#coreai.state<arg = 1>]} : (tensor<16xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A state written, but the value returned as its update is another one:
// the runtime keeps what is in the state's storage.
// CHECK: error: the plan of @state_update_elsewhere fails the replay: 'func.return' at {{.*}}: argument 0 (c0) is written, but the value returned as its update is not the one in it
func.func @state_update_elsewhere(%c0: tensor<16xf32> {coreai.kind = "state", coreai.name = "c0"}, %i: tensor<2xi64>, %v: tensor<2xf32>) -> (tensor<16xf32> {coreai.kind = "state_update", coreai.name = "c0"}) attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.index_put"(%c0, %i, %v) {coreai.placement = [#coreai.state<arg = 0>]} : (tensor<16xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<16xf32>
  %1 = "torch.aten.neg"(%0) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// An input written through an op that writes its operand.
// CHECK: error: the plan of @input_mutated fails the replay: step 0 ('torch.aten.add_' at {{.*}}) writes into %arg0 (argument 0 (x) bytes [0, 64)), which the caller does not let the function change
func.func @input_mutated(%x: tensor<16xf32> {coreai.kind = "input", coreai.name = "x"}) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.add_"(%x, %x) {coreai.alias_of = [0]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A state placement into an input.
// CHECK: error: the plan of @input_as_state fails the replay: 'torch.aten.index_put' at {{.*}}: %0 is placed in argument 0 (x), which the caller does not let the function change
func.func @input_as_state(%x: tensor<16xf32> {coreai.kind = "input", coreai.name = "x"}, %i: tensor<2xi64>, %v: tensor<2xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.index_put"(%x, %i, %v) {coreai.placement = [#coreai.state<arg = 0>]} : (tensor<16xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A matrix product written over its dying operand: every row of %0 is
// read for every row of the result, so in place is unsound even though
// %0 is read by this op only. The replay takes the op class from the op,
// not from coreai.in_place.
// CHECK: error: the plan of @not_elementwise fails the replay: step 1 ('torch.aten.mm' at {{.*}}) writes %1 (heap bytes [0, 64)) over bytes [0, 64) of %0, which it reads: the op does not compute its result element by element from that operand
func.func @not_elementwise(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "torch.aten.mm"(%0, %w) {coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "torch.aten.tanh"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// -----

// A channels_last copy written over its input.
// CHECK: error: the plan of @layout_copy_in_place fails the replay: step 1 ('torch.aten.clone' at {{.*}}) writes %1 (heap bytes [0, 64)) over bytes [0, 64) of %0, which it reads
func.func @layout_copy_in_place(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.clone"(%0) {coreai.args = "(T, memory_format=torch.channels_last)", coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "torch.aten.tanh"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// -----

// Elementwise over a permuted view of the operand: element i of the view
// is not byte i of the buffer.
// CHECK: error: the plan of @through_permute fails the replay: step 2 ('torch.aten.neg' at {{.*}}) writes %2 (heap bytes [0, 64)) over bytes [0, 64) of %1, which it reads
func.func @through_permute(%a: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "torch.aten.permute"(%0) {coreai.alias_of = [0]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "torch.aten.neg"(%1) {coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = "torch.aten.tanh"(%2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// -----

// Two live values overlapping: %1 overwrites %0 before the add reads it.
// CHECK: error: the plan of @overlap fails the replay: step 2 ('torch.aten.add' at {{.*}}) reads %0 (heap bytes [0, 64)), but bytes [32, 64) hold %1, written at step 1 ('torch.aten.tanh'
func.func @overlap(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 0, alignment = 32, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%a) {coreai.placement = [#coreai.heap<offset = 32, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.add"(%0, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// -----

// A heap smaller than the values in it.
// CHECK: error: the plan of @heap_too_small fails the replay: step 0 ('torch.aten.neg' {{.*}} writes %0 at heap bytes [0, 64), outside heap of 48 bytes
func.func @heap_too_small(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 48, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

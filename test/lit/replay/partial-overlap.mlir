// A result may share bytes with an operand only in the documented in-place
// case: an operand of the op's in-place class (elementwise, softmax, state
// update) with the result's type, and the result lying exactly on it (same
// storage, offset and size). Shifted by one alignment step, element i of
// the result lands on element i + 16 of the operand, which a parallel
// kernel may not have read yet. Every other overlap of a result with an
// operand or with another result of its op fails, in the heap, in a lent
// output and in a state. The exact case passes: replay/in-place-exact.mlir.
// RUN: not coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay -split-input-file %s -o /dev/null 2>&1 | FileCheck %s

// In the heap: %1 written over %0 shifted by one alignment step (64 bytes).
// CHECK: error: the plan of @heap_shifted fails the replay: step 1 ('torch.aten.neg' at {{.*}}partial-overlap.mlir:[[@LINE+3]]:{{[0-9]+}}) writes %1 (heap bytes [64, 192)) over bytes [64, 128) of %0, which it reads: in place, a result must lie exactly on its operand's bytes (heap bytes [0, 128)), not shifted over them
func.func @heap_shifted(%a: tensor<32xf32>) -> tensor<32xf32> attributes {coreai.plan = #coreai.plan<heap = 192, lower_bound = 0, alignment = 64, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.tanh"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 128>]} : (tensor<32xf32>) -> tensor<32xf32>
  %1 = "torch.aten.neg"(%0) {coreai.placement = [#coreai.heap<offset = 64, size = 128, in_place = 0>]} : (tensor<32xf32>) -> tensor<32xf32>
  %2 = "torch.aten.sin"(%1) : (tensor<32xf32>) -> tensor<32xf32>
  return %2 : tensor<32xf32>
}

// -----

// In a lent output: %1 borrowed 32 bytes (one alignment step) past %0.
// CHECK: error: the plan of @lent_shifted fails the replay: step 1 ('torch.aten.tanh' at {{.*}}partial-overlap.mlir:[[@LINE+3]]:{{[0-9]+}}) writes %1 (output 0 bytes [32, 96)) over bytes [32, 64) of %0, which it reads: in place, a result must lie exactly on its operand's bytes (output 0 bytes [0, 64)), not shifted over them
func.func @lent_shifted(%a: tensor<16xf32>, %w: tensor<16x4xf32>) -> tensor<64xf32> attributes {coreai.plan = #coreai.plan<heap = 256, lower_bound = 0, alignment = 32, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.lent<output = 0, offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) {coreai.placement = [#coreai.lent<output = 0, offset = 32, size = 64, in_place = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.mm"(%1, %w) {coreai.placement = [#coreai.heap<offset = 0, size = 256>]} : (tensor<16xf32>, tensor<16x4xf32>) -> tensor<64xf32>
  %3 = "torch.aten.neg"(%2) {coreai.placement = [#coreai.output<0>]} : (tensor<64xf32>) -> tensor<64xf32>
  return %3 : tensor<64xf32>
}

// -----

// In a state: a value placed there fills the whole storage (any other size
// is refused), so a partial overlap comes through a view. Here the update's
// values are a slice of the state itself, shifted from where they go: the
// slice covers the state's extent (the replay cannot say which bytes), and
// only the state operand may be written over.
// CHECK: error: the plan of @state_from_own_slice fails the replay: step 1 ('torch.aten.index_put' at {{.*}}partial-overlap.mlir:[[@LINE+3]]:{{[0-9]+}}) writes %1 (argument 0 (cache) bytes [0, 64)) over bytes [0, 64) of %0, which it reads: the op does not compute its result element by element from that operand
func.func @state_from_own_slice(%s: tensor<16xf32> {coreai.kind = "state", coreai.name = "cache"}, %i: tensor<2xi64>) -> (tensor<16xf32> {coreai.kind = "state_update", coreai.name = "cache"}) attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.slice"(%s) {coreai.alias_of = [0]} : (tensor<16xf32>) -> tensor<2xf32>
  %1 = "torch.aten.index_put"(%s, %i, %0) {coreai.placement = [#coreai.state<arg = 0>]} : (tensor<16xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// In a state, through a view of the state's own type that moves elements:
// element (i, j) of the transpose is byte (j, i) of the state.
// CHECK: error: the plan of @state_through_transpose fails the replay: step 1 ('torch.aten.add' at {{.*}}partial-overlap.mlir:[[@LINE+3]]:{{[0-9]+}}) writes %1 (argument 0 (cache) bytes [0, 64)) over bytes [0, 64) of %0, which it reads: the op does not compute its result element by element from that operand
func.func @state_through_transpose(%s: tensor<4x4xf32> {coreai.kind = "state", coreai.name = "cache"}) -> (tensor<4x4xf32> {coreai.kind = "state_update", coreai.name = "cache"}) attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.permute"(%s) {coreai.alias_of = [0]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "torch.aten.add"(%s, %0) {coreai.placement = [#coreai.state<arg = 0>]} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// Two results of one op sharing bytes: the kernel writes both (only the
// second is read later, so no later read shows the clobber).
// CHECK: error: the plan of @two_results fails the replay: step 0 ('torch.aten.var_mean' at {{.*}}partial-overlap.mlir:[[@LINE+2]]:{{[0-9]+}}) writes %0#0 (heap bytes [0, 16)) and %0#1 (heap bytes [8, 24)), which share bytes [8, 16): two results of one op may not overlap
func.func @two_results(%a: tensor<4x4xf32>) -> tensor<4xf32> attributes {coreai.plan = #coreai.plan<heap = 24, lower_bound = 0, alignment = 8, buffers = 0, algorithm = "best", optimal = true>} {
  %0:2 = "torch.aten.var_mean"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 16>, #coreai.heap<offset = 8, size = 16>]} : (tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %1 = "torch.aten.tanh"(%0#1) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A matrix product exactly over its operand: same offset, same size, but
// mm is no in-place class (every row of %0 is read for every row).
// CHECK: error: the plan of @mm_exact fails the replay: step 1 ('torch.aten.mm' at {{.*}}partial-overlap.mlir:[[@LINE+3]]:{{[0-9]+}}) writes %1 (heap bytes [0, 64)) over bytes [0, 64) of %0, which it reads: the op does not compute its result element by element from that operand
func.func @mm_exact(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 64, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "torch.aten.mm"(%0, %w) {coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "torch.aten.tanh"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

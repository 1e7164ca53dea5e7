// The documented in-place case passes the replay: a result of an op's
// in-place class (elementwise, softmax, state update) written exactly over
// its operand of the result's type (same storage, offset and size), in the
// heap, in a lent output and in a state; also through a reshape, whose
// elements are the root's in order. Shifted or other overlaps fail:
// replay/partial-overlap.mlir.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay -split-input-file %s -o /dev/null

func.func @heap(%a: tensor<32xf32>) -> tensor<4x8xf32> attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 0, alignment = 64, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.tanh"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 128>]} : (tensor<32xf32>) -> tensor<32xf32>
  %1 = "torch.aten.neg"(%0) {coreai.placement = [#coreai.heap<offset = 0, size = 128, in_place = 0>]} : (tensor<32xf32>) -> tensor<32xf32>
  %2 = "torch.aten._softmax"(%1) {coreai.args = "(T, -1, False)", coreai.placement = [#coreai.heap<offset = 0, size = 128, in_place = 0>]} : (tensor<32xf32>) -> tensor<32xf32>
  %3 = "torch.aten.view"(%2) {coreai.alias_of = [0]} : (tensor<32xf32>) -> tensor<4x8xf32>
  %4 = "torch.aten.sin"(%3) {coreai.placement = [#coreai.heap<offset = 0, size = 128, in_place = 0>]} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = "torch.aten.cos"(%4) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %5 : tensor<4x8xf32>
}

// -----

func.func @lent(%a: tensor<16xf32>, %w: tensor<16x4xf32>) -> tensor<64xf32> attributes {coreai.plan = #coreai.plan<heap = 256, lower_bound = 0, alignment = 32, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.lent<output = 0, offset = 32, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) {coreai.placement = [#coreai.lent<output = 0, offset = 32, size = 64, in_place = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.mm"(%1, %w) {coreai.placement = [#coreai.heap<offset = 0, size = 256>]} : (tensor<16xf32>, tensor<16x4xf32>) -> tensor<64xf32>
  %3 = "torch.aten.neg"(%2) {coreai.placement = [#coreai.output<0>]} : (tensor<64xf32>) -> tensor<64xf32>
  return %3 : tensor<64xf32>
}

// -----

func.func @state(%s: tensor<16xf32> {coreai.kind = "state", coreai.name = "cache"}, %i: tensor<2xi64>, %v: tensor<2xf32>) -> (tensor<16xf32> {coreai.kind = "state_update", coreai.name = "cache"}) attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.index_put"(%s, %i, %v) {coreai.placement = [#coreai.state<arg = 0>]} : (tensor<16xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

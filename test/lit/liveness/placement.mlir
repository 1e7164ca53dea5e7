// Output placement: an in-place chain that ends in a returned value is
// built in that output's storage (coreai.output names the result position),
// so it needs no heap. State placement: a state update returned as its
// state's state_update writes into the state argument (coreai.state names
// the argument). Each refusal below would be unsound or is outside the rule.
// Every plan here also passes the replay (planFunction runs it).
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="in-place=true output-placement=true state-placement=true" %s | FileCheck %s
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=in-place=true %s | FileCheck %s --check-prefix=OFF
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="in-place=true output-placement=true state-placement=true" --coreai-verify-replay %s -o /dev/null
// The same switches on `coreai-plan buffers`:
// RUN: coreai-plan buffers %s --in-place --output-placement --state-placement | FileCheck %s --check-prefix=CLI
// RUN: coreai-plan buffers %s | FileCheck %s --check-prefix=CLI-OFF
// CLI: @softcap 0 0 0 0 1.0000 best yes 128
// CLI-OFF: @softcap 0 3 128 128 1.0000 best yes -

// The logits soft-cap: mm -> div -> tanh -> mul, returned. Without output
// placement the chain holds one heap buffer until mul writes the output;
// without any reuse mm and div (or div and tanh) are live together.
// CHECK-LABEL: func.func @softcap
// CHECK-SAME: heap = 0{{[,>]}}{{.*}}buffers = 0{{[,>]}}{{.*}}in_place_saved = 128{{[,>]}}
// CHECK: "torch.aten.mm"{{.*}}coreai.placement = [#coreai.output<0>]
// CHECK: "torch.aten.div"{{.*}}coreai.placement = [#coreai.output<0>]
// CHECK: "torch.aten.tanh"{{.*}}coreai.placement = [#coreai.output<0>]
// CHECK: "torch.aten.mul"{{.*}}coreai.placement = [#coreai.output<0>]
// OFF-LABEL: func.func @softcap
// OFF-SAME: heap = 64{{[,>]}}{{.*}}buffers = 1{{[,>]}}
// OFF-NOT: coreai.output
// OFF: return
func.func @softcap(%x: tensor<4x2xf32>, %w: tensor<2x4xf32>) -> tensor<1x4x4xf32> {
  %0 = "torch.aten.mm"(%x, %w) : (tensor<4x2xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %1 = "torch.aten.view"(%0) {coreai.alias_of = [0]} : (tensor<4x4xf32>) -> tensor<1x4x4xf32>
  %2 = "torch.aten.div"(%1) : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %3 = "torch.aten.tanh"(%2) : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %4 = "torch.aten.mul"(%3) : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %4 : tensor<1x4x4xf32>
}

// Refused: the chain's buffer is read after the returned op (the output is
// written while the chain is still needed).
// CHECK-LABEL: func.func @chain_read_later
// CHECK-SAME: buffers = 1{{[,>]}}
// CHECK: "torch.aten.neg"{{.*}}#coreai.heap
// CHECK-NOT: "torch.aten.neg"{{.*}}coreai.output
// CHECK: return
func.func @chain_read_later(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "test.use"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1, %2 : tensor<16xf32>, tensor<16xf32>
}

// Refused: a value returned at two positions has no one output storage,
// and one returned through a permutation is copied out by the runtime.
// CHECK-LABEL: func.func @no_single_output
// CHECK-SAME: buffers = 2{{[,>]}}
// CHECK-NOT: coreai.output
// CHECK: return
func.func @no_single_output(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "torch.aten.neg"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = "torch.aten.tanh"(%2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %4 = "torch.aten.permute"(%3) {coreai.alias_of = [0]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1, %1, %4 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// The KV-cache update: index_put into the cache, read by attention, then
// returned as the cache's state_update: written into the cache itself.
// CHECK-LABEL: func.func @kv_update
// CHECK: "torch.aten.index_put"{{.*}}coreai.placement = [#coreai.state<arg = 0>]
// OFF-LABEL: func.func @kv_update
// OFF-NOT: coreai.state
// OFF: return
func.func @kv_update(%cache: tensor<1x8x4xf16> {coreai.kind = "state", coreai.name = "key_cache_0"}, %pos: tensor<1xi64> {coreai.kind = "input", coreai.name = "cache_position"}, %k: tensor<1x1x4xf16>) -> (tensor<1x8x4xf16> {coreai.kind = "state_update", coreai.name = "key_cache_0"}, tensor<1x8xf16> {coreai.kind = "output"}) {
  %0 = "torch.aten.index_put"(%cache, %pos, %k) : (tensor<1x8x4xf16>, tensor<1xi64>, tensor<1x1x4xf16>) -> tensor<1x8x4xf16>
  %1 = "test.attention"(%0) : (tensor<1x8x4xf16>) -> tensor<1x8xf16>
  return %0, %1 : tensor<1x8x4xf16>, tensor<1x8xf16>
}

// Refused: each update is returned as the other state's update (writing it
// into its own operand's storage would update the wrong state), and the
// old c0 is read after its update. (A state_update naming a weight, or two
// updates of one state, are bad input: soundness/bindings.mlir.)
// CHECK-LABEL: func.func @state_refusals
// CHECK-NOT: coreai.state
// CHECK: return
func.func @state_refusals(%c0: tensor<8xf16> {coreai.kind = "state", coreai.name = "c0"}, %c1: tensor<8xf16> {coreai.kind = "state", coreai.name = "c1"}, %i: tensor<1xi64>, %v: tensor<1xf16>) -> (tensor<8xf16> {coreai.kind = "state_update", coreai.name = "c0"}, tensor<8xf16> {coreai.kind = "state_update", coreai.name = "c1"}, tensor<8xf16>) {
  %0 = "torch.aten.index_put"(%c0, %i, %v) : (tensor<8xf16>, tensor<1xi64>, tensor<1xf16>) -> tensor<8xf16>
  %1 = "test.use"(%c0) : (tensor<8xf16>) -> tensor<8xf16>
  %2 = "torch.aten.index_put"(%c1, %i, %v) : (tensor<8xf16>, tensor<1xi64>, tensor<1xf16>) -> tensor<8xf16>
  return %2, %0, %1 : tensor<8xf16>, tensor<8xf16>, tensor<8xf16>
}

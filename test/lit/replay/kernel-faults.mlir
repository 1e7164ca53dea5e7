// Faults planted by hand into fused plans (issue 37): the replay judges
// which result may lie on which operand from its own list of ops
// (docs/LIVENESS.md, "The replay's own list"), not from the planner's op
// facts, so each is refused even where the planner's facts were wrong.
// RUN: coreai-plan-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --coreai-verify-replay %s -o /dev/null

// A kernel's result over the operand of a channels_last copy in it: the
// copy lays the elements out again, so a tiled kernel overwrites elements
// it has still to read.
// expected-error @+1 {{the plan of @layout_copy fails the replay: step 1 ('kernel 0 (2 ops, torch.aten.contiguous .. torch.aten.neg)' at}}
func.func @layout_copy() -> tensor<1x2x2x4xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 64, alignment = 64, buffers = 1, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 64>} {
  %0 = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<1x2x2x4xf32>
  %1 = "torch.aten.contiguous"(%0) {coreai.args = "(T, memory_format=torch.channels_last)", coreai.alias_of = [-1], coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %2 = "torch.aten.neg"(%1) {coreai.args = "(T)", coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %3 = "test.use"(%2) {coreai.placement = [#coreai.output<0>]} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  return %3 : tensor<1x2x2x4xf32>
}

// -----

// The same copy alone, written over its operand.
// expected-error @+1 {{the plan of @layout_copy_alone fails the replay: step 1 ('torch.aten.clone' at}}
func.func @layout_copy_alone() -> tensor<1x2x2x4xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 64, alignment = 64, buffers = 1, algorithm = "best", optimal = true>} {
  %0 = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<1x2x2x4xf32>
  %1 = "torch.aten.clone"(%0) {coreai.args = "(T, memory_format=torch.channels_last)", coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %2 = "test.use"(%1) {coreai.placement = [#coreai.output<0>]} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  return %2 : tensor<1x2x2x4xf32>
}

// -----

// A kernel {einsum product, relu} whose result lies on the product's
// operand: element i of the product reads a row and a column.
// expected-error @+1 {{the plan of @einsum_product fails the replay: step 1 ('kernel 0 (2 ops, torch.aten.einsum .. torch.aten.relu)' at}}
func.func @einsum_product(%w: tensor<4x4x4xf32>) -> tensor<4x4x4xf32> attributes {coreai.plan = #coreai.plan<heap = 256, lower_bound = 256, alignment = 64, buffers = 1, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 256>} {
  %0 = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 256>]} : () -> tensor<4x4x4xf32>
  %1 = "torch.aten.einsum"(%0, %w) {coreai.args = "('bij,bjk->bik', [T, T])", coreai.alias_of = [-1], coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %2 = "torch.aten.relu"(%1) {coreai.args = "(T)", coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 0, size = 256, in_place = 0>]} : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %3 = "test.use"(%2) {coreai.placement = [#coreai.output<0>]} : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %3 : tensor<4x4x4xf32>
}

// -----

// A transpose einsum alone over its operand.
// expected-error @+1 {{the plan of @einsum_transpose fails the replay: step 1 ('torch.aten.einsum' at}}
func.func @einsum_transpose() -> tensor<4x4xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 64, alignment = 64, buffers = 1, algorithm = "best", optimal = true>} {
  %0 = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<4x4xf32>
  %1 = "torch.aten.einsum"(%0) {coreai.args = "('ij->ji', [T])", coreai.alias_of = [-1], coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "test.use"(%1) {coreai.placement = [#coreai.output<0>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// -----

// A kernel {neg(m), exp(m)}: exp over m holds only if the runtime runs neg
// first, which a plan that does not say `kernels_in_ir_order` does not
// promise.
// expected-error @+1 {{the plan of @two_readers fails the replay: step 1 ('kernel 0 (2 ops, torch.aten.neg .. torch.aten.exp)' at}}
func.func @two_readers() -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 128, alignment = 64, buffers = 2, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 0>} {
  %m = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<16xf32>
  %n = "torch.aten.neg"(%m) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 64, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %e = "torch.aten.exp"(%m) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %s = "test.use"(%n, %e) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

// The same plan, made for a runtime that runs a kernel's ops in IR order:
// sound, and it passes.
func.func @two_readers_in_order() -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 128, alignment = 64, buffers = 2, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 0, kernels_in_ir_order = true>} {
  %m = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<16xf32>
  %n = "torch.aten.neg"(%m) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 64, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %e = "torch.aten.exp"(%m) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %s = "test.use"(%n, %e) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

// A kernel split in two runs, another op between: a kernel is one step.
func.func @split_kernel() -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 128, alignment = 64, buffers = 2, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 64>} {
  %0 = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<16xf32>
  %1 = "torch.aten.neg"(%0) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.exp"(%0) {coreai.placement = [#coreai.heap<offset = 64, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{'coreai.kernel' 0: the kernel's ops are not contiguous}}
  %3 = "torch.aten.tanh"(%1) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %4 = "test.use"(%2, %3) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %4 : tensor<16xf32>
}

// -----

// An op that writes its operand inside a kernel.
func.func @effect_in_kernel(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 128, alignment = 64, buffers = 2, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 64>} {
  %0 = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<16xf32>
  %1 = "torch.aten.neg"(%0) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{'coreai.kernel' 0: 'torch.aten.add_' has effects}}
  %2 = "torch.aten.add_"(%1, %a) {coreai.overload = "Tensor", coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 64, size = 64>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %3 = "test.use"(%2) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %3 : tensor<16xf32>
}

// The replay treats a kernel as one step and recomputes the kernel in-place
// rule from the ops (Kernels.h): the planted faults below are caught; the
// sound plan passes.
// RUN: coreai-plan-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --coreai-verify-replay %s -o /dev/null

// Sound: %s, the kernel's last result, lies exactly on %x, which the
// kernel reads only up to there, elementwise.
func.func @sound() -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 128, alignment = 64, buffers = 2, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 64>} {
  %0 = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<16xf32>
  %1 = "torch.aten.neg"(%0) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%1) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 64, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.add"(%0, %2) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %4 = "test.use"(%2, %3) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %4 : tensor<16xf32>
}

// -----

// Planted: the kernel's output %r placed over its input %x, which a later
// op of the same kernel (add) reads.
// expected-error @+1 {{the plan of @output_over_later_read fails the replay: step 1 ('kernel 0 (3 ops, torch.aten.neg .. torch.aten.add)' at}}
func.func @output_over_later_read() -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 128, alignment = 64, buffers = 2, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 64>} {
  %0 = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<16xf32>
  %1 = "torch.aten.neg"(%0) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%1) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.add"(%0, %2) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 64, size = 64>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %4 = "test.use"(%2, %3) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %4 : tensor<16xf32>
}

// -----

// Planted: an inner value with a reader outside the kernel, placed as if it
// stayed inside.
// expected-error @+1 {{the plan of @fused_read_outside fails the replay: 'test.use' at}}
func.func @fused_read_outside(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 64, alignment = 64, buffers = 1, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 64>} {
  %0 = "torch.aten.neg"(%a) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) {coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "test.use"(%0, %1) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// -----

// Planted: a kernel with a reduction is not elementwise over its input; its
// result may not lie on it.
// expected-error @+1 {{the plan of @reduction_over_input fails the replay: step 1 ('kernel 0 (2 ops, torch.aten.mean .. torch.aten.mul)'}}
func.func @reduction_over_input() -> tensor<4x4xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 64, alignment = 64, buffers = 1, algorithm = "best", optimal = true, kernels = 1, fused_bytes = 16>} {
  %0 = "test.src"() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : () -> tensor<4x4xf32>
  %1 = "torch.aten.mean"(%0) {coreai.args = "(T, [-1], True)", coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<4x4xf32>) -> tensor<4x1xf32>
  %2 = "torch.aten.mul"(%0, %1) {coreai.args = "(T, T)", coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
  %3 = "test.use"(%2) {coreai.placement = [#coreai.output<0>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

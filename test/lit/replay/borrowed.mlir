// Borrowed bytes share the output's shadow with the output's own value: a
// value borrowed in an output that the output's first write overwrites
// while the value is still needed fails the replay.
// RUN: not coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay %s -o /dev/null 2>&1 | FileCheck %s

// %0 is borrowed at output 0's bytes [0, 64) and still read by test.use
// after the mm wrote the output (placed there: coreai.output) over it.
// CHECK: error: the plan of @overwritten fails the replay: step 2 ('test.use' {{.*}} reads %0 (output 0 bytes [0, 64)), but bytes [0, 64) hold %1, written at step 1 ('torch.aten.mm'
func.func @overwritten(%a: tensor<16xf32>, %w: tensor<16x4xf32>) -> tensor<64xf32> attributes {coreai.plan = #coreai.plan<heap = 256, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.lent<output = 0, offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.mm"(%a, %w) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>, tensor<16x4xf32>) -> tensor<64xf32>
  %2 = "test.use"(%0, %1) {coreai.placement = [#coreai.heap<offset = 0, size = 256>]} : (tensor<16xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// Bytes past the output's end.
// CHECK: error: the plan of @past_end fails the replay: step 0 ('torch.aten.neg' {{.*}} writes %0 at output 0 bytes [224, 288), outside output 0 of 256 bytes
func.func @past_end(%a: tensor<16xf32>, %w: tensor<16x4xf32>) -> tensor<64xf32> attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.lent<output = 0, offset = 224, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.mm"(%0, %w) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>, tensor<16x4xf32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// A result lent by an output the function does not have is refused when
// the file is parsed: dialect/placement-errors.mlir.

// Borrowing an output whose returned value is not placed in its storage:
// the bytes the runtime reads back are not the returned value's.
// CHECK: error: the plan of @not_placed fails the replay: {{.*}}output 0's storage holds a value the function does not return there
func.func @not_placed(%a: tensor<16xf32>, %w: tensor<16x4xf32>) -> tensor<64xf32> attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.lent<output = 0, offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.mm"(%0, %w) : (tensor<16xf32>, tensor<16x4xf32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// An offset inside an output that is not a multiple of the alignment.
// CHECK: error: the plan of @misaligned fails the replay: {{.*}}%0 at offset 32 of output 0 is not aligned to 64 bytes
func.func @misaligned(%a: tensor<16xf32>, %w: tensor<16x4xf32>) -> tensor<64xf32> attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 64, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.lent<output = 0, offset = 32, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.mm"(%0, %w) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>, tensor<16x4xf32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

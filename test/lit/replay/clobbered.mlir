// The replay reads the plan back from the annotations alone and catches
// what the interval verifier cannot see: here %1 is placed over %0 while
// %0 is still read by the add.
// RUN: not coreai-plan-opt --allow-unregistered-dialect --coreai-verify-replay %s -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: the plan of @clobbered fails the replay: step 3 ('torch.aten.add' at {{.*}}clobbered.mlir:{{[0-9]+}}:{{[0-9]+}}) reads %0 (heap bytes [0, 64)), but bytes [0, 64) hold %1, written at step 1 ('torch.aten.tanh'
func.func @clobbered(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.mul"(%1, %1) {coreai.placement = [#coreai.heap<offset = 64, size = 64>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.add"(%0, %2) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %3 : tensor<16xf32>
}

// A view reads what its source's writer left: the slice of %0 is read
// after %2 took %0's bytes.
// CHECK: error: the plan of @through_view fails the replay: step 3 ('test.use' {{.*}} reads %1 (heap bytes [0, 64)), but bytes [0, 64) hold %2
func.func @through_view(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.slice"(%0) {coreai.alias_of = [0]} : (tensor<16xf32>) -> tensor<8xf32>
  %2 = "torch.aten.tanh"(%0) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "test.use"(%1, %2) : (tensor<8xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %3 : tensor<16xf32>
}

// A buffer past the heap's end.
// CHECK: error: the plan of @outside fails the replay: step 0 ('torch.aten.neg' {{.*}} writes %0 at heap bytes [32, 96), outside heap of 64 bytes
func.func @outside(%a: tensor<16xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.heap<offset = 32, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// A state write into a weight: only `state` arguments may change.
// CHECK: error: the plan of @into_weight fails the replay: 'torch.aten.index_put' at {{.*}}: %0 is placed in argument 0 (w), which the caller does not let the function change
func.func @into_weight(%w: tensor<16xf32> {coreai.kind = "weight", coreai.name = "w"}, %i: tensor<2xi64>, %v: tensor<2xf32>) -> tensor<16xf32> attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.index_put"(%w, %i, %v) {coreai.placement = [#coreai.state<arg = 0>]} : (tensor<16xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// A state update placed in the state while the old state is read later.
// CHECK: error: the plan of @old_state_read_later fails the replay: step 1 ('test.use' {{.*}} reads %arg0 (argument 0 (cache) bytes [0, 64)), but bytes [0, 64) hold %0
func.func @old_state_read_later(%s: tensor<16xf32> {coreai.kind = "state", coreai.name = "cache"}, %i: tensor<2xi64>, %v: tensor<2xf32>) -> (tensor<16xf32> {coreai.kind = "state_update", coreai.name = "cache"}, tensor<16xf32>) attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "best", optimal = true>} {
  %0 = "torch.aten.index_put"(%s, %i, %v) {coreai.placement = [#coreai.state<arg = 0>]} : (tensor<16xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<16xf32>
  %1 = "test.use"(%s) : (tensor<16xf32>) -> tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}

// Annotations that do not fit the op (a placement per result, in range,
// sized as the type) are refused when the file is parsed:
// dialect/placement-errors.mlir.

// Input the planner cannot size gets an error at the op, never a crash.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers -split-input-file -verify-diagnostics %s

func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{%0 of type tensor<?xf32> has a dynamic dimension (dim 0) and no binding for it: specialise the graph to static shapes first (`coreai-plan plan --chunks/--bind`)}}
  %0 = "torch.aten.neg"(%a) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = "test.use"(%0) : (tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// The exporter's symbolic shape names the dimension.
func.func @dynamic_symbol(%a: tensor<1x?xf32>) -> tensor<1x?xf32> {
  // expected-error @+1 {{%0 of type tensor<1x?xf32> has a dynamic dimension (dim 1 = s58) and no binding}}
  %0 = "torch.aten.neg"(%a) {coreai.sym_shapes = ["1,s58"]} : (tensor<1x?xf32>) -> tensor<1x?xf32>
  %1 = "test.use"(%0) : (tensor<1x?xf32>) -> tensor<1x?xf32>
  return %1 : tensor<1x?xf32>
}

// -----

func.func @unknown_element(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{%0 has element type '!test.opaque' of unknown size: the planner cannot size it}}
  %0 = "test.op"(%a) : (tensor<4xf32>) -> tensor<4x!test.opaque>
  %1 = "test.use"(%0) : (tensor<4x!test.opaque>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @unranked(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result #0 of 'test.op' has type 'tensor<*xf32>', not a ranked tensor or memref: the planner cannot size it}}
  %0 = "test.op"(%a) : (tensor<4xf32>) -> tensor<*xf32>
  %1 = "test.use"(%0) : (tensor<*xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @opaque(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result #1 of 'torch.aten.thing' has type '!torch.vtensor<[4],f32>', not a ranked tensor or memref}}
  %0:2 = "torch.aten.thing"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, !torch.vtensor<[4],f32>)
  return %0#0 : tensor<4xf32>
}

// -----

func.func @bad_alias_of(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'coreai.alias_of' must hold one operand index (or -1) per result; this op has 1 operands and 1 results}}
  %0 = "torch.aten.view"(%a) {coreai.alias_of = [3]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{@blocks has 2 blocks: only single-block functions are planned}}
func.func @blocks(%a: tensor<4xf32>) -> tensor<4xf32> {
  "cf.br"()[^next] : () -> ()
^next:
  return %a : tensor<4xf32>
}

// -----

// A bad function does not stop the others from being planned and reported.
func.func @fine(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "test.use"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @broken(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{has a dynamic dimension}}
  %0 = "torch.aten.neg"(%a) : (tensor<4xf32>) -> tensor<?xf32>
  return %a : tensor<4xf32>
}

// -----

// Odd but valid input is planned, not a crash: a view op without operands
// allocates, a function ending in an unregistered op has no outputs.
func.func @odd() -> tensor<4xf32> {
  %0 = "torch.aten.view"() : () -> tensor<4xf32>
  %1 = "test.use"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  "test.end"(%1) : (tensor<4xf32>) -> ()
}

// A state update whose other operands read the old state (through a view)
// cannot run in the state's storage: the kernel would read values it has
// already replaced. Refused, and the replay agrees the refusal was needed
// (faults planted by hand in replay/faults.mlir).
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="in-place=true output-placement=true state-placement=true" %s | FileCheck %s

// CHECK-LABEL: func.func @values_from_old_state(
// CHECK-NOT: coreai.state
// CHECK: return
func.func @values_from_old_state(%c: tensor<8x4xf16> {coreai.kind = "state", coreai.name = "cache"}, %i: tensor<1xi64>) -> (tensor<8x4xf16> {coreai.kind = "state_update", coreai.name = "cache"}) {
  %0 = "torch.aten.slice"(%c) {coreai.alias_of = [0]} : (tensor<8x4xf16>) -> tensor<1x4xf16>
  %1 = "torch.aten.index_put"(%c, %i, %0) {coreai.args = "(T, [T], T)"} : (tensor<8x4xf16>, tensor<1xi64>, tensor<1x4xf16>) -> tensor<8x4xf16>
  return %1 : tensor<8x4xf16>
}

// Positive control: values computed from elsewhere.
// CHECK-LABEL: func.func @values_elsewhere(
// CHECK: "torch.aten.index_put"{{.*}}coreai.placement = [#coreai.state<arg = 0>]
func.func @values_elsewhere(%c: tensor<8x4xf16> {coreai.kind = "state", coreai.name = "cache"}, %i: tensor<1xi64>, %v: tensor<1x4xf16>) -> (tensor<8x4xf16> {coreai.kind = "state_update", coreai.name = "cache"}) {
  %1 = "torch.aten.index_put"(%c, %i, %v) {coreai.args = "(T, [T], T)"} : (tensor<8x4xf16>, tensor<1xi64>, tensor<1x4xf16>) -> tensor<8x4xf16>
  return %1 : tensor<8x4xf16>
}

// An update whose arguments cannot be read is refused when the file is
// parsed (dialect/placement-errors.mlir).


// Each placement kind of the coreai dialect, as the planner writes it and
// as a planned file is read back: parsed, verified and printed unchanged.
// RUN: coreai-plan-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: coreai-plan-opt --allow-unregistered-dialect %s | coreai-plan-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @kinds
// CHECK-SAME: coreai.plan = #coreai.plan<heap = 128, lower_bound = 128, alignment = 64, buffers = 2, algorithm = "best", optimal = true, in_place_saved = 64, borrowed_bytes = 64, reordered = false>
func.func @kinds(%x: tensor<16xf32>, %cache: tensor<16xf32> {coreai.kind = "state", coreai.name = "cache"})
    -> (tensor<16xf32> {coreai.kind = "output"}, tensor<16xf32> {coreai.kind = "state_update", coreai.name = "cache"})
    attributes {coreai.plan = #coreai.plan<heap = 128, lower_bound = 128, alignment = 64, buffers = 2, algorithm = "best", optimal = true, in_place_saved = 64, borrowed_bytes = 64, reordered = false>} {
  // In the heap at an offset.
  // CHECK: "torch.aten.neg"{{.*}}coreai.placement = [#coreai.heap<offset = 0, size = 64>]
  %0 = "torch.aten.neg"(%x) {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  // Written over operand 0's bytes.
  // CHECK: "torch.aten.exp"{{.*}}coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]
  %1 = "torch.aten.exp"(%0) {coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]} : (tensor<16xf32>) -> tensor<16xf32>
  // Scratch lent by output 0 before its value is written.
  // CHECK: "torch.aten.sin"{{.*}}coreai.placement = [#coreai.lent<output = 0, offset = 0, size = 64>]
  %2 = "torch.aten.sin"(%1) {coreai.placement = [#coreai.lent<output = 0, offset = 0, size = 64>]} : (tensor<16xf32>) -> tensor<16xf32>
  // Built in output 0's storage.
  // CHECK: "torch.aten.cos"{{.*}}coreai.placement = [#coreai.output<0>]
  %3 = "torch.aten.cos"(%2) {coreai.placement = [#coreai.output<0>]} : (tensor<16xf32>) -> tensor<16xf32>
  // Written into state argument 1.
  // CHECK: "torch.aten.add"{{.*}}coreai.placement = [#coreai.state<arg = 1>]
  %4 = "torch.aten.add"(%cache, %1) {coreai.placement = [#coreai.state<arg = 1>]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  // A result with no bytes of its own beside a placed one.
  // CHECK: "test.two"{{.*}}coreai.placement = [#coreai.none, #coreai.heap<offset = 64, size = 64>]
  %5:2 = "test.two"(%x) {coreai.placement = [#coreai.none, #coreai.heap<offset = 64, size = 64>]} : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
  return %3, %4 : tensor<16xf32>, tensor<16xf32>
}

// The optional fields of the plan summary are left out when a technique
// was off.
// CHECK-LABEL: func.func @summary
// CHECK-SAME: coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "naive", optimal = false>
func.func @summary() attributes {coreai.plan = #coreai.plan<heap = 0, lower_bound = 0, alignment = 1, buffers = 0, algorithm = "naive", optimal = false>} {
  return
}

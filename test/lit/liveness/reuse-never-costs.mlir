// Reuse is allowed, never required: where a packing with the in-place
// rules comes out larger than the same algorithm's packing without them
// (greedy-by-size here: 5888 bytes against 5632), the plan without is
// kept. Before, the larger plan was written with in_place_saved = -256,
// which the coreai.plan attribute refuses: asserting builds aborted, and
// the planned IR did not parse back (the archive fuzzer's finding, with
// its 5 ms search budget in place of the heuristic).
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="algorithm=greedy-by-size in-place=true alignment=1" %s | coreai-plan-opt --allow-unregistered-dialect | FileCheck %s
// CHECK: coreai.plan = #coreai.plan<heap = 5632, lower_bound = 5632, {{.*}}algorithm = "greedy-by-size", {{.*}}in_place_saved = 0>
func.func @reuse_packs_worse(%arg0: tensor<2x64xf32>) -> tensor<1x64xf32> {
  %v0 = "torch.aten.exp"(%arg0) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %v1 = "torch.aten.neg"(%arg0) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %v2 = "torch.aten.cat"(%v0, %v0) {coreai.overload = "default", coreai.args = "([T, T])"} : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<4x64xf32>
  %v3 = "torch.aten.add"(%v1, %v0) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
  %v4 = "torch.aten.cat"(%v3, %v1) {coreai.overload = "default", coreai.args = "([T, T])"} : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<4x64xf32>
  %v5 = "torch.aten.cat"(%v1, %arg0) {coreai.overload = "default", coreai.args = "([T, T])"} : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<4x64xf32>
  %v6 = "torch.aten.cat"(%v3, %v2) {coreai.overload = "default", coreai.args = "([T, T])"} : (tensor<2x64xf32>, tensor<4x64xf32>) -> tensor<6x64xf32>
  %v7 = "torch.aten.neg"(%v6) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<6x64xf32>) -> tensor<6x64xf32>
  %v8 = "torch.aten.neg"(%v7) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<6x64xf32>) -> tensor<6x64xf32>
  %v9 = "torch.aten.neg"(%v5) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %v10 = "torch.aten.sum"(%v7) {coreai.overload = "dim_IntList", coreai.args = "(T, [0], True)"} : (tensor<6x64xf32>) -> tensor<1x64xf32>
  %v11 = "torch.aten.add"(%v7, %v6) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<6x64xf32>, tensor<6x64xf32>) -> tensor<6x64xf32>
  %v12 = "torch.aten.add"(%v10, %v10) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %v13 = "torch.aten.cat"(%v10, %v11) {coreai.overload = "default", coreai.args = "([T, T])"} : (tensor<1x64xf32>, tensor<6x64xf32>) -> tensor<7x64xf32>
  %v14 = "torch.aten.sum"(%v10) {coreai.overload = "dim_IntList", coreai.args = "(T, [0], True)"} : (tensor<1x64xf32>) -> tensor<1x64xf32>
  return %v14 : tensor<1x64xf32>
}

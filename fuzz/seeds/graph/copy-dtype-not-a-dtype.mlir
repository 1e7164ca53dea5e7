// The graph fuzzer's finding after issue 37: a cast whose dtype keyword
// is no dtype (`t2orch.float32`). The planner took it for an elementwise
// copy and wrote a kernel's result over its operand; the replay, whose own
// list knows dtypes only, refused that: an internal error. A copy's dtype
// must now be a dtype for the planner too.
module attributes {coreai.source = "torch.export", coreai.model = "fused-casts"} {
  func.func @f(%arg0: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"}, %arg1: tensor<8x8xf16> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<4x8xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten._to_copy"(%arg1) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy"} : (tensor<8x8xf16>) -> tensor<8x8xf32>
    %1 = "torch.aten.mm"(%arg0, %0) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %2 = "torch.aten._to_copy"(%1) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float16)", coreai.node = "_to_copy_1"} : (tensor<4x8xf32>) -> tensor<4x8xf16>
    %3 = "torch.aten._to_copy"(%2) {coreai.overload = "default", coreai.args = "(T, dtype=t2orch.float32)", coreai.node = "_to_copy_2"} : (tensor<4x8xf16>) -> tensor<4x8xf32>
    %4 = "torch.aten.add"(%3, %arg0) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %4 : tensor<4x8xf32>
  }
}

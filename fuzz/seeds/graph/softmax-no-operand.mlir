// The archive fuzzer's finding (2026-12-05): a softmax with no operand,
// its result read by a matrix product as an attention's weights would be.
module attributes {coreai.source = "torch.export", coreai.model = "adversarial"} {
  func.func @f(%v: tensor<4x4xf16> {coreai.kind = "input", coreai.name = "v"}) -> (tensor<4x4xf16> {coreai.kind = "output"}) {
    %p = "torch.aten._softmax"() {coreai.overload = "default", coreai.node = "_softmax"} : () -> tensor<4x4xf16>
    %o = "torch.aten.mm"(%p, %v) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm"} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
    return %o : tensor<4x4xf16>
  }
}

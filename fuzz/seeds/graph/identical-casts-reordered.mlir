// Issue 41 by reordering alone (no fusion, no unknown op): the first of two
// identical casts sinks to its reader, after the second.
module attributes {coreai.source = "torch.export", coreai.model = "adversarial"} {
  func.func @f(%arg0: tensor<64xf16> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<64xf32> {coreai.kind = "output"}, tensor<64xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten._to_copy"(%arg0) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy"} : (tensor<64xf16>) -> tensor<64xf32>
    %1 = "torch.aten._to_copy"(%arg0) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy"} : (tensor<64xf16>) -> tensor<64xf32>
    %2 = "torch.aten.neg"(%1) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<64xf32>) -> tensor<64xf32>
    %3 = "torch.aten.exp"(%2) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "exp"} : (tensor<64xf32>) -> tensor<64xf32>
    %4 = "torch.aten.add"(%0, %3) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "foo"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %4, %3 : tensor<64xf32>, tensor<64xf32>
  }
}

module {
  func.func @main(%x: tensor<2x8xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<8xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<2x8xf32> {coreai.kind = "output"}, tensor<2x8xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.mul"(%x, %w) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    %1 = "torch.aten._to_copy"(%0) {coreai.overload = "default", coreai.args = "(T, dtype=torch.bfloat16)", coreai.node = "_to_copy"} : (tensor<2x8xf32>) -> tensor<2x8xbf16>
    %2 = "torch.aten.mul"(%1, %1) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul_1"} : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
    %3 = "torch.aten._to_copy"(%2) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy_1"} : (tensor<2x8xbf16>) -> tensor<2x8xf32>
    %4 = "torch.aten.add"(%3, %0) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %5 = "torch.aten.neg"(%3) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    return %4, %5 : tensor<2x8xf32>, tensor<2x8xf32>
  }
}

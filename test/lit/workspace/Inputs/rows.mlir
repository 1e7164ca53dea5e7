// An mm, a softmax over its rows, a mean of each row, then the mm's result
// again: %0 is live across the softmax (its operand) and the mean (which
// does not read it). f32 [4, 8] values of 128 bytes.
module attributes {coreai.model = "rows"} {
  func.func @main(%w: tensor<8x8xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %x: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"})
      -> (tensor<4x8xf32> {coreai.kind = "output"}) attributes {coreai.seq_len = 4 : i64} {
    %0 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %1 = "torch.aten._softmax"(%0) {coreai.overload = "default", coreai.args = "(T, -1, False)"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = "torch.aten.mean"(%1) {coreai.overload = "dim", coreai.args = "(T, [-1], True)"} : (tensor<4x8xf32>) -> tensor<4x1xf32>
    %3 = "torch.aten.mul"(%1, %2) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    %4 = "torch.aten.add"(%3, %0) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %4 : tensor<4x8xf32>
  }
}

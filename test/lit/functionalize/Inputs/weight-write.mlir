// A weight written in place: refused by every command (functionalize-errors.mlir).
func.func @main(%w: tensor<4xf32> {coreai.kind = "weight", coreai.name = "w"}, %x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}) -> (tensor<4xf32> {coreai.kind = "output"}) {
  %t = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "torch.aten.add_"(%w, %t) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}

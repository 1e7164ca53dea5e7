// A size with floor division: 64 * ((s0 + 1) // 2) bytes is no polynomial.
module attributes {coreai.sym_ranges = "{\"s0\": [\"1\", \"8\"]}"} {
  func.func @main(%x: tensor<1x?x16xf32> {coreai.kind = "input", coreai.name = "x", coreai.sym_shape = "1,s0,16"})
      -> (tensor<1x16xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.tanh"(%x) {coreai.sym_shapes = ["1,s0,16"]} : (tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
    %1 = "torch.aten.slice"(%0) {coreai.overload = "Tensor", coreai.args = "(T, 1, 0, 9223372036854775807, 2)", coreai.sym_shapes = ["1,(s0+1)//2,16"]} : (tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
    %2 = "torch.aten.tanh"(%1) {coreai.sym_shapes = ["1,(s0+1)//2,16"]} : (tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
    %3 = "torch.aten.sum"(%2) {coreai.overload = "dim_IntList", coreai.args = "(T, [1])"} : (tensor<1x?x16xf32>) -> tensor<1x16xf32>
    return %3 : tensor<1x16xf32>
  }
}

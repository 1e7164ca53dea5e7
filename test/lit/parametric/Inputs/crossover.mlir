// Sizes that cross over: %a is 4096 bytes at every S, %c is 128*S bytes
// (smaller than %a below S=32, larger above), and both are live at once.
module attributes {coreai.model = "crossover", coreai.sym_ranges = "{\"s0\": [\"1\", \"64\"]}"} {
  func.func @main(%w: tensor<32x32xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %e: tensor<16x32xf32> {coreai.kind = "weight", coreai.name = "e"},
                  %ids: tensor<1x?xi64> {coreai.kind = "input", coreai.name = "input_ids", coreai.sym_shape = "1,s0"})
      -> (tensor<1x?x32xf32> {coreai.kind = "output", coreai.sym_shape = "1,s0,32"}) {
    %a = "torch.aten.tanh"(%w) {coreai.overload = "default"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %c = "torch.aten.embedding"(%e, %ids) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,32"]} : (tensor<16x32xf32>, tensor<1x?xi64>) -> tensor<1x?x32xf32>
    %b = "torch.aten.sum"(%a) {coreai.overload = "dim_IntList", coreai.args = "(T, [1])"} : (tensor<32x32xf32>) -> tensor<32xf32>
    %d = "torch.aten.mul"(%c, %b) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,32"]} : (tensor<1x?x32xf32>, tensor<32xf32>) -> tensor<1x?x32xf32>
    %f = "torch.aten.add"(%d, %c) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,32"]} : (tensor<1x?x32xf32>, tensor<1x?x32xf32>) -> tensor<1x?x32xf32>
    return %f : tensor<1x?x32xf32>
  }
}

// One function with a dynamic sequence length s0 in [1, 8], in the form
// torch.export gives it: `?` dims, each with its expression.
module attributes {coreai.model = "dynamic", coreai.sym_ranges = "{\"s0\": [\"1\", \"8\"]}"} {
  func.func @main(%w: tensor<16x8xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %ids: tensor<1x?xi64> {coreai.kind = "input", coreai.name = "input_ids", coreai.sym_shape = "1,s0"})
      -> (tensor<1x?x8xf32> {coreai.kind = "output", coreai.sym_shape = "1,s0,8"}) {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,8"]} : (tensor<16x8xf32>, tensor<1x?xi64>) -> tensor<1x?x8xf32>
    %1 = "torch.aten.cat"(%0, %0) {coreai.overload = "default", coreai.args = "([T, T], 1)", coreai.sym_shapes = ["1,2*s0,8"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    %2 = "torch.aten.tanh"(%1) {coreai.overload = "default", coreai.sym_shapes = ["1,2*s0,8"]} : (tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    %3 = "torch.aten.mul"(%0, %0) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,8"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    %4 = "torch.aten.sum"(%2, %3) {coreai.overload = "default", coreai.sym_shapes = ["1,(2*s0)//2,8"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    return %4 : tensor<1x?x8xf32>
  }
}

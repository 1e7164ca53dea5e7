// A mean over 32*s0 elements: h18p's two-stage reduction takes workspace
// only for rows longer than 1024 (s0 > 32), so the buffers change with S.
module attributes {coreai.model = "workspace-with-s", coreai.sym_ranges = "{\"s0\": [\"1\", \"64\"]}"} {
  func.func @main(%e: tensor<16x32xf32> {coreai.kind = "weight", coreai.name = "e"},
                  %ids: tensor<1x?xi64> {coreai.kind = "input", coreai.name = "input_ids", coreai.sym_shape = "1,s0"})
      -> (tensor<1x?x32xf32> {coreai.kind = "output", coreai.sym_shape = "1,s0,32"}) {
    %c = "torch.aten.embedding"(%e, %ids) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,32"]} : (tensor<16x32xf32>, tensor<1x?xi64>) -> tensor<1x?x32xf32>
    %v = "torch.aten.view"(%c) {coreai.overload = "default", coreai.args = "(T, [1, 32*s0])", coreai.sym_shapes = ["1,32*s0"]} : (tensor<1x?x32xf32>) -> tensor<1x?xf32>
    %m = "torch.aten.mean"(%v) {coreai.overload = "dim", coreai.args = "(T, [-1], True)"} : (tensor<1x?xf32>) -> tensor<1x1xf32>
    %o = "torch.aten.mul"(%c, %m) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.sym_shapes = ["1,s0,32"]} : (tensor<1x?x32xf32>, tensor<1x1xf32>) -> tensor<1x?x32xf32>
    return %o : tensor<1x?x32xf32>
  }
}

// A product on a tall weight (K = 2048 >= 4 N) whose input names its
// kernel variant (coreai.variant = "split_k": 4 x s0 x 64 f32 partials,
// a polynomial of S): a parametric plan sizes the workspace for it at
// every S, and must keep the name the workspace was sized for.
module attributes {coreai.model = "parametric-variant", coreai.sym_ranges = "{\"s0\": [\"1\", \"8\"]}"} {
  func.func @main(%x: tensor<?x2048xf32> {coreai.kind = "input", coreai.name = "x", coreai.sym_shape = "s0,2048"}, %w: tensor<2048x64xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<?x64xf32> {coreai.kind = "output", coreai.sym_shape = "s0,64"}) {
    %a = "torch.aten.relu"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.sym_shapes = ["s0,2048"]} : (tensor<?x2048xf32>) -> tensor<?x2048xf32>
    %p = "torch.aten.mm"(%a, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.variant = "split_k", coreai.sym_shapes = ["s0,64"]} : (tensor<?x2048xf32>, tensor<2048x64xf32>) -> tensor<?x64xf32>
    %o = "torch.aten.tanh"(%p) {coreai.overload = "default", coreai.args = "(T)", coreai.sym_shapes = ["s0,64"]} : (tensor<?x64xf32>) -> tensor<?x64xf32>
    return %o : tensor<?x64xf32>
  }
}

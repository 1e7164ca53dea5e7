// Two 209.7 MB values (%a, %c) live together, then die before a product
// on a tall weight (K = 8192, N = 2048): its split-K partials (4 x 10240 x
// 2048 f32, 335.5 MB) fit in the bytes they leave, but are above h18p's
// max_buffer_bytes (268.4 MB). The direct kernel needs no workspace and
// is within every limit.
module attributes {coreai.model = "split-k-over-max-buffer"} {
  func.func @main(%x0: tensor<10240x5120xf32> {coreai.kind = "input", coreai.name = "x0"}, %x1: tensor<10240x5120xf32> {coreai.kind = "input", coreai.name = "x1"}, %y: tensor<10240x8192xf32> {coreai.kind = "input", coreai.name = "y"}, %w: tensor<8192x2048xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<10240x2048xf32> {coreai.kind = "output"}) {
    %a = "torch.aten.exp"(%x0) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<10240x5120xf32>) -> tensor<10240x5120xf32>
    %b = "torch.aten.exp"(%x1) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<10240x5120xf32>) -> tensor<10240x5120xf32>
    %c = "torch.aten.add"(%a, %b) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<10240x5120xf32>, tensor<10240x5120xf32>) -> tensor<10240x5120xf32>
    %s = "torch.aten.sum"(%a) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<10240x5120xf32>) -> tensor<f32>
    %t = "torch.aten.sum"(%c) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<10240x5120xf32>) -> tensor<f32>
    %st = "torch.aten.add"(%s, %t) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %p = "torch.aten.mm"(%y, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<10240x8192xf32>, tensor<8192x2048xf32>) -> tensor<10240x2048xf32>
    %o = "torch.aten.mul"(%p, %st) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<10240x2048xf32>, tensor<f32>) -> tensor<10240x2048xf32>
    return %o : tensor<10240x2048xf32>
  }
}

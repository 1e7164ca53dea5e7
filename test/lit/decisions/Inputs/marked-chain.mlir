// An upstream fuser marked kernel 0 around a cheap chain (neg, exp of an
// argument) that two later ops read: recompute clones the chain in front
// of each reader, and the clones must not carry the kernel's mark (the
// kernel would then sit in three places).
module attributes {coreai.model = "marked-chain"} {
  func.func @main(%x: tensor<4x256xf32> {coreai.kind = "input", coreai.name = "x"}, %pos: tensor<4x256xf32> {coreai.kind = "input", coreai.name = "pos"}, %w: tensor<256x256xf32> {coreai.kind = "weight", coreai.name = "w"}, %wup: tensor<256x1024xf32> {coreai.kind = "weight", coreai.name = "w_up"}, %wdown: tensor<1024x256xf32> {coreai.kind = "weight", coreai.name = "w_down"}) -> (tensor<4x256xf32> {coreai.kind = "output"}) {
    %m0 = "torch.aten.neg"(%pos) {coreai.overload = "default", coreai.args = "(T)", coreai.kernel = 0 : i64} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %m1 = "torch.aten.exp"(%m0) {coreai.overload = "default", coreai.args = "(T)", coreai.kernel = 0 : i64} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %h = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %a = "torch.aten.mul"(%h, %m1) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
    %up = "torch.aten.mm"(%a, %wup) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<256x1024xf32>) -> tensor<4x1024xf32>
    %u = "torch.aten.mm"(%up, %wdown) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x1024xf32>, tensor<1024x256xf32>) -> tensor<4x256xf32>
    %b = "torch.aten.add"(%u, %m1) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
    return %b : tensor<4x256xf32>
  }
}

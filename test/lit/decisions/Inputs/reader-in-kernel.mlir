// The chain (neg, exp of an argument) is unmarked, but its second reader
// is the second op of kernel 1 (an upstream fuser's mark): a clone placed
// right in front of that reader would split the kernel in two.
module attributes {coreai.model = "reader-in-kernel"} {
  func.func @main(%x: tensor<4x256xf32> {coreai.kind = "input", coreai.name = "x"}, %pos: tensor<4x256xf32> {coreai.kind = "input", coreai.name = "pos"}, %w: tensor<256x256xf32> {coreai.kind = "weight", coreai.name = "w"}, %wup: tensor<256x1024xf32> {coreai.kind = "weight", coreai.name = "w_up"}, %wdown: tensor<1024x256xf32> {coreai.kind = "weight", coreai.name = "w_down"}) -> (tensor<4x256xf32> {coreai.kind = "output"}) {
    %m0 = "torch.aten.neg"(%pos) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %m1 = "torch.aten.exp"(%m0) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %h = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %a = "torch.aten.mul"(%h, %m1) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
    %up = "torch.aten.mm"(%a, %wup) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<256x1024xf32>) -> tensor<4x1024xf32>
    %u = "torch.aten.mm"(%up, %wdown) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x1024xf32>, tensor<1024x256xf32>) -> tensor<4x256xf32>
    %r = "torch.aten.relu"(%u) {coreai.overload = "default", coreai.args = "(T)", coreai.kernel = 1 : i64} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %b = "torch.aten.add"(%r, %m1) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)", coreai.kernel = 1 : i64} : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
    return %b : tensor<4x256xf32>
  }
}

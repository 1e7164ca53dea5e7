// The chain's (neg, exp of an argument) second reader sits inside a
// region: an scf.for's body in @in_for, an scf.if's branch in @in_if. A
// clone placed in front of that reader would land inside the region.
module attributes {coreai.model = "reader-in-region"} {
  func.func @in_for(%x: tensor<4x256xf32> {coreai.kind = "input", coreai.name = "x"}, %pos: tensor<4x256xf32> {coreai.kind = "input", coreai.name = "pos"}, %w: tensor<256x256xf32> {coreai.kind = "weight", coreai.name = "w"}, %wup: tensor<256x1024xf32> {coreai.kind = "weight", coreai.name = "w_up"}, %wdown: tensor<1024x256xf32> {coreai.kind = "weight", coreai.name = "w_down"}) -> (tensor<4x256xf32> {coreai.kind = "output"}) {
    %m0 = "torch.aten.neg"(%pos) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %m1 = "torch.aten.exp"(%m0) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %h = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %a = "torch.aten.mul"(%h, %m1) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
    %up = "torch.aten.mm"(%a, %wup) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<256x1024xf32>) -> tensor<4x1024xf32>
    %u = "torch.aten.mm"(%up, %wdown) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x1024xf32>, tensor<1024x256xf32>) -> tensor<4x256xf32>
    %lb = arith.constant 0 : index
    %ub = arith.constant 2 : index
    %step = arith.constant 1 : index
    %b = scf.for %i = %lb to %ub step %step iter_args(%acc = %u) -> (tensor<4x256xf32>) {
      %n = "torch.aten.add"(%acc, %m1) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
      scf.yield %n : tensor<4x256xf32>
    }
    return %b : tensor<4x256xf32>
  }
  func.func @in_if(%x: tensor<4x256xf32> {coreai.kind = "input", coreai.name = "x"}, %pos: tensor<4x256xf32> {coreai.kind = "input", coreai.name = "pos"}, %w: tensor<256x256xf32> {coreai.kind = "weight", coreai.name = "w"}, %wup: tensor<256x1024xf32> {coreai.kind = "weight", coreai.name = "w_up"}, %wdown: tensor<1024x256xf32> {coreai.kind = "weight", coreai.name = "w_down"}, %c: i1 {coreai.kind = "input", coreai.name = "c"}) -> (tensor<4x256xf32> {coreai.kind = "output"}) {
    %m0 = "torch.aten.neg"(%pos) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %m1 = "torch.aten.exp"(%m0) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %h = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %a = "torch.aten.mul"(%h, %m1) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
    %up = "torch.aten.mm"(%a, %wup) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<256x1024xf32>) -> tensor<4x1024xf32>
    %u = "torch.aten.mm"(%up, %wdown) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x1024xf32>, tensor<1024x256xf32>) -> tensor<4x256xf32>
    %b = scf.if %c -> (tensor<4x256xf32>) {
      %n = "torch.aten.add"(%u, %m1) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
      scf.yield %n : tensor<4x256xf32>
    } else {
      scf.yield %u : tensor<4x256xf32>
    }
    return %b : tensor<4x256xf32>
  }
}

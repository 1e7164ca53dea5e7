// Two products with a tall weight: split-K needs 16384 bytes of partials
// at each. @tight: the product runs at the heap's peak (the 65536-byte
// operand and its result live), so split-K would raise the heap by its
// partials: the direct kernel is planned. @roomy: a 131072-byte value
// before the product sets the peak, and the partials fit under it.
module attributes {coreai.model = "variants"} {
  func.func @tight(%x: tensor<4x4096xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4096x256xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<4x256xf32> {coreai.kind = "output"}) {
    %a = "torch.aten.relu"(%x) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x4096xf32>) -> tensor<4x4096xf32>
    %b = "torch.aten.mm"(%a, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x4096xf32>, tensor<4096x256xf32>) -> tensor<4x256xf32>
    %c = "torch.aten.tanh"(%b) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    return %c : tensor<4x256xf32>
  }
  func.func @roomy(%x: tensor<4x4096xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4096x256xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<4x256xf32> {coreai.kind = "output"}) {
    %big = "torch.aten.cat"(%x, %x) {coreai.overload = "default", coreai.args = "([T, T])"} : (tensor<4x4096xf32>, tensor<4x4096xf32>) -> tensor<8x4096xf32>
    %s = "torch.aten.sum"(%big) {coreai.overload = "dim_IntList", coreai.args = "(T, [0, 1])"} : (tensor<8x4096xf32>) -> tensor<f32>
    %a = "torch.aten.relu"(%x) {coreai.overload = "default", coreai.args = "(T)"} : (tensor<4x4096xf32>) -> tensor<4x4096xf32>
    %b = "torch.aten.mm"(%a, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<4x4096xf32>, tensor<4096x256xf32>) -> tensor<4x256xf32>
    %t = "torch.aten.mul"(%b, %s) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<4x256xf32>, tensor<f32>) -> tensor<4x256xf32>
    return %t : tensor<4x256xf32>
  }
}

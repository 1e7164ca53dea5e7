// A size no polynomial gives, which agrees with one where the planner
// fits it (s0 = 6, 7, 8, and 1): 64 * (s0 + 8 * ((s0 + 1) // 5 - s0 // 5))
// bytes is 64 * s0 except at s0 = 4, where it is 64 * 12 (the shape is
// contrived; the planner reads it, not the slice's semantics). Only the
// check at every S can find it; most S are checked by replaying the
// piece's buffers, which must fall back to the whole check to say why.
module attributes {coreai.sym_ranges = "{\"s0\": [\"1\", \"8\"]}"} {
  func.func @main(%x: tensor<1x?x16xf32> {coreai.kind = "input", coreai.name = "x", coreai.sym_shape = "1,s0,16"})
      -> (tensor<1x16xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.tanh"(%x) {coreai.sym_shapes = ["1,s0,16"]} : (tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
    %1 = "torch.aten.slice"(%0) {coreai.overload = "Tensor", coreai.args = "(T, 1, 0, 9223372036854775807, 1)", coreai.sym_shapes = ["1,s0+8*((s0+1)//5-s0//5),16"]} : (tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
    %2 = "torch.aten.tanh"(%1) {coreai.sym_shapes = ["1,s0+8*((s0+1)//5-s0//5),16"]} : (tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
    %3 = "torch.aten.sum"(%2) {coreai.overload = "dim_IntList", coreai.args = "(T, [1])"} : (tensor<1x?x16xf32>) -> tensor<1x16xf32>
    return %3 : tensor<1x16xf32>
  }
}

// A function with two symbolic dims: the sequence s0 and a batch s1.
module attributes {coreai.sym_ranges = "{\"s0\": [\"1\", \"64\"], \"s1\": [\"1\", \"4\"]}"} {
  func.func @main(%x: tensor<?x?x8xf32> {coreai.kind = "input", coreai.name = "x", coreai.sym_shape = "s1,s0,8"})
      -> (tensor<?x?x8xf32> {coreai.kind = "output", coreai.sym_shape = "s1,s0,8"}) {
    %0 = "torch.aten.tanh"(%x) {coreai.sym_shapes = ["s1,s0,8"]} : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
    %1 = "torch.aten.mul"(%0, %0) {coreai.sym_shapes = ["s1,s0,8"]} : (tensor<?x?x8xf32>, tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
    %2 = "torch.aten.add"(%1, %0) {coreai.sym_shapes = ["s1,s0,8"]} : (tensor<?x?x8xf32>, tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
    return %2 : tensor<?x?x8xf32>
  }
}

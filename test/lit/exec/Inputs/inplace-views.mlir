module {
  func.func @main(%x: tensor<4x8xf32> {coreai.kind = "input", coreai.name = "x"}, %k: tensor<4x4xf32> {coreai.kind = "input", coreai.name = "k"}) -> (tensor<4x8xf32> {coreai.kind = "output"}, tensor<4x8xf32> {coreai.kind = "output"}, tensor<32xf32> {coreai.kind = "output"}, tensor<4x8xf32> {coreai.kind = "output"}) {
    %t = "torch.aten.mul"(%x, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %old = "torch.aten.neg"(%t) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %flat = "torch.aten.view"(%t) {coreai.overload = "default", coreai.args = "(T, [32])", coreai.node = "view", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<32xf32>
    %a = "torch.aten.add_"(%t, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %s = "torch.aten.slice"(%t) {coreai.overload = "Tensor", coreai.args = "(T, 1, 2, 6)", coreai.node = "slice", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<4x4xf32>
    %c = "torch.aten.copy_"(%s, %k) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "copy_"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %row = "torch.aten.select"(%t) {coreai.overload = "int", coreai.args = "(T, 0, 1)", coreai.node = "select", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<8xf32>
    %m = "torch.aten.mul_"(%row) {coreai.overload = "Scalar", coreai.args = "(T, 3.0)", coreai.node = "mul_"} : (tensor<8xf32>) -> tensor<8xf32>
    %v2 = "torch.aten.neg"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg_1"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %p = "torch.aten.transpose"(%v2) {coreai.overload = "int", coreai.args = "(T, 0, 1)", coreai.node = "transpose", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %q = "torch.aten.sub_"(%p, %p) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "sub_"} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %e = "torch.aten.exp"(%v2) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "exp"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %u = "torch.aten.clone"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "clone"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %pw = "torch.aten.permute"(%u) {coreai.overload = "default", coreai.args = "(T, [1, 0])", coreai.node = "permute", coreai.alias_of = [0]} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %d = "torch.aten.div_"(%pw) {coreai.overload = "Scalar", coreai.args = "(T, 4.0)", coreai.node = "div_"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %r = "torch.aten.add"(%u, %e) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %old, %t, %flat, %r : tensor<4x8xf32>, tensor<4x8xf32>, tensor<32xf32>, tensor<4x8xf32>
  }
}

// recompute-tables.mlir with a real contraction in the tables' chain:
// inv_freq [1,8,2] times positions expanded to [1,2,8] (K = 2), which no
// recompute role takes.
module attributes {coreai.source = "torch.export", coreai.model = "contraction"} {
  func.func @main(%x: tensor<1x2x8x16xf32> {coreai.kind = "input", coreai.name = "x"}, %kin: tensor<1x2x8x16xf32> {coreai.kind = "input", coreai.name = "k"}, %v: tensor<1x2x8x16xf32> {coreai.kind = "input", coreai.name = "v"}, %pos: tensor<8xi64> {coreai.kind = "input", coreai.name = "cache_position"}, %mask: tensor<8x8xf32> {coreai.kind = "input", coreai.name = "mask"}, %inv: tensor<1x8x2xf32> {coreai.kind = "weight", coreai.name = "inv_freq"}, %c: tensor<f32> {coreai.kind = "constant", coreai.name = "lowest"}, %wq: tensor<16x16xf32> {coreai.kind = "weight", coreai.name = "wq"}, %wup: tensor<16x128xf32> {coreai.kind = "weight", coreai.name = "w_up"}, %wdown: tensor<128x16xf32> {coreai.kind = "weight", coreai.name = "w_down"}) -> (tensor<1x2x8x16xf32> {coreai.kind = "output"}) {
    %p1 = "torch.aten.unsqueeze"(%pos) {coreai.alias_of = [0], coreai.args = "(T, 0)", coreai.node = "unsqueeze_4", coreai.overload = "default"} : (tensor<8xi64>) -> tensor<1x8xi64>
    %p2 = "torch.aten.unsqueeze"(%p1) {coreai.alias_of = [0], coreai.args = "(T, 1)", coreai.node = "unsqueeze_5", coreai.overload = "default"} : (tensor<1x8xi64>) -> tensor<1x1x8xi64>
    %p3 = "torch.aten.expand"(%p2) {coreai.alias_of = [0], coreai.args = "(T, [1, 2, 8])", coreai.node = "expand", coreai.overload = "default"} : (tensor<1x1x8xi64>) -> tensor<1x2x8xi64>
    %pf = "torch.aten._to_copy"(%p3) {coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy", coreai.overload = "default"} : (tensor<1x2x8xi64>) -> tensor<1x2x8xf32>
    %fr = "torch.aten.bmm"(%inv, %pf) {coreai.args = "(T, T)", coreai.node = "bmm", coreai.overload = "default"} : (tensor<1x8x2xf32>, tensor<1x2x8xf32>) -> tensor<1x8x8xf32>
    %tr = "torch.aten.transpose"(%fr) {coreai.alias_of = [0], coreai.args = "(T, 1, 2)", coreai.node = "transpose", coreai.overload = "int"} : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %emb = "torch.aten.cat"(%tr, %tr) {coreai.args = "([T, T], -1)", coreai.node = "cat", coreai.overload = "default"} : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x16xf32>
    %cos = "torch.aten.cos"(%emb) {coreai.args = "(T)", coreai.node = "cos", coreai.overload = "default"} : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    %unread = "torch.aten.neg"(%x) {coreai.args = "(T)", coreai.node = "neg_unread", coreai.overload = "default"} : (tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
    %q0 = "torch.aten.matmul"(%x, %wq) {coreai.args = "(T, T)", coreai.node = "matmul_q0", coreai.overload = "default"} : (tensor<1x2x8x16xf32>, tensor<16x16xf32>) -> tensor<1x2x8x16xf32>
    %cos0 = "torch.aten.unsqueeze"(%cos) {coreai.alias_of = [0], coreai.args = "(T, 1)", coreai.node = "unsqueeze_6", coreai.overload = "default"} : (tensor<1x8x16xf32>) -> tensor<1x1x8x16xf32>
    %qr0 = "torch.aten.mul"(%q0, %cos0) {coreai.args = "(T, T)", coreai.node = "mul", coreai.overload = "Tensor"} : (tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xf32>
    %kr0 = "torch.aten.mul"(%kin, %cos0) {coreai.args = "(T, T)", coreai.node = "mul_1", coreai.overload = "Tensor"} : (tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xf32>
    %kt0 = "torch.aten.transpose"(%kr0) {coreai.alias_of = [0], coreai.args = "(T, 2, 3)", coreai.node = "transpose_1", coreai.overload = "int"} : (tensor<1x2x8x16xf32>) -> tensor<1x2x16x8xf32>
    %s0 = "torch.aten.matmul"(%qr0, %kt0) {coreai.args = "(T, T)", coreai.node = "matmul", coreai.overload = "default"} : (tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32>) -> tensor<1x2x8x8xf32>
    %a0 = "torch.aten.add"(%s0, %mask) {coreai.args = "(T, T)", coreai.node = "add", coreai.overload = "Tensor"} : (tensor<1x2x8x8xf32>, tensor<8x8xf32>) -> tensor<1x2x8x8xf32>
    %w0 = "torch.aten.softmax"(%a0) {coreai.args = "(T, -1)", coreai.node = "softmax", coreai.overload = "int"} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %o0 = "torch.aten.matmul"(%w0, %v) {coreai.args = "(T, T)", coreai.node = "matmul_1", coreai.overload = "default"} : (tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
    %u0 = "torch.aten.matmul"(%o0, %wup) {coreai.args = "(T, T)", coreai.node = "matmul_up0", coreai.overload = "default"} : (tensor<1x2x8x16xf32>, tensor<16x128xf32>) -> tensor<1x2x8x128xf32>
    %g0 = "torch.aten.gelu"(%u0) {coreai.args = "(T)", coreai.node = "gelu0", coreai.overload = "default"} : (tensor<1x2x8x128xf32>) -> tensor<1x2x8x128xf32>
    %m0 = "torch.aten.matmul"(%g0, %wdown) {coreai.args = "(T, T)", coreai.node = "matmul_down0", coreai.overload = "default"} : (tensor<1x2x8x128xf32>, tensor<128x16xf32>) -> tensor<1x2x8x16xf32>
    %q1 = "torch.aten.matmul"(%m0, %wq) {coreai.args = "(T, T)", coreai.node = "matmul_q1", coreai.overload = "default"} : (tensor<1x2x8x16xf32>, tensor<16x16xf32>) -> tensor<1x2x8x16xf32>
    %cos1 = "torch.aten.unsqueeze"(%cos) {coreai.alias_of = [0], coreai.args = "(T, 1)", coreai.node = "unsqueeze_7", coreai.overload = "default"} : (tensor<1x8x16xf32>) -> tensor<1x1x8x16xf32>
    %qr1 = "torch.aten.mul"(%q1, %cos1) {coreai.args = "(T, T)", coreai.node = "mul_2", coreai.overload = "Tensor"} : (tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xf32>
    %kr1 = "torch.aten.mul"(%m0, %cos1) {coreai.args = "(T, T)", coreai.node = "mul_3", coreai.overload = "Tensor"} : (tensor<1x2x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x2x8x16xf32>
    %kt1 = "torch.aten.transpose"(%kr1) {coreai.alias_of = [0], coreai.args = "(T, 2, 3)", coreai.node = "transpose_2", coreai.overload = "int"} : (tensor<1x2x8x16xf32>) -> tensor<1x2x16x8xf32>
    %s1 = "torch.aten.matmul"(%qr1, %kt1) {coreai.args = "(T, T)", coreai.node = "matmul_2", coreai.overload = "default"} : (tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32>) -> tensor<1x2x8x8xf32>
    %a1 = "torch.aten.add"(%s1, %mask) {coreai.args = "(T, T)", coreai.node = "add_1", coreai.overload = "Tensor"} : (tensor<1x2x8x8xf32>, tensor<8x8xf32>) -> tensor<1x2x8x8xf32>
    %w1 = "torch.aten.softmax"(%a1) {coreai.args = "(T, -1)", coreai.node = "softmax_1", coreai.overload = "int"} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %o1 = "torch.aten.matmul"(%w1, %v) {coreai.args = "(T, T)", coreai.node = "matmul_3", coreai.overload = "default"} : (tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
    %u1 = "torch.aten.matmul"(%o1, %wup) {coreai.args = "(T, T)", coreai.node = "matmul_up1", coreai.overload = "default"} : (tensor<1x2x8x16xf32>, tensor<16x128xf32>) -> tensor<1x2x8x128xf32>
    %g1 = "torch.aten.gelu"(%u1) {coreai.args = "(T)", coreai.node = "gelu1", coreai.overload = "default"} : (tensor<1x2x8x128xf32>) -> tensor<1x2x8x128xf32>
    %m1 = "torch.aten.matmul"(%g1, %wdown) {coreai.args = "(T, T)", coreai.node = "matmul_down1", coreai.overload = "default"} : (tensor<1x2x8x128xf32>, tensor<128x16xf32>) -> tensor<1x2x8x16xf32>
    return %m1 : tensor<1x2x8x16xf32>
  }
}

// Products on a tall weight (K = 2048 >= 4 N): h18p offers split-K (256
// bytes of f32 partials each, the cheaper) or direct (none). An upstream
// fuser marked all of them one kernel, which runs at the heap's peak with
// no 256 aligned bytes free: every product must run direct. @nine_marked
// has 2^9 combinations to search, @eight_marked 2^8, @nine_unmarked nine
// steps of two.
module attributes {coreai.model = "nine-products"} {
  func.func @nine_marked(%x: tensor<1x2048xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<2048x16xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<1x16xf32> {coreai.kind = "output"}) {
    %p0 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p1 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p2 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p3 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p4 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p5 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p6 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p7 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p8 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %s1 = "torch.aten.add"(%p0, %p1) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s2 = "torch.aten.add"(%s1, %p2) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s3 = "torch.aten.add"(%s2, %p3) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s4 = "torch.aten.add"(%s3, %p4) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s5 = "torch.aten.add"(%s4, %p5) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s6 = "torch.aten.add"(%s5, %p6) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s7 = "torch.aten.add"(%s6, %p7) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s8 = "torch.aten.add"(%s7, %p8) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    return %s8 : tensor<1x16xf32>
  }
  func.func @eight_marked(%x: tensor<1x2048xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<2048x16xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<1x16xf32> {coreai.kind = "output"}) {
    %p0 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p1 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p2 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p3 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p4 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p5 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p6 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p7 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.kernel = 0 : i64} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %s1 = "torch.aten.add"(%p0, %p1) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s2 = "torch.aten.add"(%s1, %p2) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s3 = "torch.aten.add"(%s2, %p3) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s4 = "torch.aten.add"(%s3, %p4) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s5 = "torch.aten.add"(%s4, %p5) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s6 = "torch.aten.add"(%s5, %p6) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s7 = "torch.aten.add"(%s6, %p7) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    return %s7 : tensor<1x16xf32>
  }
  func.func @nine_unmarked(%x: tensor<1x2048xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<2048x16xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<1x16xf32> {coreai.kind = "output"}) {
    %p0 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p1 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p2 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p3 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p4 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p5 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p6 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p7 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %p8 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)"} : (tensor<1x2048xf32>, tensor<2048x16xf32>) -> tensor<1x16xf32>
    %s1 = "torch.aten.add"(%p0, %p1) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s2 = "torch.aten.add"(%s1, %p2) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s3 = "torch.aten.add"(%s2, %p3) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s4 = "torch.aten.add"(%s3, %p4) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s5 = "torch.aten.add"(%s4, %p5) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s6 = "torch.aten.add"(%s5, %p6) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s7 = "torch.aten.add"(%s6, %p7) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %s8 = "torch.aten.add"(%s7, %p8) {coreai.overload = "Tensor", coreai.args = "(T, T, alpha=1)"} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    return %s8 : tensor<1x16xf32>
  }
}

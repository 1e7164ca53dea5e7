// Small fused-cast graph: one cast read by an elementwise chain and by a
// matrix product (stored: it has readers in two kernels), and a cast read
// by a softmax.
module attributes {coreai.source = "torch.export", coreai.model = "fused-casts"} {
  func.func @f(%arg0: tensor<4x4xf16> {coreai.kind = "input", coreai.name = "x"}, %arg1: tensor<4x4xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<4x4xf32> {coreai.kind = "output"}, tensor<4x4xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten._to_copy"(%arg0) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy"} : (tensor<4x4xf16>) -> tensor<4x4xf32>
    %1 = "torch.aten.mul"(%0, %arg1) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = "torch.aten.neg"(%1) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = "torch.aten.mm"(%0, %2) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = "torch.aten._to_copy"(%3) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float16)", coreai.node = "_to_copy_1"} : (tensor<4x4xf32>) -> tensor<4x4xf16>
    %5 = "torch.aten._to_copy"(%4) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy_2"} : (tensor<4x4xf16>) -> tensor<4x4xf32>
    %6 = "torch.aten._softmax"(%5) {coreai.overload = "default", coreai.args = "(T, -1, False)", coreai.node = "_softmax"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %6, %2 : tensor<4x4xf32>, tensor<4x4xf32>
  }
}

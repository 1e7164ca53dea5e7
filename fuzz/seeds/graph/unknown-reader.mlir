// Issue 41 without identical ops: an unknown op reads a cast.
module attributes {coreai.source = "torch.export", coreai.model = "adversarial"} {
  func.func @f(%arg0: tensor<4x4xf32> {coreai.kind = "input", coreai.name = "x"}, %arg1: tensor<4x4xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<4x4xf32> {coreai.kind = "output"}, tensor<4x4xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.mm"(%arg0, %arg1) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = "torch.aten._to_copy"(%0) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float16)", coreai.node = "_to_copy"} : (tensor<4x4xf32>) -> tensor<4x4xf16>
    %2 = "torch.aten._to_copy"(%1) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy_1"} : (tensor<4x4xf16>) -> tensor<4x4xf32>
    %3 = "torch.aten._to_copy"(%1) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy_2"} : (tensor<4x4xf16>) -> tensor<4x4xf32>
    %4 = "torch.aten.add"(%2, %0) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %5 = "torch.aten.mm"(%4, %arg1) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm_1"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %6 = "torch.aten.foo"(%3, %arg1) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm_2"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %5, %6 : tensor<4x4xf32>, tensor<4x4xf32>
  }
}

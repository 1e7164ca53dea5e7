// @main exported at S=4 with a wide intermediate (f32 [1, 4, 64], 1 KiB):
// its heap is larger than that of the S=8 export in static-s8.mlir.
module attributes {coreai.model = "static"} {
  func.func @main(%w: tensor<16x64xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %ids: tensor<1x4xi64> {coreai.kind = "input", coreai.name = "input_ids"})
      -> (tensor<1x4x64xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default"} : (tensor<16x64xf32>, tensor<1x4xi64>) -> tensor<1x4x64xf32>
    %1 = "torch.aten.tanh"(%0) {coreai.overload = "default"} : (tensor<1x4x64xf32>) -> tensor<1x4x64xf32>
    %2 = "torch.aten.mul"(%0, %1) {coreai.overload = "Tensor"} : (tensor<1x4x64xf32>, tensor<1x4x64xf32>) -> tensor<1x4x64xf32>
    return %2 : tensor<1x4x64xf32>
  }
}

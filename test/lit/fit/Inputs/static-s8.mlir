// @main exported at S=8 with narrow intermediates (f32 [1, 8, 8], 256
// bytes): a smaller heap than the S=4 export in static-s4.mlir.
module attributes {coreai.model = "static"} {
  func.func @main(%w: tensor<16x8xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %ids: tensor<1x8xi64> {coreai.kind = "input", coreai.name = "input_ids"})
      -> (tensor<1x8x8xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default"} : (tensor<16x8xf32>, tensor<1x8xi64>) -> tensor<1x8x8xf32>
    %1 = "torch.aten.tanh"(%0) {coreai.overload = "default"} : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %2 = "torch.aten.mul"(%0, %1) {coreai.overload = "Tensor"} : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    return %2 : tensor<1x8x8xf32>
  }
}

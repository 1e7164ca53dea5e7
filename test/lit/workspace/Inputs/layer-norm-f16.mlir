// Two layer norms as a graph exported on a CPU writes them in float16:
// native_layer_norm's mean and rstd (results 1 and 2) typed f16, [1, 8, 1],
// 16 bytes each. On CUDA the kernel writes them in float32 (32 bytes).
// Nothing reads the statistics (an inference graph's), but the kernel
// writes them all the same: each has a slot of its own during its op.
module attributes {coreai.model = "layer-norm-f16"} {
  func.func @main(%x: tensor<1x8x64xf16> {coreai.kind = "input", coreai.name = "x"},
                  %w: tensor<64xf16> {coreai.kind = "weight", coreai.name = "w"},
                  %b: tensor<64xf16> {coreai.kind = "weight", coreai.name = "b"})
      -> (tensor<1x8x64xf16> {coreai.kind = "output"}) attributes {coreai.seq_len = 8 : i64} {
    %0:3 = "torch.aten.native_layer_norm"(%x, %w, %b) {coreai.overload = "default", coreai.args = "(T, [64], T, T, 1e-05)"} : (tensor<1x8x64xf16>, tensor<64xf16>, tensor<64xf16>) -> (tensor<1x8x64xf16>, tensor<1x8x1xf16>, tensor<1x8x1xf16>)
    %1 = "torch.aten.add"(%0#0, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)"} : (tensor<1x8x64xf16>, tensor<1x8x64xf16>) -> tensor<1x8x64xf16>
    %2:3 = "torch.aten.native_layer_norm"(%1, %w, %b) {coreai.overload = "default", coreai.args = "(T, [64], T, T, 1e-05)"} : (tensor<1x8x64xf16>, tensor<64xf16>, tensor<64xf16>) -> (tensor<1x8x64xf16>, tensor<1x8x1xf16>, tensor<1x8x1xf16>)
    return %2#0 : tensor<1x8x64xf16>
  }
}

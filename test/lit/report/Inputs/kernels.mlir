// One entry point whose input marks a kernel (coreai.kernel = 7): cat,
// tanh and exp run as one, so %2 and %3 stay inside it (256 bytes each,
// no memory) and only %4 is written. The heap peaks when the kernel
// writes %4 (256 bytes) while %0 and %1 (128 bytes each) are live.
module attributes {coreai.model = "kernels"} {
  func.func @main(%w: tensor<16x8xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %ids: tensor<1x4xi64> {coreai.kind = "input", coreai.name = "input_ids"})
      -> (tensor<1x4x8xf32> {coreai.kind = "output"}) attributes {coreai.seq_len = 4 : i64} {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default"} : (tensor<16x8xf32>, tensor<1x4xi64>) -> tensor<1x4x8xf32>
    %1 = "torch.aten.mul"(%0, %0) {coreai.overload = "Tensor"} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %2 = "torch.aten.cat"(%0, %0) {coreai.overload = "default", coreai.kernel = 7 : i64} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x16xf32>
    %3 = "torch.aten.tanh"(%2) {coreai.overload = "default", coreai.kernel = 7 : i64} : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
    %4 = "torch.aten.exp"(%3) {coreai.overload = "default", coreai.kernel = 7 : i64} : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
    %5 = "torch.aten.sum"(%4, %1) {coreai.overload = "default"} : (tensor<1x4x16xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    return %5 : tensor<1x4x8xf32>
  }
}

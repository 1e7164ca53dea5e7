// A bundle of two entry points over the same weight: @main decodes one
// token (S=1), @prefill takes S=4. Every intermediate is f32 [1, S, 8]
// (32*S bytes) or its doubled [1, S, 16] (64*S bytes).
module attributes {coreai.model = "two-entries"} {
  func.func @main(%w: tensor<16x8xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %ids: tensor<1x1xi64> {coreai.kind = "input", coreai.name = "input_ids"})
      -> (tensor<1x1x8xf32> {coreai.kind = "output"}) attributes {coreai.seq_len = 1 : i64} {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default"} : (tensor<16x8xf32>, tensor<1x1xi64>) -> tensor<1x1x8xf32>
    %1 = "torch.aten.cat"(%0, %0) {coreai.overload = "default"} : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x16xf32>
    %2 = "torch.aten.tanh"(%1) {coreai.overload = "default"} : (tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
    %3 = "torch.aten.mul"(%0, %0) {coreai.overload = "Tensor"} : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %4 = "torch.aten.sum"(%2, %3) {coreai.overload = "default"} : (tensor<1x1x16xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    return %4 : tensor<1x1x8xf32>
  }
  func.func @prefill(%w: tensor<16x8xf32> {coreai.kind = "weight", coreai.name = "w"},
                     %ids: tensor<1x4xi64> {coreai.kind = "input", coreai.name = "input_ids"})
      -> (tensor<1x4x8xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default"} : (tensor<16x8xf32>, tensor<1x4xi64>) -> tensor<1x4x8xf32>
    %1 = "torch.aten.cat"(%0, %0) {coreai.overload = "default"} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x16xf32>
    %2 = "torch.aten.tanh"(%1) {coreai.overload = "default"} : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
    %3 = "torch.aten.mul"(%0, %0) {coreai.overload = "Tensor"} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %4 = "torch.aten.sum"(%2, %3) {coreai.overload = "default"} : (tensor<1x4x16xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    return %4 : tensor<1x4x8xf32>
  }
  // Not an entry point.
  func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}

// A planned file whose placement does not match its type (coreai-plan
// refuses it at parse time: placement-errors.mlir).
func.func @main(%x: tensor<16xf32> {coreai.kind = "input"}) -> (tensor<16xf32> {coreai.kind = "output"}) {
  %0 = "torch.aten.neg"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.exp"(%0) {coreai.placement = [#coreai.heap<offset = 0, size = 32>]} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.sin"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

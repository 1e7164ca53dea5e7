func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %1 = "torch.aten.neg"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "torch.aten.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

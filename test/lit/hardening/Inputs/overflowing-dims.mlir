func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "torch.aten.mul"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4294967296x4294967296x16xf32>
  %1 = "torch.aten.sum"(%0) : (tensor<4294967296x4294967296x16xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

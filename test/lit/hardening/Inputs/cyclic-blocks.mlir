func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  "test.br"(%0)[^bb1] : (tensor<4xf32>) -> ()
^bb1(%x: tensor<4xf32>):
  %1 = "torch.aten.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  "test.br"(%1)[^bb1] : (tensor<4xf32>) -> ()
^bb2:
  return %0 : tensor<4xf32>
}

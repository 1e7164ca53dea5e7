// A public function and a private one: the pass and `buffers` plan both.
module {
  func.func @entry(%a: tensor<16xf32>) -> tensor<16xf32> {
    %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
    %1 = "torch.aten.relu"(%0) : (tensor<16xf32>) -> tensor<16xf32>
    %2 = call @helper(%1) : (tensor<16xf32>) -> tensor<16xf32>
    return %2 : tensor<16xf32>
  }
  func.func private @helper(%a: tensor<16xf32>) -> tensor<16xf32> {
    %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
    %1 = "torch.aten.cat"(%a, %0) : (tensor<16xf32>, tensor<16xf32>) -> tensor<32xf32>
    %2 = "torch.aten.sum.dim_IntList"(%1) : (tensor<32xf32>) -> tensor<16xf32>
    return %2 : tensor<16xf32>
  }
}

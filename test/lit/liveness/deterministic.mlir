// The same input gives byte-identical output, also after planning twice
// (old annotations are replaced, not accumulated).
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=in-place=true %s -o %t.1.mlir
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=in-place=true %s -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=in-place=true %t.1.mlir -o %t.3.mlir
// RUN: diff %t.1.mlir %t.3.mlir

func.func @f(%a: tensor<16xf32>, %b: tensor<8xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.neg"(%b) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "torch.aten.neg"(%b) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "torch.aten.add"(%0, %a) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %4:2 = "test.pair"(%1, %2, %3) : (tensor<8xf32>, tensor<8xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
  %5 = "test.use"(%4#0, %4#1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %5 : tensor<16xf32>
}

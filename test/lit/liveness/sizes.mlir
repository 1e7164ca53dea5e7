// Buffer bytes: elements x element bytes. i1 takes one byte per element (as
// torch.bool); narrower types pack (ceil(elements x bits / 8)); wider types
// take whole bytes; index is 8 bytes; complex is twice its part.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=alignment=1 %s | FileCheck %s

// CHECK-LABEL: func.func @sizes
// CHECK: size = 10>
// CHECK: size = 5>
// CHECK: size = 3>
// CHECK: size = 20>
// CHECK: size = 80>
// CHECK: size = 80>
// CHECK: size = 4>
// CHECK: size = 18>
func.func @sizes(%a: tensor<10xf32>) -> tensor<10xf32> {
  %0 = "test.op"(%a) : (tensor<10xf32>) -> tensor<10xi1>
  %1 = "test.op"(%a) : (tensor<10xf32>) -> tensor<10xi4>
  %2 = "test.op"(%a) : (tensor<10xf32>) -> tensor<5x1xf4E2M1FN>
  %3 = "test.op"(%a) : (tensor<10xf32>) -> tensor<10xbf16>
  %4 = "test.op"(%a) : (tensor<10xf32>) -> tensor<10xindex>
  %5 = "test.op"(%a) : (tensor<10xf32>) -> tensor<10xcomplex<f32>>
  %6 = "test.op"(%a) : (tensor<10xf32>) -> tensor<f32>
  %7 = "test.op"(%a) : (tensor<10xf32>) -> tensor<2x3xi24>
  %8 = "test.use"(%0, %1, %2, %3, %4, %5, %6, %7) : (tensor<10xi1>, tensor<10xi4>, tensor<5x1xf4E2M1FN>, tensor<10xbf16>, tensor<10xindex>, tensor<10xcomplex<f32>>, tensor<f32>, tensor<2x3xi24>) -> tensor<10xf32>
  return %8 : tensor<10xf32>
}

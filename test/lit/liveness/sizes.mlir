// Buffer bytes: elements x element bytes. i1 takes one byte per element (as
// torch.bool); narrower types pack (ceil(elements x bits / 8)); wider types
// take whole bytes; index is 8 bytes; complex is twice its part.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=alignment=1 %s | FileCheck %s

// CHECK-LABEL: func.func @sizes
// CHECK: coreai.sizes = array<i64: 10>
// CHECK: coreai.sizes = array<i64: 5>
// CHECK: coreai.sizes = array<i64: 3>
// CHECK: coreai.sizes = array<i64: 20>
// CHECK: coreai.sizes = array<i64: 80>
// CHECK: coreai.sizes = array<i64: 80>
// CHECK: coreai.sizes = array<i64: 4>
// CHECK: coreai.sizes = array<i64: 18>
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

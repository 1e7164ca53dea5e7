// max-heap=N fails the pass with an error at each function whose heap is
// above N: a CI gate against heap regressions.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=max-heap=100 -verify-diagnostics %s
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=max-heap=192 %s | FileCheck %s
// RUN: not coreai-plan buffers %s --max-heap 100 2>&1 | FileCheck %s --check-prefix=CLI

// CHECK: heap = 192{{[,>]}}
// CLI: error: heap of @two is 192 bytes, above max-heap 100
// expected-error @+1 {{heap of @two is 192 bytes, above max-heap 100}}
func.func @two(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.cat"(%a, %a) : (tensor<16xf32>, tensor<16xf32>) -> tensor<32xf32>
  %2 = "test.use"(%0, %1) : (tensor<16xf32>, tensor<32xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// Within the limit: no error.
func.func @one(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "test.use"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

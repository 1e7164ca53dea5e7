// in-place-softmax=true (a target listing the "softmax" op class): softmax
// reads a whole row before it writes it, so it may write over its input
// when the input dies there. Elementwise in-place alone does not cover it.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=in-place-softmax=true %s | FileCheck %s
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=in-place=true %s | FileCheck %s --check-prefix=ELEMENTWISE

// CHECK-LABEL: func.func @scores
// CHECK-SAME: buffers = 2{{[,>]}}
// CHECK: "torch.aten._to_copy"{{.*}}coreai.placement = [#coreai.heap<offset = [[AT:[0-9]+]],
// CHECK-NEXT: "torch.aten._softmax"{{.*}}coreai.placement = [#coreai.heap<offset = [[AT]], size = {{[0-9]+}}, in_place = 0>]
// ELEMENTWISE-LABEL: func.func @scores
// ELEMENTWISE-SAME: buffers = 3{{[,>]}}
// ELEMENTWISE-NOT: "torch.aten._softmax"{{.*}}in_place =
func.func @scores(%s: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = "torch.aten._to_copy"(%s) : (tensor<2x8xf16>) -> tensor<2x8xf32>
  %1 = "torch.aten._softmax"(%0) {coreai.args = "(T, -1, False)"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "torch.aten._to_copy"(%1) : (tensor<2x8xf32>) -> tensor<2x8xf16>
  %3 = "test.use"(%2) : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %3 : tensor<2x8xf16>
}

// Refused: the input is read after the softmax, and a softmax that
// converts (half_to_float) has another element type.
// CHECK-LABEL: func.func @refusals
// CHECK-NOT: in_place =
// CHECK: return
func.func @refusals(%s: tensor<2x8xf32>, %h: tensor<2x8xf16>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %0 = "torch.aten.neg"(%s) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = "torch.aten._softmax"(%0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "test.use"(%0, %1) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = "torch.aten.neg"(%h) : (tensor<2x8xf16>) -> tensor<2x8xf16>
  %4 = "torch.aten._softmax"(%3) {coreai.args = "(T, -1, True)"} : (tensor<2x8xf16>) -> tensor<2x8xf32>
  %5 = "test.use"(%4) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %2, %5 : tensor<2x8xf32>, tensor<2x8xf32>
}

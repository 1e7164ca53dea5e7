// Ops drawing random numbers keep their relative order: under a seeded
// generator, swapping two draws changes the output. In each function the
// heap would shrink (12 KiB -> 8 KiB) only by making %b first; the
// memory-aware order may do that for deterministic ops (the controls) and
// never for rand/randn/bernoulli/dropout in training, nor for an op the
// planner does not know.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="reorder=true" %s | FileCheck %s

// Two draws.
// CHECK-LABEL: func.func @randn(
// CHECK-SAME: reordered = false
// CHECK: coreai.node = "a"
// CHECK: coreai.node = "b"
func.func @randn(%s: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = "torch.aten.randn"() {coreai.args = "([1024],)", coreai.node = "a"} : () -> tensor<1024xf32>
  %b = "torch.aten.randn"() {coreai.args = "([1024],)", coreai.node = "b"} : () -> tensor<1024xf32>
  %b1 = "torch.aten.neg"(%b) : (tensor<1024xf32>) -> tensor<1024xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)"} : (tensor<1024xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) : (tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %x : tensor<1024xf32>
}

// Control: deterministic factories move.
// CHECK-LABEL: func.func @zeros_control(
// CHECK-SAME: reordered = true
// CHECK: coreai.node = "b"
// CHECK: coreai.node = "a"
func.func @zeros_control(%s: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = "torch.aten.zeros"() {coreai.args = "([1024],)", coreai.node = "a"} : () -> tensor<1024xf32>
  %b = "torch.aten.zeros"() {coreai.args = "([1024],)", coreai.node = "b"} : () -> tensor<1024xf32>
  %b1 = "torch.aten.neg"(%b) : (tensor<1024xf32>) -> tensor<1024xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)"} : (tensor<1024xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) : (tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %x : tensor<1024xf32>
}

// dropout with train=True draws a mask.
// CHECK-LABEL: func.func @dropout_train(
// CHECK-SAME: reordered = false
// CHECK: coreai.node = "a"
// CHECK: coreai.node = "b"
func.func @dropout_train(%s: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = "torch.aten.native_dropout"(%s) {coreai.args = "(T, 0.5, True)", coreai.node = "a"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "torch.aten.native_dropout"(%s) {coreai.args = "(T, 0.5, True)", coreai.node = "b"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b1 = "torch.aten.neg"(%b) : (tensor<1024xf32>) -> tensor<1024xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)"} : (tensor<1024xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) : (tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %x : tensor<1024xf32>
}

// Control: dropout with train=False is the identity (and a mask of ones).
// CHECK-LABEL: func.func @dropout_eval_control(
// CHECK-SAME: reordered = true
// CHECK: coreai.node = "b"
// CHECK: coreai.node = "a"
func.func @dropout_eval_control(%s: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = "torch.aten.native_dropout"(%s) {coreai.args = "(T, 0.5, False)", coreai.node = "a"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "torch.aten.native_dropout"(%s) {coreai.args = "(T, 0.5, False)", coreai.node = "b"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b1 = "torch.aten.neg"(%b) : (tensor<1024xf32>) -> tensor<1024xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)"} : (tensor<1024xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) : (tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %x : tensor<1024xf32>
}

// Different random ops are ordered with each other too.
// CHECK-LABEL: func.func @bernoulli_after_randn(
// CHECK-SAME: reordered = false
// CHECK: coreai.node = "a"
// CHECK: coreai.node = "b"
func.func @bernoulli_after_randn(%s: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = "torch.aten.randn"() {coreai.args = "([1024],)", coreai.node = "a"} : () -> tensor<1024xf32>
  %b = "torch.aten.bernoulli"(%s) {coreai.args = "(T,)", coreai.node = "b"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b1 = "torch.aten.neg"(%b) : (tensor<1024xf32>) -> tensor<1024xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)"} : (tensor<1024xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) : (tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %x : tensor<1024xf32>
}

// An ATen op the planner does not know may have any effect: kept in order.
// CHECK-LABEL: func.func @unknown_op(
// CHECK-SAME: reordered = false
// CHECK: coreai.node = "a"
// CHECK: coreai.node = "b"
func.func @unknown_op(%s: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = "torch.aten.my_custom_op"(%s) {coreai.args = "(T,)", coreai.node = "a"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "torch.aten.my_custom_op"(%s) {coreai.args = "(T,)", coreai.node = "b"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b1 = "torch.aten.neg"(%b) : (tensor<1024xf32>) -> tensor<1024xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)"} : (tensor<1024xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) : (tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %x : tensor<1024xf32>
}

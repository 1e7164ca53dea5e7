// Ops the effect model did not know before the ATen op facts (lib/Aten)
// were pinned by the memory-aware reorder; now deterministic ones move and
// random ones stay. As in soundness/random.mlir, the heap shrinks only by
// making %b first.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="reorder=true" %s | FileCheck %s

// rms_norm (torch 2.4, from the supplement) is functional: it moves.
// CHECK-LABEL: func.func @rms_norm(
// CHECK-SAME: reordered = true
// CHECK: coreai.node = "b"
// CHECK: coreai.node = "a"
func.func @rms_norm(%s: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = "torch.aten.rms_norm"(%s) {coreai.args = "(T, [1024], None, 1e-06)", coreai.overload = "default", coreai.node = "a"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "torch.aten.rms_norm"(%s) {coreai.args = "(T, [1024], None, 1e-06)", coreai.overload = "default", coreai.node = "b"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b1 = "torch.aten.neg"(%b) {coreai.overload = "default"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)", coreai.overload = "default"} : (tensor<1024xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) {coreai.overload = "Tensor"} : (tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %x : tensor<1024xf32>
}

// Attention without dropout moves.
// CHECK-LABEL: func.func @attention(
// CHECK-SAME: reordered = true
// CHECK: coreai.node = "b"
// CHECK: coreai.node = "a"
func.func @attention(%s: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %a = "torch.aten.scaled_dot_product_attention"(%s, %s, %s) {coreai.args = "(T, T, T)", coreai.overload = "default", coreai.node = "a"} : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = "torch.aten.scaled_dot_product_attention"(%s, %s, %s) {coreai.args = "(T, T, T)", coreai.overload = "default", coreai.node = "b"} : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %b1 = "torch.aten.neg"(%b) {coreai.overload = "default"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)", coreai.overload = "default"} : (tensor<32x32xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) {coreai.overload = "Tensor"} : (tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>
  return %x : tensor<32x32xf32>
}

// Attention with dropout draws random numbers: pinned.
// CHECK-LABEL: func.func @attention_dropout(
// CHECK-SAME: reordered = false
// CHECK: coreai.node = "a"
// CHECK: coreai.node = "b"
func.func @attention_dropout(%s: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %a = "torch.aten.scaled_dot_product_attention"(%s, %s, %s) {coreai.args = "(T, T, T, None, 0.5)", coreai.overload = "default", coreai.node = "a"} : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = "torch.aten.scaled_dot_product_attention"(%s, %s, %s) {coreai.args = "(T, T, T, None, 0.5)", coreai.overload = "default", coreai.node = "b"} : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %b1 = "torch.aten.neg"(%b) {coreai.overload = "default"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)", coreai.overload = "default"} : (tensor<32x32xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) {coreai.overload = "Tensor"} : (tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>
  return %x : tensor<32x32xf32>
}

// bernoulli, "functional" in the importer's old table, is random: pinned.
// CHECK-LABEL: func.func @bernoulli(
// CHECK-SAME: reordered = false
// CHECK: coreai.node = "a"
// CHECK: coreai.node = "b"
func.func @bernoulli(%s: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = "torch.aten.bernoulli"(%s) {coreai.args = "(T, 0.5)", coreai.overload = "p", coreai.node = "a"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "torch.aten.bernoulli"(%s) {coreai.args = "(T, 0.5)", coreai.overload = "p", coreai.node = "b"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %b1 = "torch.aten.neg"(%b) {coreai.overload = "default"} : (tensor<1024xf32>) -> tensor<1024xf32>
  %sb = "torch.aten.sum"(%b1) {coreai.args = "(T,)", coreai.overload = "default"} : (tensor<1024xf32>) -> tensor<f32>
  %x = "torch.aten.mul"(%a, %sb) {coreai.overload = "Tensor"} : (tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %x : tensor<1024xf32>
}

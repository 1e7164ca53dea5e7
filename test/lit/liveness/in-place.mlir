// in-place=true: an elementwise op whose operand's buffer dies at that op,
// with the result's exact type, writes its result over that buffer (same
// offset, the placement's in_place names the operand). Each refusal below would be
// unsound or is outside the rule.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=in-place=true %s | FileCheck %s
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s --check-prefix=OFF

// A chain neg -> mul -> tanh runs in one buffer; planning without reuse
// needs 128 bytes, with it 64. mul writes over its operand 1 (%0), not over
// the argument %a.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: heap = 64{{[,>]}}{{.*}}buffers = 1{{[,>]}}{{.*}}in_place_saved = 64{{[,>]}}
// CHECK: "torch.aten.neg"{{.*}}coreai.placement = [#coreai.heap<offset = [[AT:[0-9]+]], size = 64>]
// CHECK: "torch.aten.mul"{{.*}}coreai.placement = [#coreai.heap<offset = [[AT]], size = 64, in_place = 1>]
// CHECK: "torch.aten.tanh"{{.*}}coreai.placement = [#coreai.heap<offset = [[AT]], size = {{[0-9]+}}, in_place = 0>]
// OFF-LABEL: func.func @chain
// OFF-SAME: heap = 128{{[,>]}}{{.*}}buffers = 3{{[,>]}}
// OFF-NOT: in_place =
func.func @chain(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.mul"(%a, %0) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "test.use"(%2) : (tensor<16xf32>) -> tensor<16xf32>
  return %3 : tensor<16xf32>
}

// Through a reshape (layout kept) of a dying buffer: allowed.
// CHECK-LABEL: func.func @through_reshape
// CHECK-SAME: buffers = 1{{[,>]}}
// CHECK: "torch.aten.neg"(%{{.*}}) {coreai.placement = [#coreai.heap<offset = 0, size = 64, in_place = 0>]
func.func @through_reshape(%a: tensor<16xf32>) -> tensor<4x4xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.view"(%0) {coreai.alias_of = [0]} : (tensor<16xf32>) -> tensor<4x4xf32>
  %2 = "torch.aten.neg"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = "test.use"(%2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// Refused: the operand is read again later.
// CHECK-LABEL: func.func @used_later
// CHECK-SAME: buffers = 2{{[,>]}}
// CHECK-NOT: in_place =
// CHECK: return
func.func @used_later(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.add"(%0, %a) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = "test.use"(%0, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// Refused: a view of the operand's buffer is read later.
// CHECK-LABEL: func.func @view_used_later
// CHECK-SAME: buffers = 2{{[,>]}}
// CHECK-NOT: in_place =
// CHECK: return
func.func @view_used_later(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %v = "torch.aten.slice"(%0) {coreai.alias_of = [0]} : (tensor<16xf32>) -> tensor<8xf32>
  %1 = "torch.aten.add"(%0, %a) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = "test.use"(%v, %1) : (tensor<8xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// Refused: a function argument (and a view of one) is never written.
// CHECK-LABEL: func.func @argument
// CHECK-SAME: buffers = 2{{[,>]}}
// CHECK-NOT: in_place =
// CHECK: return
func.func @argument(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %v = "torch.aten.alias"(%a) {coreai.alias_of = [0]} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.sigmoid"(%v) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "test.use"(%0, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// Refused: a broadcast (the result is larger), and a conversion (same
// bytes, other element type).
// CHECK-LABEL: func.func @other_type
// CHECK-SAME: buffers = 4{{[,>]}}
// CHECK-NOT: in_place =
// CHECK: return
func.func @other_type(%a: tensor<16xf32>, %b: tensor<4x16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.add"(%0, %b) : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = "torch.aten._to_copy"(%a) : (tensor<16xf32>) -> tensor<16xi32>
  %3 = "torch.aten._to_copy"(%2) : (tensor<16xi32>) -> tensor<16xf32>
  %4 = "test.use"(%1, %3) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %4 : tensor<16xf32>
}

// Refused: the other operand reads the same bytes through a permutation, and
// an operand that is itself a permutation would be overwritten out of order.
// CHECK-LABEL: func.func @shared_bytes
// CHECK-SAME: buffers = 3{{[,>]}}
// CHECK-NOT: in_place =
// CHECK: return
func.func @shared_bytes(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = "torch.aten.permute"(%0) {coreai.alias_of = [0]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "torch.aten.add"(%0, %p) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %q = "torch.aten.permute"(%1) {coreai.alias_of = [0]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "torch.aten.neg"(%q) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = "test.use"(%2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// Refused: the result is returned (it lives outside the heap), and a
// reduction is not elementwise.
// CHECK-LABEL: func.func @returned_and_reduction
// CHECK-SAME: buffers = 3{{[,>]}}
// CHECK-NOT: in_place =
// CHECK: return
func.func @returned_and_reduction(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<1xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.neg"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.mean"(%2) : (tensor<16xf32>) -> tensor<16xf32>
  %4 = "test.use"(%3) : (tensor<16xf32>) -> tensor<1xf32>
  return %1, %4 : tensor<16xf32>, tensor<1xf32>
}

// Inference batch norm writes result 0 over its input (a per-channel affine
// map); its empty statistics need no bytes. Refused when the input is read
// again (the residual add below reads %x after the second batch norm).
// CHECK-LABEL: func.func @batch_norm
// CHECK: "torch.aten._native_batch_norm_legit_no_training"{{.*}}coreai.placement = [#coreai.heap<offset = [[BN:[0-9]+]], size = {{[0-9]+}}, in_place = 0>, #coreai.none, #coreai.none]
// CHECK-NEXT: "torch.aten.hardtanh"{{.*}}coreai.placement = [#coreai.heap<offset = [[BN]], size = {{[0-9]+}}, in_place = 0>]
// CHECK-NEXT: "torch.aten.neg"
// CHECK-NEXT: "torch.aten._native_batch_norm_legit_no_training"
// CHECK-NOT: in_place =
// CHECK-SAME: -> (tensor<1x4x2x2xf32>, tensor<0xf32>, tensor<0xf32>)
func.func @batch_norm(%a: tensor<1x4x2x2xf32>, %w: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %x = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %bn:3 = "torch.aten._native_batch_norm_legit_no_training"(%x, %w, %w, %w, %w) : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1x4x2x2xf32>, tensor<0xf32>, tensor<0xf32>)
  %r = "torch.aten.hardtanh"(%bn#0) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %y = "torch.aten.neg"(%r) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %bn2:3 = "torch.aten._native_batch_norm_legit_no_training"(%y, %w, %w, %w, %w) : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1x4x2x2xf32>, tensor<0xf32>, tensor<0xf32>)
  %s = "torch.aten.add"(%bn2#0, %y) : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %u = "test.use"(%s) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %u : tensor<1x4x2x2xf32>
}

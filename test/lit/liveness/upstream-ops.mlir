// Hand-written TOSA and linalg-on-tensors: tensor.empty holds no bytes (its
// contents are undefined), the linalg result is a buffer, and elementwise
// tosa/linalg ops reuse a dying operand with in-place=true. A linalg op
// that broadcasts its operand is refused.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s --check-prefix=OFF
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers=in-place=true %s | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// OFF-LABEL: func.func @tosa_linalg
// OFF-SAME: buffers = 4{{[,>]}}
// OFF: tensor.empty() : tensor<4x4xf32>
// OFF-NEXT: linalg.generic
// CHECK-LABEL: func.func @tosa_linalg
// CHECK-SAME: heap = 128{{[,>]}}{{.*}}buffers = 2{{[,>]}}{{.*}}in_place_saved = 0{{[,>]}}
// CHECK: tosa.negate{{.*}}coreai.placement = [#coreai.heap<offset = [[AT:[0-9]+]],
// CHECK: tosa.add{{.*}}coreai.placement = [#coreai.heap<offset = [[AT]], size = {{[0-9]+}}, in_place = 0>]
// CHECK: linalg.generic {{.*}} attrs = {coreai.placement = [#coreai.heap<offset = [[AT]], size = {{[0-9]+}}, in_place = 0>]
// CHECK: linalg.generic {{.*}} ins(%arg2 : tensor<4xf32>) {{.*}} attrs = {coreai.placement = [#coreai.heap
func.func @tosa_linalg(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %r: tensor<4xf32>) -> tensor<4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.negate %a, %zp, %zp : (tensor<4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4xf32>
  %1 = tosa.add %0, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%1 : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4x4xf32>
  %3 = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<4xf32>) outs(%2 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %4 = "test.use"(%2, %3) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %4 : tensor<4x4xf32>
}

// Refused: the dying operand is also read transposed, or at any index from
// the op's body; writing element (i, j) would clobber an element read later.
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @linalg_refusals
// CHECK-SAME: buffers = 3{{[,>]}}
// CHECK-NOT: in_place =
// CHECK: return
func.func @linalg_refusals(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.negate %a, %zp, %zp : (tensor<4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %0 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%1 : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %z: f32):
    %i = linalg.index 0 : index
    %corner = tensor.extract %1[%i, %i] : tensor<4x4xf32>
    %s = arith.addf %x, %corner : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %3 = "test.use"(%2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

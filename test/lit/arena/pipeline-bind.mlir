// RUN: coreai-plan-opt %s --coreai-plan-pipeline="bind=s0=8" | FileCheck %s
// RUN: coreai-plan-opt %s --coreai-plan-pipeline 2>&1 | FileCheck %s --check-prefix=UNBOUND

// A dynamic sequence length: with a binding (coreai-specialize-shapes runs
// first) every size is known and the intermediates are planned; without
// one the allocations have dynamic sizes, and the function keeps them all
// with a warning that names the dynamic dimension.
// CHECK-LABEL: func.func @f
// CHECK-SAME: memref<1x8x4xf32>
// CHECK-SAME: coreai.arena = {alignment = 64 : i64, allocs = 2 : i64, allocs_bytes = 256 : i64, lower_bound = 256 : i64, size = 256 : i64}
// CHECK: memref.view
//
// UNBOUND: warning: @f keeps all its allocations (not rewritten to an arena): {{.*}} has a dynamic dimension
// UNBOUND-NOT: memref.view
// UNBOUND: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<1x?x4xf32>
func.func @f(%x: tensor<1x?x4xf32> {coreai.sym_shape = "1,s0,4"}) -> (tensor<1x?x4xf32> {coreai.sym_shape = "1,s0,4"}) {
  %a = tosa.add %x, %x {coreai.sym_shapes = ["1,s0,4"]} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  %b = tosa.exp %a {coreai.sym_shapes = ["1,s0,4"]} : (tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  %c = tosa.sub %b, %a {coreai.sym_shapes = ["1,s0,4"]} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  return %c : tensor<1x?x4xf32>
}

// RUN: coreai-plan-opt %s --coreai-plan-pipeline | FileCheck %s
// RUN: coreai-plan-opt %s --coreai-plan-pipeline="arena=argument algorithm=naive" | FileCheck %s --check-prefix=ARG

// The whole pipeline from TOSA: lowered to linalg, bufferized with explicit
// allocations and deallocations, planned, rewritten. Of the three
// intermediates (64 bytes each) in a chain, %g takes %h's slot (dead after
// the sigmoid); the result is returned, so it stays a plain allocation.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: coreai.arena = {alignment = 64 : i64, allocs = 3 : i64, allocs_bytes = 192 : i64, lower_bound = 128 : i64, size = 128 : i64}
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-COUNT-3: memref.view %[[ARENA]]
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x4xf32>
// CHECK-NOT: memref.dealloc %{{.*}} : memref<1x4x4xf32>
// CHECK: memref.dealloc %[[ARENA]] : memref<128xi8>
// CHECK-NEXT: return %[[OUT]]
//
// ARG-LABEL: func.func @mlp
// ARG-SAME: %[[ARENA:[a-z0-9_]+]]: memref<192xi8> {coreai.scratch}
// ARG-NOT: memref.alloc() {{.*}} memref<192xi8>
// ARG-COUNT-3: memref.view %[[ARENA]]
func.func @mlp(%x: tensor<1x4x4xf32>, %w: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %h = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %s = tosa.sigmoid %h : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %g = tosa.add %s, %s : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %o = tosa.matmul %g, %w, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %o : tensor<1x4x4xf32>
}

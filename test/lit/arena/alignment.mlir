// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena="alignment=256 algorithm=naive" | FileCheck %s
// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena | FileCheck %s --check-prefix=OWN

// alignment=256: offsets are multiples of 256, and so is the arena's own
// alignment; naive lays the buffers end to end (no reuse).
// CHECK-LABEL: func.func @two
// CHECK-SAME: size = 272 : i64
// CHECK: memref.alloc() {alignment = 256 : i64} : memref<272xi8>
// CHECK: arith.constant 0 : index
// CHECK: arith.constant 256 : index
//
// An allocation asking for more than the plan's alignment (64) keeps it:
// the arena is 128-aligned and the memref<4xf32> sits at a multiple of 128.
// OWN-LABEL: func.func @two
// OWN: %[[ARENA:.*]] = memref.alloc() {alignment = 128 : i64}
// OWN: arith.constant {{(0|128|256)}} : index
// OWN-NEXT: memref.view %[[ARENA]]{{.*}} to memref<4xf32>
func.func @two(%arg0: memref<2xf32>, %arg1: memref<4xf32>, %out: memref<2xf32>) {
  %a = memref.alloc() : memref<2xf32>
  linalg.copy ins(%arg0 : memref<2xf32>) outs(%a : memref<2xf32>)
  %b = memref.alloc() {alignment = 128 : i64} : memref<4xf32>
  linalg.copy ins(%arg1 : memref<4xf32>) outs(%b : memref<4xf32>)
  linalg.copy ins(%a : memref<2xf32>) outs(%out : memref<2xf32>)
  memref.dealloc %a : memref<2xf32>
  memref.dealloc %b : memref<4xf32>
  return
}

// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena -split-input-file | FileCheck %s

// A chain a -> b -> c: a dies where c is allocated, so c reuses a's bytes.
// Every alloc becomes a view at its offset, its dealloc goes, and one
// aligned arena is allocated at entry and freed before the return.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: coreai.arena = {alignment = 64 : i64, allocs = 3 : i64, allocs_bytes = 192 : i64, lower_bound = 128 : i64, size = 128 : i64}
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-NOT: linalg.fill
// CHECK: %[[OA:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[ARENA]][%[[OA]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NEXT: linalg.copy ins(%arg0 : memref<16xf32>) outs(%[[A]] : memref<16xf32>)
// CHECK-NEXT: %[[OB:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[ARENA]][%[[OB]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NEXT: linalg.copy ins(%[[A]] : memref<16xf32>) outs(%[[B]] : memref<16xf32>)
// CHECK-NEXT: %[[OC:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[ARENA]][%[[OC]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NOT: memref.dealloc %[[A]]
// CHECK-NOT: memref.dealloc %[[B]]
// CHECK-NOT: memref.dealloc %[[C]]
// CHECK: memref.dealloc %[[ARENA]] : memref<128xi8>
// CHECK-NEXT: return
func.func @chain(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  %c = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%c : memref<16xf32>)
  linalg.copy ins(%c : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

// Views of a planned buffer keep working on the view of the arena, and a
// dealloc through a view goes too. Offsets are multiples of the alignment;
// the arena ends with the last buffer's own bytes.
// CHECK-LABEL: func.func @views
// CHECK-SAME: allocs = 2 : i64, allocs_bytes = 104 : i64
// CHECK-SAME: size = 136 : i64
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<136xi8>
// CHECK: arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<136xi8> to memref<2x12xf32>
// CHECK: %[[E:.*]] = memref.collapse_shape %[[A]]
// CHECK: arith.constant 128 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<136xi8> to memref<2xf32>
// CHECK: linalg.copy ins(%[[B]] : memref<2xf32>)
// CHECK-NOT: memref.dealloc %[[E]]
// CHECK: memref.dealloc %[[ARENA]]
func.func @views(%arg0: memref<24xf32>, %out: memref<2xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<2x12xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<2x12xf32> into memref<24xf32>
  linalg.copy ins(%arg0 : memref<24xf32>) outs(%flat : memref<24xf32>)
  %b = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
  %col = memref.subview %a[0, 0] [2, 1] [1, 1] : memref<2x12xf32> to memref<2xf32, strided<[12]>>
  linalg.copy ins(%col : memref<2xf32, strided<[12]>>) outs(%b : memref<2xf32>)
  linalg.copy ins(%b : memref<2xf32>) outs(%out : memref<2xf32>)
  memref.dealloc %flat : memref<24xf32>
  memref.dealloc %b : memref<2xf32>
  return
}

// -----

// A function without allocations gets no arena, only its summary.
// CHECK-LABEL: func.func @nothing
// CHECK-SAME: coreai.arena = {alignment = 64 : i64, allocs = 0 : i64, allocs_bytes = 0 : i64, lower_bound = 0 : i64, size = 0 : i64}
// CHECK-NOT: memref.alloc
func.func @nothing(%arg0: memref<4xf32>, %out: memref<4xf32>) {
  linalg.copy ins(%arg0 : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

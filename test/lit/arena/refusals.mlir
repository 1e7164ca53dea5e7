// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena -split-input-file -verify-diagnostics | FileCheck %s

// A returned allocation escapes the function: it stays a plain allocation
// (the caller frees it) and a remark says why; the others are planned.
// CHECK-LABEL: func.func @returned
// CHECK-SAME: allocs = 1 : i64
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK: memref.view %[[ARENA]]
// CHECK: %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK: memref.dealloc %[[ARENA]]
// CHECK-NEXT: return %[[R]]
func.func @returned(%arg0: memref<16xf32>) -> memref<16xf32> {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  // expected-remark @below {{allocation stays outside the arena: it escapes the function (returned)}}
  %r = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%r : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  return %r : memref<16xf32>
}

// -----

// Returned through a view (expand_shape): still escapes.
// CHECK-LABEL: func.func @returned_view
// CHECK-SAME: allocs = 0 : i64
// CHECK: memref.alloc() : memref<16xf32>
// CHECK-NOT: memref.view
func.func @returned_view(%arg0: memref<16xf32>) -> memref<4x4xf32> {
  // expected-remark @below {{allocation stays outside the arena: it escapes the function (returned)}}
  %r = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%r : memref<16xf32>)
  %e = memref.expand_shape %r [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  return %e : memref<4x4xf32>
}

// -----

// A dynamic size without a binding: liveness cannot size it, so the whole
// function keeps its allocations (none is moved, none mis-planned) and a
// warning at the allocation says so.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: coreai.arena
// CHECK-NOT: memref.view
// CHECK: memref.alloc() : memref<16xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
func.func @dynamic(%arg0: memref<16xf32>, %n: index, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  // expected-warning @below {{@dynamic keeps all its allocations (not rewritten to an arena)}}
  %d = memref.alloc(%n) : memref<?xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<16xf32>
  memref.store %v, %d[%c0] : memref<?xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %d : memref<?xf32>
  return
}

// -----

// An allocation inside a loop body stays: one offset for every iteration
// would be wrong if an iteration's buffer outlived it.
// CHECK-LABEL: func.func @in_loop
// CHECK-SAME: allocs = 1 : i64
// CHECK: scf.for
// CHECK-NEXT: memref.alloc() : memref<4xf32>
func.func @in_loop(%arg0: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  linalg.copy ins(%arg0 : memref<4xf32>) outs(%a : memref<4xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-remark @below {{allocation stays outside the arena: it is allocated inside a region}}
    %t = memref.alloc() : memref<4xf32>
    linalg.copy ins(%a : memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.copy ins(%t : memref<4xf32>) outs(%out : memref<4xf32>)
    memref.dealloc %t : memref<4xf32>
  }
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// @passthrough returns (a view of) its argument: after the call, %r reads
// %a's bytes under another name, so %a must not share them with anything.
// @fresh returns its own allocation, so what is passed to it is planned.
// CHECK-LABEL: func.func @calls
// CHECK-SAME: allocs = 1 : i64
// CHECK: %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK: call @passthrough(%[[A]])
// CHECK: %[[B:.*]] = memref.view
// CHECK: call @fresh(%[[B]])
func.func private @passthrough(%m: memref<16xf32>) -> memref<4x4xf32> {
  %e = memref.expand_shape %m [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  return %e : memref<4x4xf32>
}
func.func private @fresh(%m: memref<16xf32>) -> memref<16xf32> {
  // expected-remark @below {{it escapes the function (returned)}}
  %n = memref.alloc() : memref<16xf32>
  linalg.copy ins(%m : memref<16xf32>) outs(%n : memref<16xf32>)
  return %n : memref<16xf32>
}
func.func @calls(%arg0: memref<16xf32>, %out: memref<4x4xf32>, %out2: memref<16xf32>) {
  // expected-remark @below {{allocation stays outside the arena: it is passed to @passthrough, whose memref result may alias it}}
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %r = call @passthrough(%a) : (memref<16xf32>) -> memref<4x4xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%b : memref<16xf32>)
  %f = call @fresh(%b) : (memref<16xf32>) -> memref<16xf32>
  linalg.copy ins(%r : memref<4x4xf32>) outs(%out : memref<4x4xf32>)
  linalg.copy ins(%f : memref<16xf32>) outs(%out2 : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %f : memref<16xf32>
  return
}

// -----

// A value yielded out of a region or picked by a select is the buffer
// under another name that liveness does not follow: such buffers stay.
// CHECK-LABEL: func.func @other_names
// CHECK-SAME: allocs = 1 : i64
func.func @other_names(%arg0: memref<16xf32>, %c: i1, %out: memref<16xf32>) {
  // expected-remark @below {{allocation stays outside the arena: it flows out of a region through 'scf.yield'}}
  %a = memref.alloc() : memref<16xf32>
  // expected-remark @below {{allocation stays outside the arena: it flows out of a region through 'scf.yield'}}
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%b : memref<16xf32>)
  %r = scf.if %c -> memref<16xf32> {
    scf.yield %a : memref<16xf32>
  } else {
    scf.yield %b : memref<16xf32>
  }
  // expected-remark @below {{allocation stays outside the arena: 'arith.select' may return it under another name}}
  %d = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%d : memref<16xf32>)
  %s = arith.select %c, %d, %r : memref<16xf32>
  %e = memref.alloc() : memref<16xf32>
  linalg.copy ins(%s : memref<16xf32>) outs(%e : memref<16xf32>)
  linalg.copy ins(%e : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}

// Bufferized IR: each memref.alloc is a buffer from the alloc to its last
// use; memref.dealloc only ends it; subview/cast/expand/collapse/view alias
// their source; alloca, get_global and arguments are not planned.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s
// RUN: rm -rf %t && coreai-plan buffers %s --function bufferized --emit-problem %t.csv > /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

memref.global "private" constant @table : memref<16xf32> = dense<1.0>

// CHECK-LABEL: func.func @bufferized
// CHECK-SAME: heap = 192{{[,>]}}{{.*}}buffers = 2{{[,>]}}
// CHECK: memref.alloc() {alignment = 64 : i64, coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 64>]}
// CHECK: memref.alloc() {coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 128>]}
// CHECK: memref.alloca()
// CHECK-NOT: #coreai.{{heap|lent}}
// CHECK: return
// %0 is last read at 4 (its dealloc at 5 is not a read); %1 lives through
// its subview's use at 8.
// CSV: id,lower,upper,size
// CSV-NEXT: %alloc,0,5,64
// CSV-NEXT: %alloc_0,2,9,128
// CSV-NOT: %
func.func @bufferized(%in: memref<16xf32>, %out: memref<16xf32>) {
  %0 = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  "test.write"(%in, %0) : (memref<16xf32>, memref<16xf32>) -> ()
  %1 = memref.alloc() : memref<32xf32>
  %2 = memref.subview %1[8] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1], offset: 8>>
  "test.write"(%0, %2) : (memref<16xf32>, memref<16xf32, strided<[1], offset: 8>>) -> ()
  memref.dealloc %0 : memref<16xf32>
  %3 = memref.alloca() : memref<16xf32>
  %4 = memref.get_global @table : memref<16xf32>
  "test.write"(%2, %3, %4, %out) : (memref<16xf32, strided<[1], offset: 8>>, memref<16xf32>, memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %1 : memref<32xf32>
  return
}

// Memory handed out under a name liveness does not follow (yielded out of a
// region, picked by a select, passed to a call that may return it) stays
// out of the heap: its later uses under that name are not tracked. A call
// that returns a fresh allocation of its own renames nothing.
// CHECK-LABEL: func.func @renamed
// CHECK-SAME: buffers = 2{{[,>]}}
// CHECK: %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<16xf32>
// CHECK: %[[D:.*]] = memref.alloc() : memref<16xf32>
// CHECK: %[[N:.*]] = memref.alloc() {coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 64>]}
// CHECK: %[[P:.*]] = memref.alloc() : memref<16xf32>
// CHECK: %[[F:.*]] = memref.alloc() {coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 64>]}
// CHECK: scf.if
// CHECK: memref.alloc() : memref<16xf32>
func.func private @passthrough(%m: memref<16xf32>) -> memref<16xf32> {
  return %m : memref<16xf32>
}
func.func private @fresh(%m: memref<16xf32>) -> memref<16xf32> {
  %n = memref.alloc() : memref<16xf32>
  "test.write"(%m, %n) : (memref<16xf32>, memref<16xf32>) -> ()
  return %n : memref<16xf32>
}
func.func @renamed(%in: memref<16xf32>, %c: i1, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  %n = memref.alloc() : memref<16xf32>
  %p = memref.alloc() : memref<16xf32>
  %f = memref.alloc() : memref<16xf32>
  "test.write"(%in, %a, %b, %d, %n, %p, %f) : (memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>) -> ()
  %r = scf.if %c -> memref<16xf32> {
    scf.yield %a : memref<16xf32>
  } else {
    scf.yield %b : memref<16xf32>
  }
  %y = scf.if %c -> memref<16xf32> {
    %inner = memref.alloc() : memref<16xf32>
    scf.yield %inner : memref<16xf32>
  } else {
    scf.yield %in : memref<16xf32>
  }
  %s = arith.select %c, %d, %r : memref<16xf32>
  %q = func.call @passthrough(%p) : (memref<16xf32>) -> memref<16xf32>
  %g = func.call @fresh(%f) : (memref<16xf32>) -> memref<16xf32>
  %h = func.call @fresh(%n) : (memref<16xf32>) -> memref<16xf32>
  "test.write"(%s, %q, %g, %h, %y, %out) : (memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>) -> ()
  return
}

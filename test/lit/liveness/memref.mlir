// Bufferized IR: each memref.alloc is a buffer from the alloc to its last
// use; memref.dealloc only ends it; subview/cast/expand/collapse/view alias
// their source; alloca, get_global and arguments are not planned.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s
// RUN: rm -rf %t && coreai-plan buffers %s --emit-problem %t.csv > /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

memref.global "private" constant @table : memref<16xf32> = dense<1.0>

// CHECK-LABEL: func.func @bufferized
// CHECK-SAME: buffers = 2 : i64, heap = 192 : i64
// CHECK: memref.alloc() {alignment = 64 : i64, coreai.offsets = array<i64: {{[0-9]+}}>, coreai.sizes = array<i64: 64>}
// CHECK: memref.alloc() {coreai.offsets = array<i64: {{[0-9]+}}>, coreai.sizes = array<i64: 128>}
// CHECK: memref.alloca()
// CHECK-NOT: coreai.offsets
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

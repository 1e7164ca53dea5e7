// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena -verify-diagnostics

// bufferization.dealloc decides at run time what to free; it must be
// lowered (--bufferization-lower-deallocations) before buffers can move.
func.func @f(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  linalg.copy ins(%a : memref<16xf32>) outs(%out : memref<16xf32>)
  %true = arith.constant true
  // expected-error @below {{bufferization.dealloc of a planned buffer: run --bufferization-lower-deallocations first}}
  bufferization.dealloc (%a : memref<16xf32>) if (%true)
  return
}

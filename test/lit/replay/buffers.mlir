// The replay on bufferized IR: a memref.alloc holds nothing until an op
// first writes it, so a linalg op may write its fresh output over an input
// it reads element by element (coreai-plan-buffers in-place=true). Only
// where the op's class allows it: a transpose or a read after the write
// over the same bytes still fails.
// RUN: coreai-plan-opt %s --coreai-plan-buffers=in-place=true -split-input-file | FileCheck %s --check-prefix=PLAN
// RUN: not coreai-plan-opt --coreai-verify-replay -split-input-file %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAULT

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>

// The chain a -> b -> c in one 64-byte buffer, accepted by its own replay.
// PLAN-LABEL: func.func @chain
// PLAN-SAME: heap = 64{{[,>]}}
// PLAN-COUNT-3: memref.alloc() {{{.*}}coreai.placement = [#coreai.heap<offset = 0,
func.func @chain(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  %c = memref.alloc() : memref<16xf32>
  linalg.copy ins(%b : memref<16xf32>) outs(%c : memref<16xf32>)
  linalg.copy ins(%c : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

#t2 = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A transpose does not compute element i from element i: its output may
// not share its input's bytes.
// FAULT: error: the plan of @transpose fails the replay: step 3 ('linalg.generic' at {{.*}}buffers.mlir:[[@LINE+5]]:{{[0-9]+}}) writes %alloc_0 (heap bytes [0, 64)) over bytes [0, 64) of %alloc, which it reads
func.func @transpose(%arg0: memref<4x4xf32>, %out: memref<4x4xf32>) attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 64, buffers = 0, algorithm = "best", optimal = true>} {
  %a = memref.alloc() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : memref<4x4xf32>
  linalg.copy ins(%arg0 : memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  %b = memref.alloc() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : memref<4x4xf32>
  linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.copy ins(%b : memref<4x4xf32>) outs(%out : memref<4x4xf32>)
  memref.dealloc %a : memref<4x4xf32>
  memref.dealloc %b : memref<4x4xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

// Elementwise, but %a is read again after %b was written over it.
// FAULT: error: the plan of @read_after fails the replay: step 4 ('linalg.copy' at {{.*}}buffers.mlir:[[@LINE+10]]:{{[0-9]+}}) reads %alloc (heap bytes [0, 64)), but bytes [0, 64) hold %alloc_0
func.func @read_after(%arg0: memref<16xf32>, %out: memref<16xf32>) attributes {coreai.plan = #coreai.plan<heap = 64, lower_bound = 0, alignment = 64, buffers = 0, algorithm = "best", optimal = true>} {
  %a = memref.alloc() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() {coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  linalg.copy ins(%a : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

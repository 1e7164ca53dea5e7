// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena=in-place=true -split-input-file | FileCheck %s
// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena -split-input-file | FileCheck %s --check-prefix=OFF

// in-place=true on buffers: a linalg op that is the first to write a fresh
// allocation, elementwise from an input of the same type that dies there,
// writes into the input's bytes: the chain a -> b -> c needs one buffer.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: coreai.arena = {alignment = 64 : i64, allocs = 3 : i64, allocs_bytes = 192 : i64, lower_bound = 64 : i64, size = 64 : i64}
// CHECK-COUNT-3: memref.view %{{.*}}[%c0{{.*}}][] : memref<64xi8> to memref<16xf32>
// OFF-LABEL: func.func @chain
// OFF-SAME: lower_bound = 128 : i64, size = 128 : i64
func.func @chain(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
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

// Each refusal below would need only 64 bytes if the rule fired; refused,
// the two buffers are live together: 128.
#id = affine_map<(d0) -> (d0)>

// Refused: the input is read again later.
// CHECK-LABEL: func.func @read_later
// CHECK-SAME: lower_bound = 128 : i64
func.func @read_later(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  linalg.copy ins(%a : memref<16xf32>) outs(%out : memref<16xf32>)
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

// Refused: the output was written before (the fill), while the input lived.
// CHECK-LABEL: func.func @written_before
// CHECK-SAME: lower_bound = 128 : i64
func.func @written_before(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<16xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

// Refused: the body reads the output's old contents (an accumulation).
// CHECK-LABEL: func.func @reads_output
// CHECK-SAME: lower_bound = 128 : i64
func.func @reads_output(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Refused: a transposed read (element (i, j) of the output reads (j, i) of
// the input, which an earlier iteration may have overwritten).
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: lower_bound = 128 : i64
func.func @transposed(%arg0: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  linalg.copy ins(%arg0 : memref<4x4xf32>) outs(%a : memref<4x4xf32>)
  %b = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.copy ins(%b : memref<4x4xf32>) outs(%out : memref<4x4xf32>)
  memref.dealloc %a : memref<4x4xf32>
  memref.dealloc %b : memref<4x4xf32>
  return
}

// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena="poison=true" | FileCheck %s --check-prefix=POISON
// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena="test-corrupt-plan=true" 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: not coreai-plan-opt %s --coreai-rewrite-to-arena="arena=heap" 2>&1 | FileCheck %s --check-prefix=FORM
// RUN: not coreai-plan-opt %s --coreai-rewrite-to-arena="alignment=48" 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not coreai-plan-opt %s --coreai-rewrite-to-arena="algorithm=magic" 2>&1 | FileCheck %s --check-prefix=ALGO
// RUN: not coreai-plan-opt %s --coreai-rewrite-to-arena="functions=f,g" 2>&1 | FileCheck %s --check-prefix=FUNCS

// poison=true: right after the arena is allocated, every byte becomes 0xFF
// (-1 as i8; as f32 that is a NaN), so a kernel that reads a buffer nothing
// wrote yields NaN instead of stale data that happens to be right.
// POISON: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// POISON-NEXT: %[[FF:.*]] = arith.constant -1 : i8
// POISON-NEXT: linalg.fill ins(%[[FF]] : i8) outs(%[[ARENA]] : memref<128xi8>)
// POISON: memref.view %[[ARENA]]

// test-corrupt-plan=true (the e2e negative control): the two buffers live
// together longest now share an offset, and a warning says which.
// CORRUPT: warning: test-corrupt-plan: %alloc and %alloc_0 are live together but now share offset 0
// CORRUPT: arith.constant 0 : index
// CORRUPT-NEXT: memref.view {{.*}} to memref<16xf32>
// CORRUPT: arith.constant 0 : index
// CORRUPT-NEXT: memref.view {{.*}} to memref<16xf32>

// FORM: error: arena must be 'alloc' or 'argument', not 'heap'
// ALIGN: error: alignment must be a positive power of two, got 48
// ALGO: for the --algorithm option: Cannot find option named 'magic'
// FUNCS: error: functions= names @g, which is not a function defined in this module
func.func @f(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  linalg.add ins(%a, %b : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

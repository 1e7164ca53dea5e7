// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena="arena=argument" | FileCheck %s
// RUN: coreai-plan-opt %s --coreai-rewrite-to-arena="arena=argument functions=leaf" | FileCheck %s --check-prefix=ONLY

// arena=argument: the arena is a trailing memref<HEAPxi8> argument marked
// coreai.scratch (the AOT form: the runtime passes its scratch memory); no
// allocation and no deallocation of it in the function.
// CHECK-LABEL: func.func @leaf
// CHECK-SAME: (%{{.*}}: memref<16xf32>, %{{.*}}: memref<16xf32>, %[[ARENA:[a-z0-9_]+]]: memref<128xi8> {coreai.scratch})
// CHECK-SAME: size = 128 : i64
// CHECK-NOT: memref.alloc
// CHECK: memref.view %[[ARENA]][%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK: memref.view %[[ARENA]][%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @leaf(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.copy ins(%arg0 : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  linalg.copy ins(%b : memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// A caller inside the module passes a scratch buffer of the callee's size.
// Planned itself, the caller takes it from its own arena (argument).
// CHECK-LABEL: func.func @caller
// CHECK-SAME: %[[OWN:[a-z0-9_]+]]: memref<128xi8> {coreai.scratch}
// CHECK: %[[S:.*]] = memref.view %[[OWN]][%{{.*}}][] : memref<128xi8> to memref<128xi8>
// CHECK: call @leaf(%{{.*}}, %{{.*}}, %[[S]])
//
// With functions=leaf only @leaf is rewritten; the call site allocates.
// ONLY-LABEL: func.func @leaf
// ONLY-SAME: %{{.*}}: memref<128xi8> {coreai.scratch}
// ONLY-LABEL: func.func @caller
// ONLY-NOT: coreai.arena
// ONLY: %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// ONLY-NEXT: call @leaf(%{{.*}}, %{{.*}}, %[[S]])
// ONLY-NEXT: memref.dealloc %[[S]] : memref<128xi8>
func.func @caller(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  call @leaf(%arg0, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  return
}

// Borrowing outputs' storage: a buffer that dies before an output's own
// value is first written may live in that output's bytes (#coreai.lent
// names the output and the offset inside it). Every plan here
// passes the replay (planFunction runs it; the second RUN re-runs it from
// the printed IR).
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="alignment=64 borrow-outputs=true" %s | FileCheck %s
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="alignment=64 borrow-outputs=true" --coreai-verify-replay %s -o /dev/null
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="alignment=64" %s | FileCheck %s --check-prefix=OFF

// A decoder's shape: a body of 256-byte intermediates, then a 1024-byte
// head written from the last of them. Everything but %2 (read by the head)
// fits in the head's output before it is written; %2 is the whole heap.
// CHECK-LABEL: func.func @head
// CHECK-SAME: heap = 256{{[,>]}}
// CHECK-SAME: lower_bound = 256{{[,>]}}
// CHECK-SAME: optimal = true
// CHECK-SAME: borrowed_bytes = 512{{[,>]}}
// CHECK: %0 = "torch.aten.neg"{{.*}}coreai.placement = [#coreai.lent<output = 0,
// CHECK: %1 = "torch.aten.tanh"{{.*}}coreai.placement = [#coreai.lent<output = 0,
// CHECK-NOT: #coreai.lent
// CHECK: %2 = "torch.aten.add"{{.*}}coreai.placement = [#coreai.heap<offset = 0,
// CHECK-NOT: #coreai.lent
// CHECK: return
// OFF-LABEL: func.func @head
// OFF-SAME: heap = 768{{[,>]}}
// OFF-NOT: #coreai.lent
func.func @head(%a: tensor<64xf32>, %w: tensor<64x4xf32>) -> tensor<256xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<64xf32>) -> tensor<64xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<64xf32>) -> tensor<64xf32>
  %2 = "torch.aten.add"(%1, %0) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %3 = "torch.aten.mm"(%2, %w) : (tensor<64xf32>, tensor<64x4xf32>) -> tensor<256xf32>
  return %3 : tensor<256xf32>
}

// An output whose value is written early and read as an operand afterwards:
// its bytes hold that value from its write on, so only buffers that die by
// then are borrowed there (%0); %1, %3 and %4 would fit in its 1024 bytes
// but are live after its write, and output 1 (32 bytes) takes none of them.
// CHECK-LABEL: func.func @output_read_early
// CHECK-SAME: heap = 512{{[,>]}}
// CHECK: %0 = "torch.aten.neg"{{.*}}coreai.placement = [#coreai.lent<output = 0,
// CHECK-NOT: #coreai.lent
// CHECK: return
func.func @output_read_early(%a: tensor<64xf32>, %w: tensor<64x4xf32>) -> (tensor<256xf32>, tensor<8xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<64xf32>) -> tensor<64xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<64xf32>) -> tensor<64xf32>
  %2 = "torch.aten.mm"(%1, %w) : (tensor<64xf32>, tensor<64x4xf32>) -> tensor<256xf32>
  %3 = "test.use"(%2, %a) : (tensor<256xf32>, tensor<64xf32>) -> tensor<64xf32>
  %4 = "torch.aten.neg"(%3) : (tensor<64xf32>) -> tensor<64xf32>
  %5 = "test.reduce"(%4, %3) : (tensor<64xf32>, tensor<64xf32>) -> tensor<8xf32>
  return %2, %5 : tensor<256xf32>, tensor<8xf32>
}

// Two outputs of 256 bytes: output 1 is written at op 2, output 0 at op 6.
// %0 dies by op 2 and goes to output 1 (the bin that closes first); %1
// outlives it and goes to output 0; %3 and %4, live together, cannot both
// fit in output 0 (512 bytes for 256): one is borrowed, the other and %5
// (read by the op that writes output 0) need the heap, as the bound says.
// CHECK-LABEL: func.func @two_outputs
// CHECK-SAME: heap = 512{{[,>]}}
// CHECK-SAME: lower_bound = 512{{[,>]}}
// CHECK: %0 = "torch.aten.neg"{{.*}}coreai.placement = [#coreai.lent<output = 1,
// CHECK: %1 = "torch.aten.tanh"{{.*}}coreai.placement = [#coreai.lent<output = 0,
// CHECK: %3 = "torch.aten.neg"{{.*}}coreai.placement = [#coreai.lent<output = 0,
// CHECK-NOT: #coreai.lent
// CHECK: return
func.func @two_outputs(%a: tensor<32xf32>, %b: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<32xf32>) -> tensor<32xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<32xf32>) -> tensor<32xf32>
  %2 = "test.widen"(%1) : (tensor<32xf32>) -> tensor<64xf32>
  %3 = "torch.aten.neg"(%b) : (tensor<64xf32>) -> tensor<64xf32>
  %4 = "torch.aten.tanh"(%b) : (tensor<64xf32>) -> tensor<64xf32>
  %5 = "torch.aten.add"(%3, %4) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %6 = "test.widen"(%5) : (tensor<64xf32>) -> tensor<64xf32>
  return %6, %2 : tensor<64xf32>, tensor<64xf32>
}

// No output big enough: the 256-byte output cannot take the 512-byte
// intermediates, so nothing is borrowed and the heap is unchanged.
// CHECK-LABEL: func.func @too_small
// CHECK-SAME: heap = 1024{{[,>]}}
// CHECK-SAME: borrowed_bytes = 0{{[,>]}}
// CHECK-NOT: #coreai.lent
// CHECK: return
func.func @too_small(%a: tensor<128xf32>) -> tensor<64xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<128xf32>) -> tensor<128xf32>
  %1 = "torch.aten.tanh"(%0) : (tensor<128xf32>) -> tensor<128xf32>
  %2 = "torch.aten.neg"(%1) : (tensor<128xf32>) -> tensor<128xf32>
  %3 = "test.reduce"(%2) : (tensor<128xf32>) -> tensor<64xf32>
  return %3 : tensor<64xf32>
}

// Alignment inside the output: 40-byte buffers live together are placed at
// multiples of 64 in the 256-byte output (0, 64, 128), not packed at 40.
// CHECK-LABEL: func.func @aligned
// CHECK-SAME: heap = 64{{[,>]}}
// CHECK: "torch.aten.neg"{{.*}}coreai.placement = [#coreai.lent<output = 0, offset = 0,
// CHECK: "torch.aten.tanh"{{.*}}coreai.placement = [#coreai.lent<output = 0, offset = 64,
// CHECK: "torch.aten.exp"{{.*}}coreai.placement = [#coreai.lent<output = 0, offset = 128,
func.func @aligned(%a: tensor<10xf32>) -> tensor<64xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<10xf32>) -> tensor<10xf32>
  %1 = "torch.aten.tanh"(%a) : (tensor<10xf32>) -> tensor<10xf32>
  %2 = "torch.aten.exp"(%a) : (tensor<10xf32>) -> tensor<10xf32>
  %3 = "test.join"(%0, %1, %2) : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) -> tensor<16xf32>
  %4 = "test.widen"(%3) : (tensor<16xf32>) -> tensor<64xf32>
  return %4 : tensor<64xf32>
}

// Only storage the function fills itself is lent: a returned global may be
// what the runtime binds the output to, so nothing is borrowed there, while
// a returned allocation written after the scratch died is a bin.
memref.global "private" constant @table : memref<64xf32> = dense<1.0>
// CHECK-LABEL: func.func @returns_global
// CHECK-NOT: borrowed_bytes
// CHECK-SAME: heap = 64{{[,>]}}
// CHECK-NOT: #coreai.lent
// CHECK: return
func.func @returns_global(%a: memref<16xf32>) -> memref<64xf32> {
  %0 = memref.alloc() : memref<16xf32>
  "test.write"(%a, %0) : (memref<16xf32>, memref<16xf32>) -> ()
  "test.read"(%0) : (memref<16xf32>) -> ()
  %1 = memref.get_global @table : memref<64xf32>
  return %1 : memref<64xf32>
}
// CHECK-LABEL: func.func @returns_allocation
// CHECK-SAME: heap = 0{{[,>]}}
// CHECK-SAME: borrowed_bytes = 64{{[,>]}}
// CHECK: memref.alloc(){{.*}}coreai.placement = [#coreai.lent<output = 0,
// CHECK: return
func.func @returns_allocation(%a: memref<16xf32>) -> memref<64xf32> {
  %0 = memref.alloc() : memref<16xf32>
  "test.write"(%a, %0) : (memref<16xf32>, memref<16xf32>) -> ()
  "test.read"(%0) : (memref<16xf32>) -> ()
  %1 = memref.alloc() : memref<64xf32>
  "test.write"(%a, %1) : (memref<16xf32>, memref<64xf32>) -> ()
  return %1 : memref<64xf32>
}

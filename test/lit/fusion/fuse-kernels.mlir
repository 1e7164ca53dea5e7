// The target's fusion rules (docs/FUSION.md) as coreai-fuse-kernels applies
// them: which ops become one kernel, and how a kernel's ops move next to its
// last op. Without a rule on (the generic target) nothing is fused.
// RUN: coreai-plan-opt --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false "--coreai-fuse-kernels=fuse-elementwise=true fuse-reductions=true fuse-casts=true fuse-attention=true" %s 2>/dev/null | FileCheck %s
// Remarks from functions planned on parallel threads are now and then
// lost by the diagnostic handler (about 1 run in 30): one thread here.
// RUN: coreai-plan-opt --mlir-disable-threading --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false "--coreai-fuse-kernels=fuse-elementwise=true fuse-reductions=true fuse-casts=true fuse-attention=true" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: coreai-plan-opt --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false --coreai-fuse-kernels %s 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: coreai-plan-opt --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false --coreai-fuse-kernels %s 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE-REMARK
// NONE-NOT: coreai.kernel =
// NONE-REMARK: remark: @chain: 0 kernels from none
// REMARK: remark: @chain: 1 kernel from target
// REMARK: remark: @casts_and_products: 2 kernels from target

// An elementwise chain whose inner values nobody else reads: one kernel.
// CHECK-LABEL: func.func @chain
// CHECK: "torch.aten.neg"{{.*}}coreai.kernel = 0
// CHECK: "torch.aten.mul"{{.*}}coreai.kernel = 0
// CHECK: "torch.aten.tanh"{{.*}}coreai.kernel = 0
// CHECK: "test.use"
// CHECK-NOT: coreai.kernel
// CHECK: return
func.func @chain(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.mul"(%0, %b) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "test.use"(%2) : (tensor<16xf32>) -> tensor<16xf32>
  return %3 : tensor<16xf32>
}

// neg's result is read outside too: it must be stored, so neg stays out;
// mul and tanh still fuse.
// CHECK-LABEL: func.func @read_outside
// CHECK: "torch.aten.neg"(%{{[^)]*}}) : (
// CHECK: "torch.aten.mul"{{.*}}coreai.kernel = 0
// CHECK: "torch.aten.tanh"{{.*}}coreai.kernel = 0
func.func @read_outside(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.mul"(%0, %b) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "test.use"(%0, %2) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %3 : tensor<16xf32>
}

// A norm: a reduction with its elementwise prologue (the cast, the square)
// and epilogue (eps, rsqrt, the scaling, the cast back, the weight).
// CHECK-LABEL: func.func @rms
// CHECK-COUNT-8: coreai.kernel = 0
// CHECK: "test.use"
func.func @rms(%x: tensor<4x8xf16>, %w: tensor<8xf16>) -> tensor<4x8xf16> {
  %0 = "torch.aten._to_copy"(%x) {coreai.args = "(T, dtype=torch.float32)"} : (tensor<4x8xf16>) -> tensor<4x8xf32>
  %1 = "torch.aten.pow"(%0) {coreai.args = "(T, 2)"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "torch.aten.mean"(%1) {coreai.args = "(T, [-1], True)"} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %3 = "torch.aten.add"(%2) {coreai.args = "(T, 1e-06)"} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %4 = "torch.aten.rsqrt"(%3) {coreai.args = "(T)"} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %5 = "torch.aten.mul"(%0, %4) {coreai.args = "(T, T)"} : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %6 = "torch.aten._to_copy"(%5) {coreai.args = "(T, dtype=torch.float16)"} : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %7 = "torch.aten.mul"(%w, %6) {coreai.args = "(T, T)"} : (tensor<8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %8 = "test.use"(%7) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return %8 : tensor<4x8xf16>
}

// A widening cast is read converted by the matrix product; a narrowing one
// is written narrow by its producer's kernel instead (here: the tanh), so
// the product never reads the wide value. A product's result is written:
// its elementwise epilogue (the bias) is a kernel of its own.
// CHECK-LABEL: func.func @casts_and_products
// CHECK: "torch.aten._to_copy"(%arg0){{.*}}coreai.kernel = 0
// CHECK: "torch.aten.mm"{{.*}}coreai.kernel = 0
// CHECK: "torch.aten.tanh"{{.*}}coreai.kernel = 1
// CHECK: "torch.aten._to_copy"{{.*}}coreai.kernel = 1
// CHECK: "torch.aten.mm"(%{{[^)]*}}) {coreai.args = "(T, T)"} :
// CHECK: "torch.aten.add"(%{{[^)]*}}) {coreai.args = "(T, T)"} :
func.func @casts_and_products(%x: tensor<4x8xf16>, %w: tensor<8x8xf32>, %w16: tensor<8x8xf16>, %bias: tensor<8xf16>) -> tensor<4x8xf16> {
  %0 = "torch.aten._to_copy"(%x) {coreai.args = "(T, dtype=torch.float32)"} : (tensor<4x8xf16>) -> tensor<4x8xf32>
  %1 = "torch.aten.mm"(%0, %w) {coreai.args = "(T, T)"} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %2 = "torch.aten.tanh"(%1) {coreai.args = "(T)"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "torch.aten._to_copy"(%2) {coreai.args = "(T, dtype=torch.float16)"} : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %4 = "torch.aten.mm"(%3, %w16) {coreai.args = "(T, T)"} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %5 = "torch.aten.add"(%4, %bias) {coreai.args = "(T, T)"} : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
  %6 = "test.use"(%5) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return %6 : tensor<4x8xf16>
}

// Attention: q k^T, the scale and the mask, the softmax and the product
// with v are one kernel: the scores and probabilities never leave it.
// CHECK-LABEL: func.func @attention
// CHECK: "torch.aten.bmm"{{.*}}coreai.kernel = 0
// CHECK: "torch.aten.mul"{{.*}}coreai.kernel = 0
// CHECK: "torch.aten.add"{{.*}}coreai.kernel = 0
// CHECK: "torch.aten._softmax"{{.*}}coreai.kernel = 0
// CHECK: "torch.aten.bmm"{{.*}}coreai.kernel = 0
// CHECK: "test.use"
func.func @attention(%q: tensor<2x4x8xf32>, %kt: tensor<2x8x16xf32>, %v: tensor<2x16x8xf32>, %mask: tensor<4x16xf32>) -> tensor<2x4x8xf32> {
  %0 = "torch.aten.bmm"(%q, %kt) {coreai.args = "(T, T)"} : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  %1 = "torch.aten.mul"(%0) {coreai.args = "(T, 0.35)"} : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %2 = "torch.aten.add"(%1, %mask) {coreai.args = "(T, T)"} : (tensor<2x4x16xf32>, tensor<4x16xf32>) -> tensor<2x4x16xf32>
  %3 = "torch.aten._softmax"(%2) {coreai.args = "(T, -1, False)"} : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %4 = "torch.aten.bmm"(%3, %v) {coreai.args = "(T, T)"} : (tensor<2x4x16xf32>, tensor<2x16x8xf32>) -> tensor<2x4x8xf32>
  %5 = "test.use"(%4) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %5 : tensor<2x4x8xf32>
}

// An op with effects between producer and consumer keeps them apart
// (kernels never span one); an op with no effects between them is moved
// out of the way: the kernel's ops end up next to each other.
// CHECK-LABEL: func.func @effects_and_moves
// CHECK: "torch.aten.neg"(%arg0) : (
// CHECK: "test.effect"
// CHECK: "torch.aten.exp"(%{{[^)]*}}) : (
// CHECK: "torch.aten.sin"{{.*}}coreai.kernel = 0
// CHECK-NEXT: "torch.aten.cos"{{.*}}coreai.kernel = 0
func.func @effects_and_moves(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  "test.effect"() : () -> ()
  %1 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.sin"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.exp"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %4 = "torch.aten.cos"(%2) : (tensor<16xf32>) -> tensor<16xf32>
  return %1, %3, %4 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// Op classes come from the op name AND its arguments (coreai.args): each
// case below keeps the result's type, so a name-only rule could write it
// over its dying operand. Copies changing the memory format, layout or
// device, reductions (also over size-1 dims), scans, flips, rolls, gathers,
// scatters, sorts, softmax (unless opted in), broadcasts into the smaller
// operand, unknown ops and unknown arguments get no reuse;
// the positive controls show the same graph shape does get it.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers="in-place=true output-placement=true" %s | FileCheck %s

// A clone with the default memory format copies element i to i: in place.
// CHECK-LABEL: func.func @clone_default(
// CHECK: "torch.aten.clone"{{.*}}in_place = 0>]
func.func @clone_default(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.clone"(%0) {coreai.args = "(T,)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// contiguous_format on a contiguous input keeps the layout: in place.
// CHECK-LABEL: func.func @clone_contiguous(
// CHECK: "torch.aten.clone"{{.*}}in_place = 0>]
func.func @clone_contiguous(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.clone"(%0) {coreai.args = "(T, memory_format=torch.contiguous_format)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// channels_last moves element (n,c,h,w) to its NHWC offset, over input
// bytes not yet read: never in place.
// CHECK-LABEL: func.func @clone_channels_last(
// CHECK-NOT: in_place =
// CHECK: return
func.func @clone_channels_last(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.clone"(%0) {coreai.args = "(T, memory_format=torch.channels_last)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// The same through _to_copy (same dtype).
// CHECK-LABEL: func.func @to_copy_channels_last(
// CHECK-NOT: in_place =
// CHECK: return
func.func @to_copy_channels_last(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten._to_copy"(%0) {coreai.args = "(T, dtype=torch.float32, memory_format=torch.channels_last)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// Another layout (sparse) is not an elementwise copy.
// CHECK-LABEL: func.func @to_copy_layout(
// CHECK-NOT: in_place =
// CHECK: return
func.func @to_copy_layout(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten._to_copy"(%0) {coreai.args = "(T, layout=torch.sparse_coo)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// Another device is another memory.
// CHECK-LABEL: func.func @to_copy_device(
// CHECK-NOT: in_place =
// CHECK: return
func.func @to_copy_device(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten._to_copy"(%0) {coreai.args = "(T, device=device(type='mps'))"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// A keyword the planner does not know: no reuse.
// CHECK-LABEL: func.func @to_copy_unknown_keyword(
// CHECK-NOT: in_place =
// CHECK: return
func.func @to_copy_unknown_keyword(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten._to_copy"(%0) {coreai.args = "(T, dtype=torch.float32, future_flag=True)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// Positive control: the exporter's usual _to_copy runs in place.
// CHECK-LABEL: func.func @to_copy_default(
// CHECK: "torch.aten._to_copy"{{.*}}in_place = 0>]
func.func @to_copy_default(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten._to_copy"(%0) {coreai.args = "(T, dtype=torch.float32, layout=torch.strided, device=device(type='cpu'))"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// A copy whose arguments are unknown (no coreai.args) may change the
// layout: no reuse.
// CHECK-LABEL: func.func @clone_no_args(
// CHECK-NOT: in_place =
// CHECK: return
func.func @clone_no_args(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.clone"(%0) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// Arguments the reader cannot split are refused when the file is parsed
// (dialect/placement-errors.mlir).

// copy with an unknown argument: no reuse.
// CHECK-LABEL: func.func @copy_channels_last_keyword(
// CHECK-NOT: in_place =
// CHECK: return
func.func @copy_channels_last_keyword(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.copy"(%0, %0) {coreai.args = "(T, T, memory_format=torch.channels_last)"} : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// An elementwise op with a keyword the planner does not know: no reuse.
// CHECK-LABEL: func.func @add_unknown_keyword(
// CHECK-NOT: in_place =
// CHECK: return
func.func @add_unknown_keyword(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.add"(%0, %0) {coreai.args = "(T, T, out_layout=1)"} : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// An elementwise name with a list argument is not the elementwise
// overload: no reuse.
// CHECK-LABEL: func.func @add_list_argument(
// CHECK-NOT: in_place =
// CHECK: return
func.func @add_list_argument(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.add"(%0) {coreai.args = "(T, [1, 2])"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// Positive control: scalar and string arguments keep an op elementwise.
// CHECK-LABEL: func.func @gelu_tanh(
// CHECK: "torch.aten.gelu"{{.*}}in_place = 0>]
func.func @gelu_tanh(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.gelu"(%0) {coreai.args = "(T, approximate='tanh')"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// A reduction over a size-1 dim keeps the type but is not elementwise
// (a kernel may accumulate in the output): no reuse.
// CHECK-LABEL: func.func @sum_size1_dim(
// CHECK-NOT: in_place =
// CHECK: return
func.func @sum_size1_dim(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.sum"(%0) {coreai.args = "(T, [0], True)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// The same for mean.
// CHECK-LABEL: func.func @mean_size1_dim(
// CHECK-NOT: in_place =
// CHECK: return
func.func @mean_size1_dim(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.mean"(%0) {coreai.args = "(T, [0], True)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// And amax.
// CHECK-LABEL: func.func @amax_size1_dim(
// CHECK-NOT: in_place =
// CHECK: return
func.func @amax_size1_dim(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.amax"(%0) {coreai.args = "(T, [0], True)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// A scan reads elements before i to write i: no reuse.
// CHECK-LABEL: func.func @cumsum(
// CHECK-NOT: in_place =
// CHECK: return
func.func @cumsum(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.cumsum"(%0) {coreai.args = "(T, 1)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// A flip writes element i from element n-1-i: no reuse.
// CHECK-LABEL: func.func @flip(
// CHECK-NOT: in_place =
// CHECK: return
func.func @flip(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.flip"(%0) {coreai.args = "(T, [1])"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// A roll shifts elements: no reuse.
// CHECK-LABEL: func.func @roll(
// CHECK-NOT: in_place =
// CHECK: return
func.func @roll(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.roll"(%0) {coreai.args = "(T, [1], [1])"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// softmax without in-place-softmax: no reuse.
// CHECK-LABEL: func.func @softmax_not_opted_in(
// CHECK-NOT: in_place =
// CHECK: return
func.func @softmax_not_opted_in(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten._softmax"(%0) {coreai.args = "(T, -1, False)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// A square transpose made contiguous keeps the type, but moves elements.
// CHECK-LABEL: func.func @permute_square_copy(
// CHECK-NOT: in_place =
// CHECK: return
func.func @permute_square_copy(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.transpose_copy"(%0) {coreai.args = "(T, 2, 3)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// An op the planner does not know: no reuse.
// CHECK-LABEL: func.func @unknown_op(
// CHECK-NOT: in_place =
// CHECK: return
func.func @unknown_op(%a: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.frobnicate"(%0) {coreai.args = "(T,)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %2 = "test.use"(%1) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}

// Broadcasting: the in-place candidate is the smaller operand (4x1 into
// 4x8); writing the 4x8 result over it would overrun it. The larger operand
// dies too and takes the result.
// CHECK-LABEL: func.func @broadcast_smaller(
// CHECK: "torch.aten.add"{{.*}}in_place = 1>]
func.func @broadcast_smaller(%a: tensor<4x1xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %1 = "torch.aten.neg"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "torch.aten.add"(%0, %1) {coreai.args = "(T, T)"} : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "test.use"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// Only the smaller operand dies: no reuse at all.
// CHECK-LABEL: func.func @broadcast_only_smaller_dies(
// CHECK-NOT: in_place =
// CHECK: return
func.func @broadcast_only_smaller_dies(%a: tensor<4x1xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %1 = "torch.aten.neg"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "torch.aten.mul"(%0, %1) {coreai.args = "(T, T)"} : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "test.use"(%1, %2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>
}

// A gather with an index of the input's shape keeps the type; it reads
// any element to write element i: no reuse.
// CHECK-LABEL: func.func @gather(
// CHECK-NOT: in_place =
// CHECK: return
func.func @gather(%a: tensor<4x8xf32>, %i: tensor<4x8xi64>) -> tensor<4x8xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "torch.aten.gather"(%0, %i) {coreai.args = "(T, 1, T)"} : (tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
  %2 = "test.use"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// A scatter of the source (same type as the result) into a copy of self:
// writing over the source would overwrite source elements not yet read.
// No in-place over either operand (a scatter into self runs in place only
// as a state update: placement.mlir).
// CHECK-LABEL: func.func @scatter(
// CHECK-NOT: in_place =
// CHECK: return
func.func @scatter(%a: tensor<4x8xf32>, %i: tensor<4x8xi64>, %s: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "torch.aten.neg"(%s) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "torch.aten.scatter"(%0, %i, %1) {coreai.args = "(T, 1, T, T)"} : (tensor<4x8xf32>, tensor<4x8xi64>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "test.use"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// A sort: values of the input's type, each from anywhere in its row.
// CHECK-LABEL: func.func @sort(
// CHECK-NOT: in_place =
// CHECK: return
func.func @sort(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi64>) {
  %0 = "torch.aten.neg"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1:2 = "torch.aten.sort"(%0) {coreai.args = "(T, -1, False)"} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi64>)
  %2 = "test.use"(%1#0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2, %1#1 : tensor<4x8xf32>, tensor<4x8xi64>
}

// A layout-changing copy returned is written into its output's storage,
// but its operand is not moved there with it (output placement moves only
// in-place chains): the operand keeps its heap offset.
// CHECK-LABEL: func.func @channels_last_output(
// CHECK: "torch.aten.neg"{{.*}}coreai.placement = [#coreai.heap<offset = 0,
// CHECK-NOT: in_place =
// CHECK: return
func.func @channels_last_output(%a: tensor<1x4x2x2xf32>) -> (tensor<1x4x2x2xf32> {coreai.kind = "output"}) {
  %0 = "torch.aten.neg"(%a) : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %1 = "torch.aten.clone"(%0) {coreai.args = "(T, memory_format=torch.channels_last)"} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %1 : tensor<1x4x2x2xf32>
}

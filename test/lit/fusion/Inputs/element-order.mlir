// Fused kernels written to break the kernel in-place rule (issue 37): a
// layout copy and einsum forms that move or sum elements, and a kernel
// whose two ops read one operand in no order the data fixes. Exported-style
// attributes, as torch.export writes them.
module attributes {coreai.source = "torch.export", coreai.model = "element-order"} {
  // matmul, then a channels_last copy (the exporter made it a copy), then
  // neg: fused {contiguous, neg}; neg's result may not lie on %0.
  func.func @channels_last_contiguous(%x: tensor<1x2x2x4xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4x4xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<1x2x2x4xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.matmul"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "matmul"} : (tensor<1x2x2x4xf32>, tensor<4x4xf32>) -> tensor<1x2x2x4xf32>
    %1 = "torch.aten.contiguous"(%0) {coreai.overload = "default", coreai.args = "(T, memory_format=torch.channels_last)", coreai.alias_of = [-1], coreai.node = "contiguous"} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
    %2 = "torch.aten.neg"(%1) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg"} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
    %3 = "torch.aten.matmul"(%2, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "matmul_1"} : (tensor<1x2x2x4xf32>, tensor<4x4xf32>) -> tensor<1x2x2x4xf32>
    return %3 : tensor<1x2x2x4xf32>
  }
  // to(dtype, memory_format=channels_last), then sigmoid.
  func.func @channels_last_to(%x: tensor<1x2x2x4xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4x4xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<1x2x2x4xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.matmul"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "matmul"} : (tensor<1x2x2x4xf32>, tensor<4x4xf32>) -> tensor<1x2x2x4xf32>
    %1 = "torch.aten.to"(%0) {coreai.overload = "dtype", coreai.args = "(T, torch.float32, memory_format=torch.channels_last)", coreai.alias_of = [-1], coreai.node = "to"} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
    %2 = "torch.aten.sigmoid"(%1) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "sigmoid"} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
    %3 = "torch.aten.matmul"(%2, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "matmul_1"} : (tensor<1x2x2x4xf32>, tensor<4x4xf32>) -> tensor<1x2x2x4xf32>
    return %3 : tensor<1x2x2x4xf32>
  }
  // clone(memory_format=channels_last), then mul by a weight.
  func.func @channels_last_clone(%x: tensor<1x2x2x4xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4x4xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<1x2x2x4xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.matmul"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "matmul"} : (tensor<1x2x2x4xf32>, tensor<4x4xf32>) -> tensor<1x2x2x4xf32>
    %1 = "torch.aten.clone"(%0) {coreai.overload = "default", coreai.args = "(T, memory_format=torch.channels_last)", coreai.node = "clone"} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
    %2 = "torch.aten.mul"(%1, %x) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul"} : (tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
    %3 = "torch.aten.matmul"(%2, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "matmul_1"} : (tensor<1x2x2x4xf32>, tensor<4x4xf32>) -> tensor<1x2x2x4xf32>
    return %3 : tensor<1x2x2x4xf32>
  }
  // A batched product, then relu: never over the product's operands.
  func.func @einsum_product(%x: tensor<4x4x4xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4x4x4xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<4x4x4xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.bmm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "bmm"} : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    %1 = "torch.aten.einsum"(%0, %w) {coreai.overload = "default", coreai.args = "('bij,bjk->bik', [T, T])", coreai.alias_of = [-1], coreai.node = "einsum"} : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    %2 = "torch.aten.relu"(%1) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "relu"} : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    %3 = "torch.aten.bmm"(%2, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "bmm_1"} : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    return %3 : tensor<4x4x4xf32>
  }
  // A transpose with a broadcast term, a copy: never over %0.
  func.func @einsum_transpose(%x: tensor<4x4xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4x4xf32> {coreai.kind = "weight", coreai.name = "w"}, %b: tensor<4xf32> {coreai.kind = "weight", coreai.name = "b"}) -> (tensor<4x4xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = "torch.aten.einsum"(%0, %b) {coreai.overload = "default", coreai.args = "('ij,j->ji', [T, T])", coreai.alias_of = [-1], coreai.node = "einsum"} : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
    %2 = "torch.aten.relu"(%1) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "relu"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = "torch.aten.mm"(%2, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm_1"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %3 : tensor<4x4xf32>
  }
  // 'ij->ji' as the exporter's view (alias_of 0): relu never over %0.
  func.func @einsum_transpose_view(%x: tensor<4x4xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4x4xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<4x4xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = "torch.aten.einsum"(%0) {coreai.overload = "default", coreai.args = "('ij->ji', [T])", coreai.alias_of = [0], coreai.node = "einsum"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = "torch.aten.relu"(%1) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "relu"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = "torch.aten.mm"(%2, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm_1"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %3 : tensor<4x4xf32>
  }
  // An elementwise einsum ('ij,j->ij', a scale): it may take %0's bytes.
  func.func @einsum_scale(%x: tensor<4x4xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4x4xf32> {coreai.kind = "weight", coreai.name = "w"}, %b: tensor<4xf32> {coreai.kind = "weight", coreai.name = "b"}) -> (tensor<4x4xf32> {coreai.kind = "output"}) {
    %0 = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = "torch.aten.einsum"(%0, %b) {coreai.overload = "default", coreai.args = "('ij,j->ij', [T, T])", coreai.alias_of = [-1], coreai.node = "einsum"} : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
    %2 = "torch.aten.mm"(%1, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm_1"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %2 : tensor<4x4xf32>
  }
  // One kernel {neg(m), exp(m)} (marked upstream): run in IR order, exp
  // may take m's bytes; in any order the data allows, exp may run first.
  func.func @two_readers(%x: tensor<4x4xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<4x4xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<4x4xf32> {coreai.kind = "output"}) {
    %m = "torch.aten.mm"(%x, %w) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %n = "torch.aten.neg"(%m) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg", coreai.kernel = 0 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %e = "torch.aten.exp"(%m) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "exp", coreai.kernel = 0 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %s = "torch.aten.mm"(%n, %e) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "mm_1"} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %s : tensor<4x4xf32>
  }
}

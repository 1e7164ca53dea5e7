module {
  func.func @main__s0(%x: tensor<2x8xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<8xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<2x8xf32> {coreai.kind = "output"}, tensor<2x8xf32> {coreai.kind = "output"}) attributes {coreai.entry = "main", coreai.plan = #coreai.plan<heap = 128, lower_bound = 128, alignment = 64, buffers = 2, algorithm = "by hand", optimal = true, kernels = 1, fused_bytes = 64>, coreai.seq_len = 0 : i64} {
    %0 = "torch.aten.mul"(%x, %w) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul", coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    %1 = "torch.aten._to_copy"(%0) {coreai.overload = "default", coreai.args = "(T, dtype=torch.bfloat16)", coreai.node = "_to_copy", coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<2x8xf32>) -> tensor<2x8xbf16>
    %2 = "torch.aten.mul"(%1, %1) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul_1", coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<kernel = 0>]} : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
    %3 = "torch.aten._to_copy"(%2) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy_1", coreai.kernel = 0 : i64, coreai.placement = [#coreai.heap<offset = 64, size = 64>]} : (tensor<2x8xbf16>) -> tensor<2x8xf32>
    %4 = "torch.aten.add"(%3, %0) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add", coreai.kernel = 0 : i64, coreai.placement = [#coreai.output<0>]} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %5 = "torch.aten.neg"(%3) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg", coreai.placement = [#coreai.output<1>]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    return %4, %5 : tensor<2x8xf32>, tensor<2x8xf32>
  }
  func.func @main__unfused(%x: tensor<2x8xf32> {coreai.kind = "input", coreai.name = "x"}, %w: tensor<8xf32> {coreai.kind = "weight", coreai.name = "w"}) -> (tensor<2x8xf32> {coreai.kind = "output"}, tensor<2x8xf32> {coreai.kind = "output"}) attributes {coreai.entry = "main", coreai.plan = #coreai.plan<heap = 192, lower_bound = 192, alignment = 64, buffers = 4, algorithm = "by hand", optimal = true>, coreai.seq_len = 0 : i64} {
    %0 = "torch.aten.mul"(%x, %w) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul", coreai.placement = [#coreai.heap<offset = 0, size = 64>]} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    %1 = "torch.aten._to_copy"(%0) {coreai.overload = "default", coreai.args = "(T, dtype=torch.bfloat16)", coreai.node = "_to_copy", coreai.placement = [#coreai.heap<offset = 64, size = 32>]} : (tensor<2x8xf32>) -> tensor<2x8xbf16>
    %2 = "torch.aten.mul"(%1, %1) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul_1", coreai.placement = [#coreai.heap<offset = 128, size = 32>]} : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16>
    %3 = "torch.aten._to_copy"(%2) {coreai.overload = "default", coreai.args = "(T, dtype=torch.float32)", coreai.node = "_to_copy_1", coreai.placement = [#coreai.heap<offset = 64, size = 64>]} : (tensor<2x8xbf16>) -> tensor<2x8xf32>
    %4 = "torch.aten.add"(%3, %0) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add", coreai.placement = [#coreai.output<0>]} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %5 = "torch.aten.neg"(%3) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "neg", coreai.placement = [#coreai.output<1>]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    return %4, %5 : tensor<2x8xf32>, tensor<2x8xf32>
  }
}

// Originals for dataflow.mlir: the functions as exported.
#id = affine_map<(d0) -> (d0)>
func.func @reordered(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%b) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.sub"(%0, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}
func.func @swapped_operands(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%b) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.sub"(%0, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}
func.func @dropped_op(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.tanh"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}
func.func @identical_ops_swapped(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) {coreai.node = "neg"} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.neg"(%a) {coreai.node = "neg"} : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.exp"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}
func.func @identical_values_exchanged(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.sub"(%0, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2, %0, %1 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
func.func @identical_regions_swapped(%a: tensor<16xf32>, %o: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.exp"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}
func.func @other_regions_swapped(%a: tensor<16xf32>, %o: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = math.exp %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.exp"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}
func.func @identical_unknown_ops(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.foo"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.foo"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.exp"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}
func.func @swapped_results(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}
func.func @random_swapped() -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.randn"() {coreai.node = "first"} : () -> tensor<16xf32>
  %1 = "torch.aten.randn"() {coreai.node = "second"} : () -> tensor<16xf32>
  %2 = "torch.aten.neg"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.neg"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}
func.func @identical_draws() -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.randn"() : () -> tensor<16xf32>
  %1 = "torch.aten.randn"() : () -> tensor<16xf32>
  %2 = "torch.aten.neg"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.tanh"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}
func.func @reader_after_mutation(%s: tensor<16xf32> {coreai.kind = "state", coreai.name = "s"}, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.tanh"(%s) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.add_"(%s, %b) {coreai.alias_of = [0]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}
func.func @dead_op_dropped(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.tanh"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}
func.func @identical_reads_around_a_write(%s: tensor<16xf32> {coreai.kind = "state", coreai.name = "s"}, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %0 = "torch.aten.neg"(%s) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.add_"(%s, %b) {coreai.alias_of = [0]} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = "torch.aten.neg"(%s) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = "torch.aten.tanh"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %4 = "torch.aten.exp"(%2) : (tensor<16xf32>) -> tensor<16xf32>
  return %1, %3, %4, %0, %2 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// Two dynamic entry points whose heaps grow with the sequence length s0
// (in [1, 64]): @main's intermediates are f32 [1, S, 8] and their doubled
// [1, S, 16]; @wide's are eight times larger.
module attributes {coreai.model = "growing", coreai.sym_ranges = "{\"s0\": [\"1\", \"64\"]}"} {
  func.func @main(%w: tensor<16x8xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %ids: tensor<1x?xi64> {coreai.kind = "input", coreai.name = "input_ids", coreai.sym_shape = "1,s0"})
      -> (tensor<1x?x8xf32> {coreai.kind = "output", coreai.sym_shape = "1,s0,8"}) {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,8"]} : (tensor<16x8xf32>, tensor<1x?xi64>) -> tensor<1x?x8xf32>
    %1 = "torch.aten.cat"(%0, %0) {coreai.overload = "default", coreai.args = "([T, T], 2)", coreai.sym_shapes = ["1,s0,16"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x16xf32>
    %2 = "torch.aten.tanh"(%1) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,16"]} : (tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
    %3 = "torch.aten.mul"(%0, %0) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,8"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    %4 = "torch.aten.sum"(%2, %3) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,8"]} : (tensor<1x?x16xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    return %4 : tensor<1x?x8xf32>
  }
  func.func @wide(%w: tensor<16x64xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %ids: tensor<1x?xi64> {coreai.kind = "input", coreai.name = "input_ids", coreai.sym_shape = "1,s0"})
      -> (tensor<1x?x64xf32> {coreai.kind = "output", coreai.sym_shape = "1,s0,64"}) {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,64"]} : (tensor<16x64xf32>, tensor<1x?xi64>) -> tensor<1x?x64xf32>
    %1 = "torch.aten.cat"(%0, %0) {coreai.overload = "default", coreai.args = "([T, T], 2)", coreai.sym_shapes = ["1,s0,128"]} : (tensor<1x?x64xf32>, tensor<1x?x64xf32>) -> tensor<1x?x128xf32>
    %2 = "torch.aten.tanh"(%1) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,128"]} : (tensor<1x?x128xf32>) -> tensor<1x?x128xf32>
    %3 = "torch.aten.mul"(%0, %0) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,64"]} : (tensor<1x?x64xf32>, tensor<1x?x64xf32>) -> tensor<1x?x64xf32>
    %4 = "torch.aten.sum"(%2, %3) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,64"]} : (tensor<1x?x128xf32>, tensor<1x?x64xf32>) -> tensor<1x?x64xf32>
    return %4 : tensor<1x?x64xf32>
  }
}

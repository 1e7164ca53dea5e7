module attributes {coreai.model = "shrinking-bins", coreai.sym_ranges = "{\"s0\": [\"1\", \"64\"]}"} {
  func.func @main(%w1: tensor<32x32xf32> {coreai.kind = "weight", coreai.name = "w1"},
                  %w2: tensor<16x32xf32> {coreai.kind = "weight", coreai.name = "w2"},
                  %w3: tensor<8x32xf32> {coreai.kind = "weight", coreai.name = "w3"},
                  %w4: tensor<4x32xf32> {coreai.kind = "weight", coreai.name = "w4"},
                  %e: tensor<16x32xf32> {coreai.kind = "weight", coreai.name = "e"},
                  %ids: tensor<1x?xi64> {coreai.kind = "input", coreai.name = "input_ids", coreai.sym_shape = "1,s0"})
      -> (tensor<1x?x32xf32> {coreai.kind = "output", coreai.sym_shape = "1,s0,32"}) {
    %a1 = "torch.aten.tanh"(%w1) {coreai.overload = "default"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %b1 = "torch.aten.sum"(%a1) {coreai.overload = "dim_IntList", coreai.args = "(T, [0])"} : (tensor<32x32xf32>) -> tensor<32xf32>
    %a2 = "torch.aten.tanh"(%w2) {coreai.overload = "default"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %b2 = "torch.aten.sum"(%a2) {coreai.overload = "dim_IntList", coreai.args = "(T, [0])"} : (tensor<16x32xf32>) -> tensor<32xf32>
    %a3 = "torch.aten.tanh"(%w3) {coreai.overload = "default"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %b3 = "torch.aten.sum"(%a3) {coreai.overload = "dim_IntList", coreai.args = "(T, [0])"} : (tensor<8x32xf32>) -> tensor<32xf32>
    %a4 = "torch.aten.tanh"(%w4) {coreai.overload = "default"} : (tensor<4x32xf32>) -> tensor<4x32xf32>
    %b4 = "torch.aten.sum"(%a4) {coreai.overload = "dim_IntList", coreai.args = "(T, [0])"} : (tensor<4x32xf32>) -> tensor<32xf32>
    %c = "torch.aten.embedding"(%e, %ids) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,32"]} : (tensor<16x32xf32>, tensor<1x?xi64>) -> tensor<1x?x32xf32>
    %d1 = "torch.aten.mul"(%c, %b1) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,32"]} : (tensor<1x?x32xf32>, tensor<32xf32>) -> tensor<1x?x32xf32>
    %d2 = "torch.aten.mul"(%d1, %b2) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,32"]} : (tensor<1x?x32xf32>, tensor<32xf32>) -> tensor<1x?x32xf32>
    %d3 = "torch.aten.mul"(%d2, %b3) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,32"]} : (tensor<1x?x32xf32>, tensor<32xf32>) -> tensor<1x?x32xf32>
    %d4 = "torch.aten.mul"(%d3, %b4) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,32"]} : (tensor<1x?x32xf32>, tensor<32xf32>) -> tensor<1x?x32xf32>
    return %d4 : tensor<1x?x32xf32>
  }
}

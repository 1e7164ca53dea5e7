module {
  func.func @main(%cache: tensor<8x4xf32> {coreai.kind = "state", coreai.name = "cache"}, %count: tensor<4xf32> {coreai.kind = "state", coreai.name = "count"}, %x: tensor<4xf32> {coreai.kind = "input", coreai.name = "x"}, %cache_position: tensor<2xi64> {coreai.kind = "input", coreai.name = "cache_position"}, %v: tensor<2x4xf32> {coreai.kind = "input", coreai.name = "v"}) -> (tensor<4xf32> {coreai.kind = "output"}, tensor<8x4xf32> {coreai.kind = "output"}) {
    %row = "torch.aten.select"(%cache) {coreai.overload = "int", coreai.args = "(T, 0, 7)", coreai.node = "select", coreai.alias_of = [0]} : (tensor<8x4xf32>) -> tensor<4xf32>
    %y = "torch.aten.tanh"(%x) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "tanh"} : (tensor<4xf32>) -> tensor<4xf32>
    %c = "torch.aten.copy_"(%row, %y) {coreai.overload = "default", coreai.args = "(T, T)", coreai.node = "copy_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %top = "torch.aten.slice"(%cache) {coreai.overload = "Tensor", coreai.args = "(T, 0, 0, 4)", coreai.node = "slice", coreai.alias_of = [0]} : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %p = "torch.aten.index_put_"(%top, %cache_position, %v) {coreai.overload = "default", coreai.args = "(T, [T], T)", coreai.node = "index_put_"} : (tensor<4x4xf32>, tensor<2xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
    %n = "torch.aten.add_"(%count, %y) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "add_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %s = "torch.aten.sum"(%cache) {coreai.overload = "dim_IntList", coreai.args = "(T, [0])", coreai.node = "sum"} : (tensor<8x4xf32>) -> tensor<4xf32>
    %o = "torch.aten.mul"(%s, %count) {coreai.overload = "Tensor", coreai.args = "(T, T)", coreai.node = "mul_1"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %e = "torch.aten.exp"(%cache) {coreai.overload = "default", coreai.args = "(T)", coreai.node = "exp"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %o, %e : tensor<4xf32>, tensor<8x4xf32>
  }
}

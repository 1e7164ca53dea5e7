// RUN: coreai-plan-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(coreai-specialize-shapes{bind=s0=3}))' %s | FileCheck %s

// Every `?` takes the value of its expression: arguments, op results
// (including multi-result ops) and the function's results.
module attributes {coreai.sym_ranges = "{\"s0\": [\"1\", \"8\"]}"} {
  // CHECK-LABEL: func.func @main
  // CHECK-SAME: (%{{.*}}: tensor<1x3xi64> {coreai.sym_shape = "1,s0"}) -> (tensor<2x6xf32> {coreai.sym_shape = "2,2*s0"})
  func.func @main(%ids: tensor<1x?xi64> {coreai.sym_shape = "1,s0"}) -> (tensor<2x?xf32> {coreai.sym_shape = "2,2*s0"}) {
    // CHECK: "t.a"(%{{.*}}) {{.*}} : (tensor<1x3xi64>) -> tensor<3x4xf32>
    %0 = "t.a"(%ids) {coreai.sym_shapes = ["s0,4"]} : (tensor<1x?xi64>) -> tensor<?x4xf32>
    // CHECK: "t.b"{{.*}} -> (tensor<5xf32>, tensor<2x2x4xf32>, tensor<0xf32>)
    %1:3 = "t.b"(%0) {coreai.sym_shapes = ["s0 + 2", "(s0 + 1)//2,2,4", "s0 - 3"]} : (tensor<?x4xf32>) -> (tensor<?xf32>, tensor<?x2x4xf32>, tensor<?xf32>)
    // Static results are checked against their expression too.
    // CHECK: "t.c"{{.*}} -> tensor<2x6xf32>
    %2 = "t.c"(%1#0) {coreai.sym_shapes = ["2,-(-s0*2)"]} : (tensor<?xf32>) -> tensor<2x?xf32>
    // No expression and static: untouched.
    // CHECK: "t.d"{{.*}} -> tensor<7xf32>
    %3 = "t.d"(%2) : (tensor<2x?xf32>) -> tensor<7xf32>
    return %2 : tensor<2x?xf32>
  }
}

// -----

module attributes {coreai.sym_ranges = "{\"s0\": [\"4\", \"8\"]}"} {
  // expected-error @+1 {{s0=3 is outside the range [4, 8] given by coreai.sym_ranges}}
  func.func @out_of_range(%a: tensor<?xf32> {coreai.sym_shape = "s0"}) {
    return
  }
}

// -----

func.func @unbound(%a: tensor<4xf32>) {
  // expected-error @+1 {{cannot bind result #0: in 's1*4': symbol 's1' is not bound}}
  %0 = "t.a"(%a) {coreai.sym_shapes = ["s1*4"]} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @no_expression(%a: tensor<4xf32>) {
  // expected-error @+1 {{result #0 has a dynamic type 'tensor<?xf32>' but no shape expression}}
  %0 = "t.a"(%a) : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @mismatch(%a: tensor<4xf32>) {
  // expected-error @+1 {{cannot bind result #0: dim 0 = 's0+1' is 4 but the type says 5}}
  %0 = "t.a"(%a) {coreai.sym_shapes = ["s0+1"]} : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @rank(%a: tensor<4xf32>) {
  // expected-error @+1 {{cannot bind result #0: shape '1,s0' has 2 dims, the type has 1}}
  %0 = "t.a"(%a) {coreai.sym_shapes = ["1,s0"]} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @syntax(%a: tensor<4xf32>) {
  // expected-error @+1 {{'coreai.sym_shapes' is not a symbolic shape: in 's0 +* 2': unexpected '*'}}
  %0 = "t.a"(%a) {coreai.sym_shapes = ["s0 +* 2"]} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @function(%a: tensor<4xf32>) {
  // expected-error @+1 {{'coreai.sym_shapes' is not a symbolic shape: in 'Max(1, s0)': function 'Max' is not supported}}
  %0 = "t.a"(%a) {coreai.sym_shapes = ["Max(1, s0)"]} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @negative(%a: tensor<4xf32>) {
  // expected-error @+1 {{cannot bind result #0: dim 0 = '2 - s0*2' is negative (-4)}}
  %0 = "t.a"(%a) {coreai.sym_shapes = ["2 - s0*2"]} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

// Expressions come from the graph: arithmetic that overflows 64 bits is an
// error at the op, never a wrapped (or undefined) dim.
func.func @overflow_mul(%a: tensor<4xf32>) {
  // expected-error @+1 {{cannot bind result #0: in 's0*4611686018427387904': the value overflows 64 bits}}
  %0 = "t.a"(%a) {coreai.sym_shapes = ["s0*4611686018427387904"]} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @overflow_add(%a: tensor<4xf32>) {
  // expected-error @+1 {{cannot bind result #0: in '9223372036854775807 + s0': the value overflows 64 bits}}
  %0 = "t.a"(%a) {coreai.sym_shapes = ["9223372036854775807 + s0"]} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @overflow_sub(%a: tensor<4xf32>) {
  // expected-error @+1 {{cannot bind result #0: in '-9223372036854775807 - s0': the value overflows 64 bits}}
  %0 = "t.a"(%a) {coreai.sym_shapes = ["-9223372036854775807 - s0"]} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @floor(%a: tensor<4xf32>) {
  // Python's // rounds toward -inf: (1 - 3*3)//4 = -2, and 7 + -2 = 5.
  // CHECK-LABEL: func.func @floor
  // CHECK: -> tensor<5xf32>
  %0 = "t.a"(%a) {coreai.sym_shapes = ["7 + (1 - s0*3)//4"]} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

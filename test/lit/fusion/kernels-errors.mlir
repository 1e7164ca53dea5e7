// Kernels the input marks are checked before anything is planned.
// RUN: coreai-plan-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --coreai-plan-buffers="fuse-elementwise=true" %s

func.func @not_contiguous(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) {coreai.kernel = 0 : i64} : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "test.other"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{'coreai.kernel' 0: the kernel's ops are not contiguous (its first op is at}}
  %2 = "torch.aten.mul"(%0, %1) {coreai.kernel = 0 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// -----

func.func @effect_in_kernel(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) {coreai.kernel = 0 : i64} : (tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{'coreai.kernel' 0: 'test.effect' has effects (it writes, draws random numbers, checks or is unknown); a kernel never holds an op with effects}}
  %1 = "test.effect"(%0) {coreai.kernel = 0 : i64} : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

func.func @not_an_id(%a: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.kernel' must be a non-negative integer (the kernel's id in its function), got "k0"}}
  %0 = "torch.aten.neg"(%a) {coreai.kernel = "k0"} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @fused_outside_kernel(%a: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'coreai.placement' of result 0: stays inside kernel 3, but the op is not in that kernel ('coreai.kernel' is absent)}}
  %0 = "torch.aten.neg"(%a) {coreai.placement = [#coreai.fused<kernel = 3>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @nested(%a: tensor<16xf32>, %c: i1) -> tensor<16xf32> {
  %0 = scf.if %c -> tensor<16xf32> {
    // expected-error @+1 {{'coreai.kernel' groups ops of a function body; a nested op or a terminator cannot be in a kernel}}
    %1 = "torch.aten.neg"(%a) {coreai.kernel = 0 : i64} : (tensor<16xf32>) -> tensor<16xf32>
    scf.yield %1 : tensor<16xf32>
  } else {
    scf.yield %a : tensor<16xf32>
  }
  return %0 : tensor<16xf32>
}

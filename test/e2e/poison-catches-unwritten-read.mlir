// The poison works: @model reads a buffer nothing wrote (a tensor.empty used
// as an input). In the planned run that buffer is a view of the arena,
// which poison=true filled with 0xFF bytes, so every result is NaN; an
// unplanned run would print whatever malloc returned.
// RUN: coreai-plan-opt %s --coreai-plan-pipeline="poison=true functions=model" -o %t.buf.mlir
// RUN: mlir-opt %t.buf.mlir --pass-pipeline="builtin.module(convert-linalg-to-loops,lower-affine,convert-scf-to-cf,expand-strided-metadata,finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)" -o %t.llvm.mlir
// RUN: mlir-runner %t.llvm.mlir -e main -entry-point-result=void -shared-libs=%llvmlib/libmlir_runner_utils.so,%llvmlib/libmlir_c_runner_utils.so | FileCheck %s
// CHECK: [-nan, -nan, -nan, -nan]
#id = affine_map<(d0) -> (d0)>
module {
  func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
    %never_written = tensor.empty() : tensor<4xf32>
    %init = tensor.empty() : tensor<4xf32>
    %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%x, %never_written : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    return %sum : tensor<4xf32>
  }
  func.func @main() {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %r = func.call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
    func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(tensor<*xf32>)
}

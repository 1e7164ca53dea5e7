// `coreai-plan buffers`: a row per function, the problem as MiniMalloc CSV,
// and the annotated module, identical to the pass's output.
// RUN: coreai-plan buffers %s | FileCheck %s
// RUN: coreai-plan buffers %s --function second --in-place | FileCheck %s --check-prefix=INPLACE
// RUN: rm -rf %t && mkdir -p %t
// RUN: coreai-plan buffers %s --function first --emit-problem %t/first.csv -o %t/annotated.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t/first.csv
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s -o %t/pass.mlir
// RUN: coreai-plan buffers %s -o %t/cli.mlir > /dev/null
// RUN: diff %t/pass.mlir %t/cli.mlir
// RUN: not coreai-plan buffers %s --emit-problem %t/both.csv 2>&1 | FileCheck %s --check-prefix=ONE-FILE
// Bytecode input plans the same.
// RUN: coreai-plan-opt --allow-unregistered-dialect %s --emit-bytecode -o %t/model.mlirbc
// RUN: coreai-plan buffers %t/model.mlirbc | FileCheck %s

// CHECK: function S buffers lower-bound heap heap/LB algorithm optimal in-place-saved ms
// CHECK-NEXT: @first 0 2 192 192 1.0000 best yes -
// CHECK-NEXT: @second 0 2 128 128 1.0000 best yes -
// INPLACE: @second 0 1 64 64 1.0000 best yes 64
// CSV: id,lower,upper,size
// CSV-NEXT: %0,0,3,64
// CSV-NEXT: %1,1,3,128
// ONE-FILE: error: --emit-problem {{.*}}both.csv names one file but 2 functions were planned

func.func @first(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.cat"(%a, %a) : (tensor<16xf32>, tensor<16xf32>) -> tensor<32xf32>
  %2 = "test.use"(%0, %1) : (tensor<16xf32>, tensor<32xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

func.func @second(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "torch.aten.neg"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "torch.aten.sigmoid"(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = "test.use"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

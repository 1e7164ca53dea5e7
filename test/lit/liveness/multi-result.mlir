// Every tensor result of a multi-result op is its own buffer; zero-element
// results take no bytes, are left out of the problem and are annotated with
// offset -1 and size 0.
// RUN: coreai-plan-opt --allow-unregistered-dialect --coreai-plan-buffers %s | FileCheck %s
// RUN: rm -rf %t && coreai-plan buffers %s --emit-problem %t.csv > /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

// At position 1: %0#0, %1#0 and %1#1 are live, 64 + 64 + 128 bytes.
// CHECK-LABEL: func.func @multi_result
// CHECK-SAME: heap = 256{{[,>]}}{{.*}}buffers = 3{{[,>]}}
// CHECK: "torch.aten._native_batch_norm_legit_no_training"
// CHECK-SAME: coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 64>, #coreai.none, #coreai.none]
// CHECK: "test.split"
// CHECK-SAME: coreai.placement = [#coreai.heap<offset = {{[0-9]+}}, size = 64>, #coreai.heap<offset = {{[0-9]+}}, size = 128>]
// CSV: id,lower,upper,size
// CSV-NEXT: %0#0,0,2,64
// CSV-NEXT: %1#0,1,2,64
// CSV-NEXT: %1#1,1,3,128
// CSV-NOT: %
func.func @multi_result(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0:3 = "torch.aten._native_batch_norm_legit_no_training"(%a) : (tensor<16xf32>) -> (tensor<16xf32>, tensor<0xf32>, tensor<0xf32>)
  %1:2 = "test.split"(%0#0) : (tensor<16xf32>) -> (tensor<16xf32>, tensor<32xf32>)
  %2 = "test.use"(%1#1) : (tensor<32xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

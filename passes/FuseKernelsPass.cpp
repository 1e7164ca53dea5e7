//===- FuseKernelsPass.cpp - The coreai-fuse-kernels pass -----------------===//
#include "Kernels.h"

#include "coreai-plan/Passes/Fusion.h"
#include "coreai-plan/Passes/Passes.h"

namespace coreai {
#define GEN_PASS_DEF_COREAIFUSEKERNELS
#include "coreai-plan/Passes/Passes.h.inc"

namespace {
struct FuseKernelsPass : impl::CoreAIFuseKernelsBase<FuseKernelsPass> {
  using CoreAIFuseKernelsBase::CoreAIFuseKernelsBase;

  void runOnOperation() override {
    mlir::func::FuncOp func = getOperation();
    LivenessOptions options;
    options.fuseElementwise = fuseElementwise;
    options.fuseReductions = fuseReductions;
    options.fuseCasts = fuseCasts;
    options.fuseAttention = fuseAttention;
    mlir::FailureOr<KernelSource> source = formKernels(func, options);
    if (mlir::failed(source))
      return signalPassFailure();
    mlir::FailureOr<FunctionKernels> kernels = readKernels(func);
    if (mlir::failed(kernels))
      return signalPassFailure();
    func.emitRemark("@") << func.getSymName() << ": "
                         << kernels->kernels.size()
                         << (kernels->kernels.size() == 1 ? " kernel" : " kernels")
                         << " from "
                         << kernelSourceName(*source);
  }
};
} // namespace
} // namespace coreai

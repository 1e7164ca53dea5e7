//===- PlanBuffers.cpp - The coreai-plan-buffers pass ---------------------===//
//
// Plans every function with a body; all functions are tried so that one
// run reports every problem, and the pass fails if any of them failed.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/Passes.h"
#include "coreai-plan/Passes/PlanFunction.h"

namespace coreai {
#define GEN_PASS_DEF_COREAIPLANBUFFERS
#include "coreai-plan/Passes/Passes.h.inc"

namespace {
struct PlanBuffersPass : impl::CoreAIPlanBuffersBase<PlanBuffersPass> {
  using CoreAIPlanBuffersBase::CoreAIPlanBuffersBase;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    FunctionPlanOptions options;
    options.liveness.alignment = alignment;
    options.liveness.inPlace = inPlace;
    options.liveness.outputsInHeap = outputsInHeap;
    options.liveness.inPlaceSoftmax = inPlaceSoftmax;
    options.liveness.outputPlacement = outputPlacement;
    options.liveness.statePlacement = statePlacement;
    options.liveness.borrowOutputs = borrowOutputs;
    options.reorder = reorder;
    options.solve.algorithm = algorithm;
    options.solve.timeLimitMs = timeLimitMs;
    options.maxHeap = maxHeap;
    if (llvm::Error error = checkPlanOptions(options)) {
      module.emitError(llvm::toString(std::move(error)));
      return signalPassFailure();
    }
    bool failedAny = false, plannedAny = false;
    for (auto func : module.getOps<mlir::func::FuncOp>())
      if (!func.isDeclaration()) {
        plannedAny = true;
        failedAny |= failed(planFunction(func, options));
      }
    if (!plannedAny)
      module.emitError("no function with a body to plan in this module");
    if (failedAny || !plannedAny)
      signalPassFailure();
  }
};
} // namespace
} // namespace coreai

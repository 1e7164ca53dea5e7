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
    std::optional<Algorithm> parsed = parseAlgorithm(algorithm);
    if (!parsed) {
      module.emitError("unknown algorithm '")
          << algorithm
          << "' (" << algorithmList() << ")";
      return signalPassFailure();
    }
    if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
      module.emitError("alignment ") << alignment << " is not a power of two";
      return signalPassFailure();
    }
    if (maxHeap < 0 || timeLimitMs < 0) {
      module.emitError("max-heap and time-limit-ms must not be negative");
      return signalPassFailure();
    }

    FunctionPlanOptions options;
    options.liveness.alignment = alignment;
    options.liveness.inPlace = inPlace;
    options.liveness.outputsInHeap = outputsInHeap;
    options.liveness.inPlaceSoftmax = inPlaceSoftmax;
    options.liveness.outputPlacement = outputPlacement;
    options.liveness.statePlacement = statePlacement;
    options.liveness.borrowOutputs = borrowOutputs;
    options.reorder = reorder;
    options.solve.algorithm = *parsed;
    options.solve.timeLimitMs = timeLimitMs;
    options.maxHeap = maxHeap;
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

//===- PlanBuffers.cpp - The coreai-plan-buffers pass ---------------------===//
//
// Plans every function with a body, as `coreai-plan buffers` does; all are
// tried so that one run reports every problem, and the pass fails if any
// of them failed.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/Passes.h"
#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/Target/Target.h"

namespace coreai {
#define GEN_PASS_DEF_COREAIPLANBUFFERS
#include "coreai-plan/Passes/Passes.h.inc"

namespace {
struct PlanBuffersPass : impl::CoreAIPlanBuffersBase<PlanBuffersPass> {
  using CoreAIPlanBuffersBase::CoreAIPlanBuffersBase;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    FunctionPlanOptions options;
#define COREAI_PLANNING_OPTION(MEMBER, NAME, ...) options.MEMBER = NAME;
#include "coreai-plan/Passes/PlanningOptions.inc"
    if (!target.empty()) {
      llvm::Expected<Target> loaded = loadTargetNamed(target.getValue());
      if (!loaded) {
        module.emitError(llvm::toString(loaded.takeError()));
        return signalPassFailure();
      }
      if (options.liveness.workspace)
        options.liveness.workspaceRules =
            std::make_shared<const WorkspaceRules>(loaded->workspace);
      if (options.recompute)
        options.recomputeRules =
            std::make_shared<const RecomputeRules>(loaded->recompute);
    }
    if (llvm::Error error = checkPlanOptions(options)) {
      module.emitError(llvm::toString(std::move(error)));
      return signalPassFailure();
    }
    std::vector<mlir::func::FuncOp> functions = functionsWithBodies(module);
    if (functions.empty())
      module.emitError("no function with a body to plan in this module");
    bool failedAny = false;
    for (mlir::func::FuncOp func : functions)
      failedAny |= failed(planAtOwnChunk(func, options));
    if (failedAny || functions.empty())
      signalPassFailure();
  }
};
} // namespace
} // namespace coreai

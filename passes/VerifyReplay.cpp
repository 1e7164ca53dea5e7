//===- VerifyReplay.cpp - The coreai-verify-replay pass -------------------===//
//
// For CI on planned graphs (MODEL.planned.mlir from `coreai-plan plan`):
// the replay planFunction runs on every plan, re-run from the IR alone.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/Passes.h"
#include "coreai-plan/Passes/VerifyReplay.h"

namespace coreai {
#define GEN_PASS_DEF_COREAIVERIFYREPLAY
#include "coreai-plan/Passes/Passes.h.inc"

namespace {
struct VerifyReplayPass : impl::CoreAIVerifyReplayBase<VerifyReplayPass> {
  void runOnOperation() override {
    bool failedAny = false, replayedAny = false;
    for (auto func : getOperation().getOps<mlir::func::FuncOp>())
      if (func->hasAttr("coreai.plan")) {
        replayedAny = true;
        failedAny |= failed(verifyReplay(func));
      }
    if (!replayedAny)
      getOperation().emitError(
          "no function with a 'coreai.plan' to replay in this module");
    if (failedAny || !replayedAny)
      signalPassFailure();
  }
};
} // namespace
} // namespace coreai

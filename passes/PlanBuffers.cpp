//===- PlanBuffers.cpp - The coreai-plan-buffers pass ---------------------===//
#include "coreai-plan/Passes/Passes.h"

namespace coreai {
#define GEN_PASS_DEF_COREAIPLANBUFFERS
#include "coreai-plan/Passes/Passes.h.inc"

namespace {
// TODO(liveness): replaced by the real planning pass.
struct PlanBuffersPass : impl::CoreAIPlanBuffersBase<PlanBuffersPass> {
  using CoreAIPlanBuffersBase::CoreAIPlanBuffersBase;
  void runOnOperation() override {
    getOperation().emitError("coreai-plan-buffers is not implemented yet");
    signalPassFailure();
  }
};
} // namespace
} // namespace coreai

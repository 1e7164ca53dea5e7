//===- Passes.h - coreai-plan passes ----------------------------*- C++ -*-===//
#ifndef COREAI_PLAN_PASSES_PASSES_H
#define COREAI_PLAN_PASSES_PASSES_H

#include "coreai-plan/Options.h"
#include "coreai-plan/Solve/Solve.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace coreai {

#define GEN_PASS_DECL
#include "coreai-plan/Passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "coreai-plan/Passes/Passes.h.inc"

/// Registers coreai-plan-pipeline (passes/Pipeline.cpp, docs/ARENA.md).
void registerPlanPipeline();

/// Registers every coreai-plan pass with the global pass registry.
inline void registerPasses() {
  registerCoreAIPlanPasses();
  registerPlanPipeline();
}

} // namespace coreai

#endif // COREAI_PLAN_PASSES_PASSES_H

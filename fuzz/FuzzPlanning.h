//===- FuzzPlanning.h - Planning what a harness parsed ----------*- C++ -*-===//
//
// The graph and archive harnesses share one quiet MLIR context (most
// inputs are refused with diagnostics, which would flood the fuzzer's
// output) and one check of what they parsed: every function that plans
// gets a verified plan at least the lower bound.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_FUZZ_FUZZPLANNING_H
#define COREAI_PLAN_FUZZ_FUZZPLANNING_H

#include "FuzzCheck.h"

#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/Verify.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

namespace coreai::fuzz {

inline mlir::MLIRContext &quietContext() {
  static mlir::MLIRContext *context = [] {
    ContextOptions options;
    options.threading = false;
    options.quietDiagnostics = true;
    options.loadAllDialects = true;
    return makeContext(options).release();
  }();
  return *context;
}

/// Plans every defined function of `module` with a tiny search budget.
inline void checkPlansOf(mlir::ModuleOp module) {
  FunctionPlanOptions options;
  options.solve.timeLimitMs = 5;
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    if (func.isExternal())
      continue;
    auto planned = planFunction(func, options);
    if (mlir::failed(planned))
      continue;
    check(!llvm::errorToBool(verifyPlan(planned->problem, planned->plan)) &&
              planned->plan.heap >= lowerBound(planned->problem),
          "an unsound plan");
  }
}

} // namespace coreai::fuzz

#endif // COREAI_PLAN_FUZZ_FUZZPLANNING_H

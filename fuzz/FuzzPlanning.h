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

#include "coreai-plan/Bundle/Planner.h"
#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Target/Target.h"
#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/OutputBins.h"
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

/// Every reuse technique and every fusion rule on (as h18p plans), so
/// that the fuzzer reaches in-place chains, outputs, states, lent outputs
/// and kernels.
inline FunctionPlanOptions everyReuse() {
  FunctionPlanOptions options;
  options.solve.timeLimitMs = 5;
  LivenessOptions &l = options.liveness;
  l.inPlace = l.inPlaceSoftmax = l.outputPlacement = l.statePlacement = true;
  l.borrowOutputs = true;
  l.fuseElementwise = l.fuseReductions = l.fuseCasts = l.fuseAttention = true;
  options.reorder = true;
  return options;
}

/// h18p as `plan --target h18p` plans with it: its reuse, fusion,
/// workspace rules and kernel variants, recompute rules and limits, so
/// that the fuzzer reaches the kernel decisions (recompute against upstream
/// kernel marks and regions, the variant search, max_buffer_bytes).
inline const FunctionPlanOptions &asH18p() {
  static const FunctionPlanOptions options = [] {
    llvm::Expected<Target> target = loadTarget("h18p", defaultTargetsDir());
    check(static_cast<bool>(target), "h18p's target cannot be loaded");
    SolveOptions solve;
    solve.timeLimitMs = 5;
    return planOptionsFor(*target, ReuseSwitches(), solve);
  }();
  return options;
}

/// Plans every defined function of `module` with a tiny search budget,
/// with no reuse, with every reuse and as h18p plans: a plan the replay
/// rejects (an internal error) is a finding.
inline void checkPlansOf(mlir::ModuleOp module) {
  FunctionPlanOptions plain;
  plain.solve.timeLimitMs = 5;
  for (const FunctionPlanOptions &options : {plain, everyReuse(), asH18p()})
    for (auto func : module.getOps<mlir::func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // Plain first: the kernels every-reuse forms stay on the function.
      PlanFailure why = PlanFailure::BadInput;
      auto planned = planFunction(func, options, &why);
      if (mlir::failed(planned)) {
        check(why != PlanFailure::Internal, "an internal planning error");
        continue;
      }
      // With lent outputs, offsets are within each buffer's region and the
      // heap may be below the plain bound.
      const PlannedEntry &entry = *planned;
      bool lent = !entry.outputBins.empty();
      check(!llvm::errorToBool(
                lent ? verifyBorrowedPlan(entry.problem, entry.outputBins,
                                          entry.binOf, entry.plan)
                     : verifyPlan(entry.problem, entry.plan)) &&
                entry.plan.heap >=
                    (lent ? borrowingLowerBound(entry.problem,
                                                entry.outputBins)
                          : lowerBound(entry.problem)),
            "an unsound plan");
    }
}

} // namespace coreai::fuzz

#endif // COREAI_PLAN_FUZZ_FUZZPLANNING_H

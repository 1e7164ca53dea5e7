//===- ParametricFunction.h - One plan of a function for a range of S ------===//
//
// Private to passes/Bundle: the planner's job for a dynamic function planned
// once for every S in [lo, hi] (coreai-plan/Parametric.h says how).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_BUNDLE_PARAMETRICFUNCTION_H
#define COREAI_PLAN_LIB_BUNDLE_PARAMETRICFUNCTION_H

#include "coreai-plan/Bundle/Planner.h"
#include "coreai-plan/Parametric.h"

#include "mlir/IR/BuiltinOps.h"

namespace coreai {

struct ParametricFunction {
  /// Consecutive pieces covering [lo, hi], highest range first.
  std::vector<ParametricPlan> pieces;
  /// Parallel to pieces: why the range is cut below the piece (which S,
  /// and what made the plan above not good enough there); empty for the
  /// lowest piece.
  std::vector<std::string> cuts;
  /// The symbol bound to S.
  std::string symbol;
  /// The plan instantiated at the job's instances, each verified and
  /// replayed; their functions (`main__s7`) were added to `planned`.
  std::vector<std::pair<PlannedEntry, std::string>> instances;
  /// The op order of some piece differs from the exported one.
  bool reordered = false;
};

/// Plans `job.source` once for every S in [job.lo, job.hi]: the reference
/// plan at hi (every reuse technique of `options`, borrowing of outputs'
/// storage included; its op order and regions for the whole piece), the
/// buffers and lent outputs at every S in that order (they must be the same
/// buffers and outputs, with sizes a polynomial of degree at most two in
/// S), the parametric plan, then at every S the interval verifier and the
/// replay of the instantiated plan. The range is cut below the highest S
/// where a borrowed buffer outgrows its output, or where the heap is more
/// than kPieceTolerancePercent above both the lower bound and a plan
/// solved for that S alone; the part below gets its own plan (referenced
/// at its own top, in the op order best there), at most job.maxPieces pieces
/// (the last one moves to the heap what outgrows its output). Errors are
/// BundleErrors.
constexpr int64_t kPieceTolerancePercent = 2;

llvm::Expected<ParametricFunction>
planParametricFunction(const PlanJob &job, const FunctionPlanOptions &options,
                       mlir::ModuleOp planned, PlanObserver *observer);

} // namespace coreai

#endif // COREAI_PLAN_LIB_BUNDLE_PARAMETRICFUNCTION_H

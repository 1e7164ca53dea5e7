//===- PlanDecisions.h - The decisions of a function's plan -----*- C++ -*-===//
//
// planFunction (PlanFunction.cpp) makes a function's plan as one sequence
// of decisions, in this order. Each is a trial, kept where it plans and its
// heap is no larger; a trial that cannot be made or does not pay falls
// back, silently, so no decision ends a plan in an internal error:
//
//  1. Recompute (decideRecompute). Trial: the function planned on clones
//     with each group of cheap chains computed again in front of its
//     readers (Recompute.h), kept with the fewest groups that give the
//     smallest heap. Not tried where the heap with every chain kept meets
//     `--heap-budget` (least work within the budget). Fallback: every
//     chain kept.
//  2. Kernels (formKernels, Fusion.h): the input's `coreai.kernel` marks,
//     else the target's fusion rules. Marks that break a kernel's rules are
//     bad input, refused at the op (exit 1).
//  3. Reuse (solveWithReuse, decideReuse): in place, outputs, states and
//     lent outputs, against the plan with none of them. Fallback: the plan
//     without reuse, where that is smaller (reuse is allowed, never
//     required) or where the packing with reuse fails.
//  4. Order (decideOrder). Trial: the memory-aware op order (Reorder.h),
//     kept where its heap is smaller. Fallback: the exported order.
//  5. Budget: a heap above `--heap-budget` with the least workspace is
//     refused naming the buffer at the peak (exit 2): no later decision
//     lowers it.
//  6. Variants (decideVariants). Trial: the cheapest kernel variants whose
//     workspace fits beside the plan (Variants.h), within the budget,
//     max-heap and max-buffer; then the plan packed with every cheapest
//     variant, kept where no larger. Fallback: each op's least-workspace
//     variant, which the plan was packed with.
//  7. The plan as a whole (planFunction): a plan on recomputed clones that
//     fails its checks is made again with every chain kept.
//
// Every trial has its share of the function's one time budget.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_PLANDECISIONS_H
#define COREAI_PLAN_PASSES_PLANDECISIONS_H

#include "coreai-plan/OutputBins.h"
#include "coreai-plan/Passes/PlanFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace coreai {

/// A function's buffers in its current op order, packed and verified.
struct Solved {
  FunctionBuffers buffers;
  Plan plan;
  BinAssignment binOf; ///< empty when no output is lent
};

/// One budget for every search of a function's plan: options.solve's
/// timeLimitMs from now, a deadline they share. Most searches end within
/// milliseconds (proven); one that does not takes only its share, so the
/// searches after it still run.
FunctionPlanOptions withFunctionBudget(const FunctionPlanOptions &options);

/// Liveness in the block's current op order, solved and verified; `why`
/// says which failed (bad input: liveness; internal: the solver).
mlir::FailureOr<Solved> solveInCurrentOrder(mlir::func::FuncOp func,
                                            const LivenessOptions &liveness,
                                            const SolveOptions &solve,
                                            PlanFailure &why);

/// The plan with the reuse `options` allow (in place, outputs, states,
/// lent outputs); where that packing fails (an internal error), the plan
/// without reuse, the fallback of decision 3. `why` as
/// solveInCurrentOrder's.
mlir::FailureOr<Solved> solveWithReuse(mlir::func::FuncOp func,
                                       const FunctionPlanOptions &options,
                                       const SolveOptions &solve,
                                       PlanFailure &why);

/// The liveness options with every reuse technique off.
LivenessOptions withoutReuse(const LivenessOptions &liveness);

/// Decision 1. Returns whether chains were cloned into `func`.
bool decideRecompute(mlir::func::FuncOp func,
                     const FunctionPlanOptions &options);

/// Decision 3, on `solved` (the plan with reuse, solved with the share
/// `share` of `budgeted`'s budget): returns the heap without reuse, which
/// the saving is measured against (the heap with reuse where that plan
/// cannot be made: no saving claimed).
int64_t decideReuse(mlir::func::FuncOp func,
                    const FunctionPlanOptions &budgeted, double share,
                    Solved &solved);

/// Decision 4 on `best`: returns whether the order changed.
bool decideOrder(mlir::func::FuncOp func, const FunctionPlanOptions &budgeted,
                 Solved &best);

/// Decision 6 on `solved`: names the variants chosen (coreai.variant) and
/// sizes their workspaces. Fails only where a rule cannot be evaluated at
/// an op (bad input, with an error at the op).
mlir::LogicalResult decideVariants(mlir::func::FuncOp func,
                                   const FunctionPlanOptions &budgeted,
                                   Solved &solved);

/// Whether `options` reuse any bytes (in place, outputs, states, lent
/// outputs): decision 3 has something to decide.
bool reusesBytes(const FunctionPlanOptions &options);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_PLANDECISIONS_H

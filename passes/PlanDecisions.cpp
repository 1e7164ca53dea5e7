//===- PlanDecisions.cpp - The decisions of a function's plan -------------===//
#include "PlanDecisions.h"

#include "PlanLimits.h"
#include "Recompute.h"
#include "Variants.h"

#include "coreai-plan/Borrow.h"
#include "coreai-plan/Passes/Reorder.h"
#include "coreai-plan/Verify.h"

#include "mlir/IR/Diagnostics.h"

#include <limits>

using namespace mlir;

namespace coreai {
namespace {

/// The side solves (the baseline without reuse, an order that may not be
/// kept, the trials) do not report progress: only the plan being made does.
SolveOptions withoutProgress(SolveOptions options) {
  options.onImprovement = nullptr;
  return options;
}

struct SolvedPlan {
  Plan plan;
  BinAssignment binOf; ///< empty when no output is lent
};

FailureOr<SolvedPlan> solveAndVerify(func::FuncOp func,
                                     const FunctionBuffers &buffers,
                                     const SolveOptions &options) {
  const BufferProblem &problem = buffers.problem;
  if (!buffers.bins.empty()) {
    BorrowResult result = solveWithBorrowing(problem, buffers.bins, options);
    if (!result.plan)
      return func.emitError("internal error: no plan for @")
             << func.getSymName() << " with outputs' storage borrowed: "
             << result.internalError;
    return SolvedPlan{std::move(*result.plan), std::move(result.binOf)};
  }
  SolveResult result = solve(problem, options);
  if (!result.plan)
    return func.emitError("internal error: the solver returned no plan for @")
           << func.getSymName()
           << (result.internalError.empty() ? "" : ": ")
           << result.internalError;
  if (llvm::Error violation = verifyPlan(problem, *result.plan))
    return func.emitError("internal error: the plan of @")
           << func.getSymName()
           << " failed verification: " << llvm::toString(std::move(violation));
  return SolvedPlan{std::move(*result.plan), {}};
}

} // namespace

FunctionPlanOptions withFunctionBudget(const FunctionPlanOptions &options) {
  FunctionPlanOptions budgeted = options;
  budgeted.solve = withShareOfBudget(options.solve, 1.0);
  return budgeted;
}

FailureOr<Solved> solveInCurrentOrder(func::FuncOp func,
                                      const LivenessOptions &liveness,
                                      const SolveOptions &solve,
                                      PlanFailure &why) {
  FailureOr<FunctionBuffers> buffers = computeBuffers(func, liveness);
  if (failed(buffers)) {
    why = PlanFailure::BadInput;
    return failure();
  }
  FailureOr<SolvedPlan> plan = solveAndVerify(func, *buffers, solve);
  if (failed(plan)) {
    why = PlanFailure::Internal;
    return failure();
  }
  return Solved{std::move(*buffers), std::move(plan->plan),
                std::move(plan->binOf)};
}

bool reusesBytes(const FunctionPlanOptions &options) {
  return options.liveness.inPlace || options.liveness.inPlaceSoftmax ||
         options.liveness.statePlacement || options.liveness.borrowOutputs;
}

LivenessOptions withoutReuse(const LivenessOptions &liveness) {
  LivenessOptions without = liveness;
  without.inPlace = false;
  without.inPlaceSoftmax = false;
  without.outputPlacement = false;
  without.statePlacement = false;
  without.borrowOutputs = false;
  return without;
}

FailureOr<Solved> solveWithReuse(func::FuncOp func,
                                 const FunctionPlanOptions &options,
                                 const SolveOptions &solve, PlanFailure &why) {
  if (!reusesBytes(options))
    return solveInCurrentOrder(func, options.liveness, solve, why);
  std::vector<Diagnostic> held;
  FailureOr<Solved> solved = mlir::failure();
  {
    ScopedDiagnosticHandler hold(func.getContext(), [&](Diagnostic &diag) {
      held.push_back(std::move(diag));
      return success();
    });
    solved = solveInCurrentOrder(func, options.liveness, solve, why);
  }
  if (failed(solved) && why == PlanFailure::Internal) {
    PlanFailure again = PlanFailure::Internal;
    FailureOr<Solved> plain = solveInCurrentOrder(
        func, withoutReuse(options.liveness), solve, again);
    if (succeeded(plain))
      return plain;
  }
  for (Diagnostic &diag : held)
    func.getContext()->getDiagEngine().emit(std::move(diag));
  return solved;
}

int64_t decideReuse(func::FuncOp func, const FunctionPlanOptions &budgeted,
                    double share, Solved &solved) {
  LivenessOptions without = withoutReuse(budgeted.liveness);
  ScopedDiagnosticHandler silent(func.getContext(),
                                 [](Diagnostic &) { return success(); });
  PlanFailure ignored = PlanFailure::Internal;
  FailureOr<Solved> plain = solveInCurrentOrder(
      func, without, withoutProgress(withShareOfBudget(budgeted.solve, share)),
      ignored);
  if (failed(plain))
    return solved.plan.heap;
  int64_t plainHeap = plain->plan.heap;
  // Reuse is allowed, never required: where the heuristics (or a search
  // cut short) pack the problem with reuse worse than the one without,
  // the plan without is kept, so reuse never costs bytes and the saving
  // stays a size (the graph and archive fuzzers' finding, which a 5 ms
  // budget exposed).
  if (plainHeap < solved.plan.heap)
    solved = std::move(*plain);
  return plainHeap;
}

bool decideOrder(func::FuncOp func, const FunctionPlanOptions &budgeted,
                 Solved &best) {
  if (!budgeted.reorder)
    return false;
  std::vector<Operation *> exported = currentOrder(func);
  std::vector<Operation *> order = memoryAwareOrder(func, best.buffers);
  if (order == exported)
    return false;
  applyOrder(func, order);
  // A trial that cannot be planned is an order not kept, silently.
  ScopedDiagnosticHandler silent(func.getContext(),
                                 [](Diagnostic &) { return success(); });
  FailureOr<FunctionBuffers> buffers = computeBuffers(func, budgeted.liveness);
  // No packing of the new order beats its lower bound: search only when
  // that is below the heap already found (the search may take its cap).
  if (succeeded(buffers) &&
      borrowingLowerBound(buffers->problem, buffers->bins) < best.plan.heap) {
    FailureOr<SolvedPlan> plan =
        solveAndVerify(func, *buffers, withoutProgress(budgeted.solve));
    if (succeeded(plan) && plan->plan.heap < best.plan.heap) {
      best = Solved{std::move(*buffers), std::move(plan->plan),
                    std::move(plan->binOf)};
      return true;
    }
  }
  applyOrder(func, exported);
  return false;
}

/// Groups of chains tried one by one past this many: all or none.
constexpr unsigned maxRecomputeGroupTrials = 8;

/// Cheap chains computed again at each reader (Recompute.h) where that
/// lowers the heap, with the least extra work that gives that heap: the
/// function is planned on clones (kernels, liveness, packing, reorder)
/// keeping every value, with every group of chains recomputed, then with
/// each group left out in turn, dropped for good where the heap is no
/// larger without it (a RoPE table cloned in front of every layer may cost
/// more at the attention than it saves at the MLP, where a mask saves).
/// The groups left are cloned in `func` when their heap is below the kept
/// one, and not at all where the heap with every chain kept is within
/// `--heap-budget`. A trial that cannot be planned is a choice not taken, silently:
/// the fallback is to keep the chains (and where even the function as it
/// is cannot be planned, planning it reports why).
bool decideRecompute(func::FuncOp func, const FunctionPlanOptions &options) {
  if (!options.recomputeRules || !options.recomputeRules->enabled())
    return false;
  const RecomputeRules &rules = *options.recomputeRules;
  unsigned groups = recomputeGroups(func, rules);
  if (groups == 0)
    return false;
  // Each trial takes a quarter of the function's budget, on its own
  // deadline: the plan itself still gets the whole of it.
  FunctionPlanOptions quiet = options;
  quiet.solve = withoutProgress(options.solve);
  quiet.solve.deadline.reset();
  quiet.solve.timeLimitMs = options.solve.timeLimitMs / 4;
  constexpr int64_t unplannable = std::numeric_limits<int64_t>::max();
  auto heapWith = [&](const llvm::SmallBitVector &taken) -> int64_t {
    OwningOpRef<func::FuncOp> trial = func.clone();
    ScopedDiagnosticHandler silent(func.getContext(),
                                   [](Diagnostic &) { return success(); });
    if (taken.any())
      recomputeChains(*trial, rules, &taken);
    FailureOr<int64_t> heap = planHeap(*trial, quiet);
    return mlir::succeeded(heap) ? *heap : unplannable;
  };
  int64_t keptHeap = heapWith(llvm::SmallBitVector(groups, false));
  // Within a heap budget the chains fit kept: recomputing them would
  // only add work (the least work within the budget).
  if (keptHeap == unplannable ||
      (options.solve.heapBudget > 0 && keptHeap <= options.solve.heapBudget))
    return false;
  llvm::SmallBitVector taken(groups, true);
  int64_t heap = heapWith(taken);
  for (unsigned group = 0; group < groups && groups > 1 &&
                           groups <= maxRecomputeGroupTrials;
       ++group) {
    llvm::SmallBitVector without = taken;
    without.reset(group);
    if (without.none())
      break; // the last group left: kept or not as a whole, below
    int64_t trial = heapWith(without);
    if (trial != unplannable && trial <= heap) {
      taken = std::move(without);
      heap = trial;
    }
  }
  if (heap >= keptHeap)
    return false;
  recomputeChains(func, rules, &taken);
  return true;
}

namespace {

/// The kernel variants (Variants.h): the cheapest whose workspace fits
/// beside the least-workspace plan. Where that downgrades some op, the
/// function is planned again with every op's cheapest variant and that
/// plan kept when its heap is no larger: packed with the partials in view,
/// the heap may leave the room the least-workspace plan's gaps do not.
FailureOr<std::vector<PlannedEntry::VariantChoice>>
pickVariants(func::FuncOp func, const FunctionPlanOptions &options,
             Solved &solved) {
  const WorkspaceRules &rules = *options.liveness.workspaceRules;
  // The heap the faster kernels may use: a budget's, never above the
  // target's max-heap, never below the least-workspace plan's.
  int64_t limit = options.solve.heapBudget;
  if (options.maxHeap > 0)
    limit = std::min(limit, options.maxHeap);
  limit = std::max(limit, solved.plan.heap);
  Solved trial = solved;
  FailureOr<std::vector<PlannedEntry::VariantChoice>> chosen =
      chooseVariants(func, trial.buffers, trial.plan, trial.binOf,
                     options.liveness, limit, options.maxBuffer);
  if (failed(chosen))
    return failure();
  if (llvm::none_of(*chosen, [](const PlannedEntry::VariantChoice &choice) {
        return choice.downgraded();
      })) {
    solved = std::move(trial);
    return chosen;
  }
  PlanFailure why = PlanFailure::Internal;
  if (failed(nameCheapestVariants(func, rules, /*cheapest=*/true)))
    return failure();
  FailureOr<Solved> cheapest =
      solveInCurrentOrder(func, options.liveness, withoutProgress(options.solve), why);
  // Kept within the heap limit and with no workspace above the largest
  // buffer (the choice below only ever lowers a step's workspace there).
  auto withinLimits = [&](const Solved &plan) {
    if (plan.plan.heap > limit)
      return false;
    return options.maxBuffer <= 0 ||
           llvm::all_of(plan.buffers.workspaces,
                        [&](const FunctionBuffers::Workspace &workspace) {
                          return plan.buffers.problem.buffers[workspace.buffer]
                                     .size <= options.maxBuffer;
                        });
  };
  if (succeeded(cheapest) && withinLimits(*cheapest))
    solved = std::move(*cheapest);
  else if (failed(nameCheapestVariants(func, rules, /*cheapest=*/false)))
    return failure();
  return chooseVariants(func, solved.buffers, solved.plan, solved.binOf,
                        options.liveness, limit, options.maxBuffer);
}

} // namespace

LogicalResult decideVariants(func::FuncOp func,
                             const FunctionPlanOptions &budgeted,
                             Solved &solved) {
  if (!budgeted.chooseVariants || !budgeted.liveness.workspace ||
      !budgeted.liveness.workspaceRules)
    return success();
  Solved leastWorkspace = solved;
  FailureOr<std::vector<PlannedEntry::VariantChoice>> chosen =
      pickVariants(func, budgeted, solved);
  if (failed(chosen))
    return failure(); // a rule that cannot be evaluated, at its op
  ScopedDiagnosticHandler silent(func.getContext(),
                                 [](Diagnostic &) { return success(); });
  if (succeeded(verifyChosen(func, solved.buffers, solved.plan,
                             solved.binOf)))
    return success();
  // The fallback: the plan as packed, every op its least-workspace variant.
  solved = std::move(leastWorkspace);
  return nameCheapestVariants(func, *budgeted.liveness.workspaceRules,
                              /*cheapest=*/false);
}

} // namespace coreai

//===- PlanFunction.cpp - Solve, verify and annotate one function ---------===//
#include "coreai-plan/Passes/PlanFunction.h"

#include "Kernels.h"
#include "OpClasses.h"
#include "PlanLimits.h"
#include "PlanRecords.h"
#include "Recompute.h"
#include "ResultDtypes.h"
#include "Printing.h"
#include "Variants.h"

#include "coreai-plan/Dialect/CoreAI.h"
#include "coreai-plan/Exporter/ChunkSize.h"
#include "coreai-plan/Passes/Fusion.h"
#include "coreai-plan/Passes/Reorder.h"
#include "coreai-plan/Passes/VerifyReplay.h"
#include "coreai-plan/Borrow.h"
#include "coreai-plan/Verify.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace coreai {
namespace {

/// The placement of a result that owns no heap bytes of its own until the
/// plan says otherwise: a view, an argument, an output, a constant or a
/// zero-element tensor.
Placement unplaced() { return Placement{}; }

/// The operand of `op` through which it read the buffer it wrote over: the
/// one operand in buffer `b` (liveness refuses reuse when there are more).
std::optional<int64_t> inPlaceOperand(Operation *op,
                                      const FunctionBuffers &buffers,
                                      size_t b) {
  for (OpOperand &operand : op->getOpOperands())
    if (llvm::is_contained(buffers.values[b], operand.get()))
      return operand.getOperandNumber();
  return std::nullopt;
}

void clearAnnotations(func::FuncOp func) {
  func->removeAttr(attr::plan);
  func.walk([](Operation *op) {
    op->removeAttr(attr::placement);
    op->removeAttr(attr::workspace);
    op->removeAttr(attr::variant);
    op->removeAttr(attr::resultDtypes);
  });
}

/// One `coreai.placement` (an entry per result) on every op with a result
/// the plan places: in the heap (`#coreai.heap`, with the operand it was
/// written over when in place), in an output's storage lent as scratch
/// (`#coreai.lent`), built in an output (`#coreai.output`) or written into
/// a state argument (`#coreai.state`); the op's other results are
/// `#coreai.none`.
PlannedPlacements placementsOf(const FunctionBuffers &buffers,
                               const Plan &plan, const BinAssignment &binOf) {
  PlannedPlacements placed;
  placed.heap = plan.heap;
  auto placementOf = [&](OpResult result) -> Placement & {
    Operation *op = result.getOwner();
    auto [it, inserted] = placed.results.try_emplace(op);
    if (inserted)
      it->second.assign(op->getNumResults(), unplaced());
    return it->second[result.getResultNumber()];
  };
  for (size_t b = 0; b < buffers.values.size(); ++b) {
    for (unsigned owner = 0; owner < buffers.owners[b]; ++owner) {
      auto result = cast<OpResult>(buffers.values[b][owner]);
      Placement &placement = placementOf(result);
      placement.kind = Placement::Kind::Heap;
      placement.offset = plan.offsets[b];
      placement.size = buffers.problem.buffers[b].size;
      if (!binOf.empty() && binOf[b] >= 0) {
        placement.kind = Placement::Kind::Lent;
        placement.output = buffers.bins[binOf[b]].output;
      }
      if (owner > 0)
        placement.inPlaceOperand =
            inPlaceOperand(result.getOwner(), buffers, b);
    }
  }
  for (const FunctionBuffers::External &external : buffers.external) {
    auto result = dyn_cast<OpResult>(external.value);
    if (!result)
      continue;
    Placement &placement = placementOf(result);
    placement.kind =
        external.inState ? Placement::Kind::State : Placement::Kind::Output;
    (external.inState ? placement.argument : placement.output) =
        external.index;
  }
  for (const FunctionBuffers::Fused &fused : buffers.fused) {
    auto result = dyn_cast<OpResult>(fused.value);
    if (!result)
      continue;
    Placement &placement = placementOf(result);
    placement.kind = Placement::Kind::Fused;
    placement.kernel = fused.kernel;
  }
  // A workspace is placed like a value, on the op whose step uses it.
  for (const FunctionBuffers::Workspace &workspace : buffers.workspaces) {
    Placement placement;
    placement.kind = Placement::Kind::Heap;
    placement.offset = plan.offsets[workspace.buffer];
    placement.size = buffers.problem.buffers[workspace.buffer].size;
    if (!binOf.empty() && binOf[workspace.buffer] >= 0) {
      placement.kind = Placement::Kind::Lent;
      placement.output = buffers.bins[binOf[workspace.buffer]].output;
    }
    placed.workspaces[workspace.op] = placement;
  }
  return placed;
}

/// The placements as the ops' coreai.placement and coreai.workspace, and
/// the dtypes the target's kernels write where the graph says another
/// (coreai.result_dtypes).
void annotateOps(func::FuncOp func, const FunctionBuffers &buffers,
                 const Plan &plan, const BinAssignment &binOf,
                 const LivenessOptions &options) {
  annotateResultDtypes(func, options.resultDtypeRules.get());
  PlannedPlacements placed = placementsOf(buffers, plan, binOf);
  for (auto &[op, workspace] : placed.workspaces)
    op->setAttr(attr::workspace, placementAttr(op->getContext(), workspace));
  for (auto &[op, placements] : placed.results) {
    llvm::SmallVector<Attribute, 1> attrs;
    for (const Placement &placement : placements)
      attrs.push_back(placementAttr(op->getContext(), placement));
    op->setAttr(attr::placement, ArrayAttr::get(op->getContext(), attrs));
  }
}

void annotateFunction(func::FuncOp func, const PlannedEntry &entry,
                      bool inPlace, std::optional<bool> reordered,
                      bool kernelsInIrOrder) {
  MLIRContext *context = func.getContext();
  std::optional<int64_t> borrowed;
  if (!entry.outputBins.empty()) {
    borrowed = 0;
    for (size_t b = 0; b < entry.binOf.size(); ++b)
      if (entry.binOf[b] >= 0)
        *borrowed += entry.problem.buffers[b].size;
  }
  BoolAttr reorderedAttr =
      reordered ? BoolAttr::get(context, *reordered) : BoolAttr();
  func->setAttr(attr::plan,
                PlanAttr::get(context, entry.plan.heap, entry.plan.lowerBound,
                              entry.alignment, entry.problem.buffers.size(),
                              entry.plan.algorithm,
                              BoolAttr::get(context, entry.plan.optimal),
                              inPlace ? std::optional<int64_t>(
                                            entry.inPlaceSavedBytes)
                                      : std::nullopt,
                              borrowed, reorderedAttr,
                              entry.kernels.empty()
                                  ? std::nullopt
                                  : std::optional<int64_t>(
                                        entry.kernels.size()),
                              entry.kernels.empty()
                                  ? std::nullopt
                                  : std::optional<int64_t>(
                                        entry.fusedBytes()),
                              entry.workspaces.empty()
                                  ? std::nullopt
                                  : std::optional<int64_t>(
                                        entry.workspaceBytes()),
                              kernelsInIrOrder && !entry.kernels.empty()
                                  ? BoolAttr::get(context, true)
                                  : BoolAttr()));
}

/// What the replay of a plan made with `options` checks beyond the IR:
/// the target's alignment, its workspace rules (when workspace is
/// planned) and the order its kernels run their ops in.
ReplayOptions replayOptionsFor(const FunctionPlanOptions &options) {
  ReplayOptions replay;
  replay.alignment = options.liveness.alignment;
  if (options.liveness.workspace)
    replay.workspaceRules = options.liveness.workspaceRules.get();
  replay.kernelsInIrOrder = options.liveness.kernelsInIrOrder;
  replay.resultDtypeRules = options.liveness.resultDtypeRules.get();
  return replay;
}

std::vector<int64_t> workspaceIndices(const FunctionBuffers &buffers) {
  std::vector<int64_t> indices;
  for (const FunctionBuffers::Workspace &workspace : buffers.workspaces)
    indices.push_back(workspace.buffer);
  llvm::sort(indices);
  return indices;
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


/// The side solves (the baseline without reuse, an order that may not be
/// kept) do not report progress: only the plan being made does.
SolveOptions quietly(SolveOptions options) {
  options.onImprovement = nullptr;
  return options;
}

/// One budget for every search of a function's plan: options.solve's
/// timeLimitMs from now, a deadline they share. Most searches end within
/// milliseconds (proven); one that does not takes only its share, so the
/// searches after it still run.
FunctionPlanOptions withFunctionBudget(const FunctionPlanOptions &options) {
  FunctionPlanOptions budgeted = options;
  budgeted.solve = withShareOfBudget(options.solve, 1.0);
  return budgeted;
}

struct Solved {
  FunctionBuffers buffers;
  Plan plan;
  BinAssignment binOf;
};

/// Liveness in the block's current op order, solved and verified.
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

/// Tries the memory-aware op order and keeps it when its heap is smaller;
/// otherwise puts the ops back. Returns whether the order changed.
FailureOr<bool> tryReorder(func::FuncOp func,
                           const FunctionPlanOptions &options, Solved &best,
                           PlanFailure &why) {
  std::vector<Operation *> exported = currentOrder(func);
  std::vector<Operation *> order = memoryAwareOrder(func, best.buffers);
  if (order == exported)
    return false;
  applyOrder(func, order);
  FailureOr<FunctionBuffers> buffers = computeBuffers(func, options.liveness);
  if (failed(buffers)) {
    why = PlanFailure::Internal; // the same ops planned a moment ago
    return failure();
  }
  // No packing of the new order beats its lower bound: search only when
  // that is below the heap already found (the search may take its cap).
  if (borrowingLowerBound(buffers->problem, buffers->bins) < best.plan.heap) {
    FailureOr<SolvedPlan> plan =
        solveAndVerify(func, *buffers, quietly(options.solve));
    if (failed(plan)) {
      why = PlanFailure::Internal;
      return failure();
    }
    if (plan->plan.heap < best.plan.heap) {
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
/// one.
LogicalResult recomputeWhereSmaller(func::FuncOp func,
                                    const FunctionPlanOptions &options) {
  if (!options.recomputeRules || !options.recomputeRules->enabled())
    return success();
  const RecomputeRules &rules = *options.recomputeRules;
  unsigned groups = recomputeGroups(func, rules);
  if (groups == 0)
    return success();
  // Each trial takes a quarter of the function's budget, on its own
  // deadline: the plan itself still gets the whole of it.
  FunctionPlanOptions quiet = options;
  quiet.solve = quietly(options.solve);
  quiet.solve.deadline.reset();
  quiet.solve.timeLimitMs = options.solve.timeLimitMs / 4;
  auto heapWith = [&](const llvm::SmallBitVector &taken) -> FailureOr<int64_t> {
    OwningOpRef<func::FuncOp> trial = func.clone();
    if (taken.any())
      recomputeChains(*trial, rules, &taken);
    return planHeap(*trial, quiet);
  };
  FailureOr<int64_t> keptHeap = heapWith(llvm::SmallBitVector(groups, false));
  llvm::SmallBitVector taken(groups, true);
  FailureOr<int64_t> heap = heapWith(taken);
  if (mlir::failed(keptHeap) || mlir::failed(heap))
    return failure();
  for (unsigned group = 0; group < groups && groups > 1 &&
                           groups <= maxRecomputeGroupTrials;
       ++group) {
    llvm::SmallBitVector without = taken;
    without.reset(group);
    if (without.none())
      break; // the last group left: kept or not as a whole, below
    FailureOr<int64_t> trial = heapWith(without);
    if (mlir::failed(trial))
      return failure();
    if (*trial <= *heap) {
      taken = std::move(without);
      heap = trial;
    }
  }
  if (*heap < *keptHeap)
    recomputeChains(func, rules, &taken);
  return success();
}

/// The kernel variants (Variants.h): the cheapest whose workspace fits
/// beside the least-workspace plan. Where that downgrades some op, the
/// function is planned again with every op's cheapest variant and that
/// plan kept when its heap is no larger: packed with the partials in view,
/// the heap may leave the room the least-workspace plan's gaps do not.
FailureOr<std::vector<PlannedEntry::VariantChoice>>
pickVariants(func::FuncOp func, const FunctionPlanOptions &options,
             Solved &solved) {
  if (!options.chooseVariants || !options.liveness.workspace ||
      !options.liveness.workspaceRules)
    return std::vector<PlannedEntry::VariantChoice>();
  const WorkspaceRules &rules = *options.liveness.workspaceRules;
  int64_t limit = std::max(options.solve.heapBudget, solved.plan.heap);
  Solved trial = solved;
  FailureOr<std::vector<PlannedEntry::VariantChoice>> chosen =
      chooseVariants(func, trial.buffers, trial.plan, trial.binOf,
                     options.liveness, limit);
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
      solveInCurrentOrder(func, options.liveness, quietly(options.solve), why);
  if (succeeded(cheapest) && cheapest->plan.heap <= limit)
    solved = std::move(*cheapest);
  else if (failed(nameCheapestVariants(func, rules, /*cheapest=*/false)))
    return failure();
  return chooseVariants(func, solved.buffers, solved.plan, solved.binOf,
                        options.liveness, limit);
}

} // namespace

llvm::Error checkPlanOptions(const FunctionPlanOptions &options) {
  return llvm::joinErrors(
      checkAlignment(options.liveness.alignment),
      llvm::joinErrors(
          checkNotNegative("time-limit-ms", options.solve.timeLimitMs),
          llvm::joinErrors(checkNotNegative("max-heap", options.maxHeap),
                           checkNotNegative("max-buffer",
                                            options.maxBuffer))));
}

FailureOr<PlannedEntry> planFunction(func::FuncOp func,
                                     const FunctionPlanOptions &options,
                                     PlanFailure *why) {
  PlanFailure failure = PlanFailure::Internal;
  auto fail = [&](PlanFailure kind) {
    if (why)
      *why = kind;
    return mlir::failure();
  };
  clearAnnotations(func);
  // What the function computes before planning touches it: the replay
  // checks the planned function still computes that.
  OwningOpRef<func::FuncOp> original = func.clone();
  if (mlir::failed(recomputeWhereSmaller(func, options)))
    return fail(PlanFailure::Internal);
  FailureOr<KernelSource> kernelSource = formKernels(func, options.liveness);
  if (mlir::failed(kernelSource))
    return fail(PlanFailure::BadInput);
  // Savings are measured, not estimated: against the plan in the exported
  // order with every reuse technique off.
  bool reuse = options.liveness.inPlace || options.liveness.inPlaceSoftmax ||
               options.liveness.statePlacement ||
               options.liveness.borrowOutputs;
  // The plan in the exported order takes half the budget when a search
  // follows, the plan without reuse a third of what is left before the
  // reordered plan, which takes the rest.
  FunctionPlanOptions budgeted = withFunctionBudget(options);
  FailureOr<Solved> solved = solveInCurrentOrder(
      func, options.liveness,
      withShareOfBudget(budgeted.solve, reuse || options.reorder ? 0.5 : 1.0),
      failure);
  if (mlir::failed(solved))
    return fail(failure);

  int64_t plainHeap = solved->plan.heap;
  if (reuse) {
    LivenessOptions without = options.liveness;
    without.inPlace = false;
    without.inPlaceSoftmax = false;
    without.outputPlacement = false;
    without.statePlacement = false;
    without.borrowOutputs = false;
    FailureOr<Solved> plain = solveInCurrentOrder(
        func, without,
        quietly(withShareOfBudget(budgeted.solve,
                                  options.reorder ? 1.0 / 3 : 1.0)),
        failure);
    if (mlir::failed(plain))
      return fail(PlanFailure::Internal);
    plainHeap = plain->plan.heap;
    // Reuse is allowed, never required: where the heuristics (or a search
    // cut short) pack the problem with reuse worse than the one without,
    // the plan without is kept, so reuse never costs bytes and the saving
    // stays a size (the graph and archive fuzzers' finding, which a 5 ms
    // budget exposed).
    if (plainHeap < solved->plan.heap)
      solved = std::move(plain);
  }
  bool reordered = false;
  if (options.reorder) {
    FailureOr<bool> changed = tryReorder(func, budgeted, *solved, failure);
    if (mlir::failed(changed))
      return fail(PlanFailure::Internal);
    reordered = *changed;
  }

  if (options.solve.heapBudget > 0 && solved->plan.heap > options.solve.heapBudget) {
    // No variant choice can help: the plan has the least workspace.
    PlannedEntry over;
    over.chunk = options.chunk;
    over.problem = solved->buffers.problem;
    over.origins = solved->buffers.origins;
    over.plan = solved->plan;
    over.outputBins = solved->buffers.bins;
    over.binOf = solved->binOf;
    over.workspaces = workspaceIndices(solved->buffers);
    reportOverBudget(func, over, options.solve.heapBudget);
    return fail(PlanFailure::OverLimit);
  }
  // Reuse saved against the least-workspace plan: a budget may let the
  // variants grow the heap for faster kernels afterwards.
  int64_t reusedHeap = solved->plan.heap;
  FailureOr<std::vector<PlannedEntry::VariantChoice>> variants =
      pickVariants(func, budgeted, *solved);
  if (mlir::failed(variants) ||
      mlir::failed(verifyChosen(func, solved->buffers, solved->plan,
                                solved->binOf)))
    return fail(PlanFailure::Internal);
  annotateOps(func, solved->buffers, solved->plan, solved->binOf,
              options.liveness);
  PlannedEntry entry;
  entry.entry = func.getSymName().str();
  entry.chunk = options.chunk;
  entry.alignment = options.liveness.alignment;
  entry.variants = std::move(*variants);
  entry.recomputed = recomputedIn(func);
  entry.inPlaceSavedBytes = reuse ? plainHeap - reusedHeap : 0;
  entry.problem = std::move(solved->buffers.problem);
  entry.origins = std::move(solved->buffers.origins);
  entry.plan = std::move(solved->plan);
  entry.outputBins = solved->buffers.bins;
  entry.binOf = std::move(solved->binOf);
  entry.placed = placedValues(func, solved->buffers);
  entry.kernels = kernelRecords(func, solved->buffers);
  entry.workspaces = workspaceIndices(solved->buffers);
  entry.kernelDtypes =
      kernelDtypeRecords(func, options.liveness.resultDtypeRules.get());
  if (*kernelSource != KernelSource::None)
    entry.kernelSource = kernelSourceName(*kernelSource).str();
  annotateFunction(func, entry, reuse,
                   options.reorder ? std::optional<bool>(reordered)
                                   : std::nullopt,
                   options.liveness.kernelsInIrOrder);
  // The interval verifier trusted the live ranges; the replay checks them
  // (and every reuse decision) from the annotations alone.
  ReplayOptions replayOptions = replayOptionsFor(options);
  replayOptions.original = *original;
  if (mlir::failed(verifyReplay(func, replayOptions))) {
    func.emitError("internal error: the plan of @")
        << func.getSymName() << " is unsound (replay above)";
    return fail(PlanFailure::Internal);
  }

  if (mlir::failed(checkLimits(func, entry, options)))
    return fail(PlanFailure::OverLimit);
  return entry;
}

FailureOr<int64_t> planHeap(func::FuncOp func,
                            const FunctionPlanOptions &options,
                            PlanFailure *why) {
  // planFunction's kernels, solve and reorder, nothing else.
  PlanFailure failure = PlanFailure::Internal;
  if (mlir::failed(formKernels(func, options.liveness,
                               /*reportConflicts=*/false))) {
    if (why)
      *why = PlanFailure::BadInput;
    return mlir::failure();
  }
  FunctionPlanOptions budgeted = withFunctionBudget(options);
  FailureOr<Solved> solved = solveInCurrentOrder(
      func, options.liveness,
      withShareOfBudget(budgeted.solve, options.reorder ? 0.5 : 1.0), failure);
  if (mlir::succeeded(solved) && options.reorder &&
      mlir::failed(tryReorder(func, budgeted, *solved, failure)))
    solved = mlir::failure();
  if (mlir::failed(solved)) {
    if (why)
      *why = failure;
    return mlir::failure();
  }
  return solved->plan.heap;
}

FailureOr<PlannedEntry> applyPlan(func::FuncOp func, func::FuncOp original,
                                  FunctionBuffers buffers, Plan plan,
                                  BinAssignment binOf,
                                  const FunctionPlanOptions &options) {
  clearAnnotations(func);
  if (!binOf.empty() && binOf.size() != buffers.problem.buffers.size())
    return func.emitError("internal error: a region for each of @")
           << func.getSymName() << "'s buffers is needed";
  annotateOps(func, buffers, plan, binOf, options.liveness);
  PlannedEntry entry;
  entry.entry = func.getSymName().str();
  entry.chunk = options.chunk;
  entry.alignment = options.liveness.alignment;
  entry.placed = placedValues(func, buffers);
  entry.kernels = kernelRecords(func, buffers);
  entry.workspaces = workspaceIndices(buffers);
  entry.kernelDtypes =
      kernelDtypeRecords(func, options.liveness.resultDtypeRules.get());
  if (!entry.kernels.empty()) // formed on this clone by the same rules
    entry.kernelSource =
        kernelSourceName(fusesAnything(options.liveness) ? KernelSource::Target
                                                         : KernelSource::Input)
            .str();
  entry.outputBins = buffers.bins;
  entry.binOf = std::move(binOf);
  entry.problem = std::move(buffers.problem);
  entry.origins = std::move(buffers.origins);
  entry.plan = std::move(plan);
  annotateFunction(func, entry, /*inPlace=*/false, std::nullopt,
                   options.liveness.kernelsInIrOrder);
  ReplayOptions replayOptions = replayOptionsFor(options);
  replayOptions.original = original;
  if (mlir::failed(verifyReplay(func, replayOptions))) {
    func.emitError("internal error: the plan of @")
        << func.getSymName() << " is unsound (replay above)";
    return mlir::failure();
  }
  return entry;
}

LogicalResult replayPlan(func::FuncOp func, const FunctionBuffers &buffers,
                         const Plan &plan, const BinAssignment &binOf,
                         const FunctionPlanOptions &options) {
  if (!binOf.empty() && binOf.size() != buffers.problem.buffers.size())
    return func.emitError("internal error: a region for each of @")
           << func.getSymName() << "'s buffers is needed";
  PlannedPlacements placements = placementsOf(buffers, plan, binOf);
  placements.alignment = options.liveness.alignment;
  ReplayOptions replayOptions = replayOptionsFor(options);
  replayOptions.placements = &placements;
  return verifyReplay(func, replayOptions);
}

std::vector<func::FuncOp> functionsWithBodies(ModuleOp module) {
  std::vector<func::FuncOp> functions;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isDeclaration())
      functions.push_back(func);
  return functions;
}

FailureOr<PlannedEntry> planAtOwnChunk(func::FuncOp func,
                                       FunctionPlanOptions options,
                                       PlanFailure *why) {
  options.chunk = chunkSizeOf(func);
  return planFunction(func, options, why);
}

int64_t chunkSizeOf(mlir::func::FuncOp func) {
  std::optional<int64_t> seqLen;
  if (auto attr = func->getAttrOfType<mlir::IntegerAttr>(attr::seqLen))
    seqLen = attr.getInt();
  llvm::SmallVector<ExportedArgument> arguments;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    ExportedArgument argument;
    if (auto name = func.getArgAttrOfType<mlir::StringAttr>(i, attr::name))
      argument.name = name.getValue();
    auto type =
        llvm::dyn_cast<mlir::RankedTensorType>(func.getArgumentTypes()[i]);
    if (type && type.hasStaticShape())
      argument.staticShape = type.getShape();
    arguments.push_back(argument);
  }
  return exportedChunkSize(seqLen, arguments);
}

} // namespace coreai

//===- PlanFunction.cpp - Solve, verify and annotate one function ---------===//
#include "coreai-plan/Passes/PlanFunction.h"

#include "Kernels.h"
#include "PlanDecisions.h"
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
#include "mlir/IR/Diagnostics.h"
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

/// Removes what an earlier plan wrote; the variants named too where the
/// planner chooses them (`keepVariants` false). Kept, a name is the
/// input's decision, which liveness sizes the op's workspace for.
void clearAnnotations(func::FuncOp func, bool keepVariants) {
  func->removeAttr(attr::plan);
  func.walk([&](Operation *op) {
    op->removeAttr(attr::placement);
    op->removeAttr(attr::workspace);
    op->removeAttr(attr::resultDtypes);
    if (!keepVariants)
      op->removeAttr(attr::variant);
  });
}

/// Every op whose variants need different workspace names the one the
/// plan sized (docs/WORKSPACE.md, "Kernel variants"): those the variant
/// choice did not name run their least-workspace variant, which liveness
/// sized them with.
LogicalResult nameSizedVariants(func::FuncOp func,
                                const FunctionPlanOptions &options) {
  if (!options.liveness.workspace || !options.liveness.workspaceRules)
    return success();
  return nameLeastWorkspaceVariants(func, *options.liveness.workspaceRules);
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

namespace {

/// Decisions 2 to 6 (PlanDecisions.h) on `func`, whose chains decision 1
/// settled; then the annotations, the replay against `original` and the
/// target's limits.
FailureOr<PlannedEntry> planDecided(func::FuncOp func, func::FuncOp original,
                                    const FunctionPlanOptions &options,
                                    PlanFailure &why) {
  auto fail = [&](PlanFailure kind) {
    why = kind;
    return mlir::failure();
  };
  // 2. Kernels: the input's, else the target's.
  FailureOr<KernelSource> kernelSource = formKernels(func, options.liveness);
  if (mlir::failed(kernelSource))
    return fail(PlanFailure::BadInput);
  // The plan in the exported order takes half the budget when a search
  // follows, the plan without reuse a third of what is left before the
  // reordered plan, which takes the rest.
  bool reuse = reusesBytes(options);
  FunctionPlanOptions budgeted = withFunctionBudget(options);
  FailureOr<Solved> solved = solveWithReuse(
      func, options,
      withShareOfBudget(budgeted.solve, reuse || options.reorder ? 0.5 : 1.0),
      why);
  if (mlir::failed(solved))
    return mlir::failure();
  // 3. Reuse, measured against the plan without it (not estimated).
  int64_t plainHeap =
      reuse ? decideReuse(func, budgeted, options.reorder ? 1.0 / 3 : 1.0,
                          *solved)
            : solved->plan.heap;
  // 4. Order.
  bool reordered = decideOrder(func, budgeted, *solved);
  // 5. Budget: the least workspace is above it, no variant can help.
  if (options.solve.heapBudget > 0 &&
      solved->plan.heap > options.solve.heapBudget) {
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
  // 6. Variants; every op with a choice then names the one sized.
  if (mlir::failed(decideVariants(func, budgeted, *solved)) ||
      mlir::failed(nameSizedVariants(func, options)))
    return fail(PlanFailure::BadInput);
  annotateOps(func, solved->buffers, solved->plan, solved->binOf,
              options.liveness);
  PlannedEntry entry;
  entry.entry = func.getSymName().str();
  entry.chunk = options.chunk;
  entry.alignment = options.liveness.alignment;
  if (options.liveness.workspace && options.liveness.workspaceRules)
    entry.variants = namedVariants(func, *options.liveness.workspaceRules);
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
  replayOptions.original = original;
  if (mlir::failed(verifyReplay(func, replayOptions))) {
    func.emitError("internal error: the plan of @")
        << func.getSymName() << " is unsound (replay above)";
    return fail(PlanFailure::Internal);
  }
  if (mlir::failed(checkLimits(func, entry, options)))
    return fail(PlanFailure::OverLimit);
  return entry;
}

} // namespace

FailureOr<PlannedEntry> planFunction(func::FuncOp func,
                                     const FunctionPlanOptions &options,
                                     PlanFailure *why) {
  PlanFailure failure = PlanFailure::Internal;
  auto report = [&](FailureOr<PlannedEntry> planned) {
    if (mlir::failed(planned) && why)
      *why = failure;
    return planned;
  };
  clearAnnotations(func, /*keepVariants=*/!options.chooseVariants);
  // What the function computes before planning touches it: the replay
  // checks the planned function still computes that.
  OwningOpRef<func::FuncOp> original = func.clone();
  // 1. Recompute.
  if (!decideRecompute(func, options))
    return report(planDecided(func, *original, options, failure));
  // 7. A plan on the clones is kept only where it passes every check that
  // the trials did not make (the replay's, the limits'); else the function
  // is planned again with every chain kept. Its messages wait until then.
  std::vector<Diagnostic> held;
  FailureOr<PlannedEntry> planned = mlir::failure();
  {
    ScopedDiagnosticHandler hold(func.getContext(), [&](Diagnostic &diag) {
      held.push_back(std::move(diag));
      return success();
    });
    planned = planDecided(func, *original, options, failure);
  }
  if (mlir::failed(planned) && failure != PlanFailure::BadInput) {
    OwningOpRef<func::FuncOp> kept = original->clone();
    func.getBody().takeBody(kept->getBody());
    clearAnnotations(func, /*keepVariants=*/!options.chooseVariants);
    failure = PlanFailure::Internal;
    return report(planDecided(func, *original, options, failure));
  }
  for (Diagnostic &diag : held)
    func.getContext()->getDiagEngine().emit(std::move(diag));
  return report(std::move(planned));
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
  if (mlir::succeeded(solved))
    decideOrder(func, budgeted, *solved);
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
  clearAnnotations(func, /*keepVariants=*/true);
  if (mlir::failed(nameSizedVariants(func, options)))
    return mlir::failure();
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
  if (options.liveness.workspace && options.liveness.workspaceRules)
    entry.variants = namedVariants(func, *options.liveness.workspaceRules);
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

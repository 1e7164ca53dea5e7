//===- ParametricFunction.cpp - One plan of a function for a range of S ---===//
#include "ParametricPlanner.h"

#include "coreai-plan/Passes/Reorder.h"
#include "coreai-plan/Verify.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace coreai {

SolveOptions quietly(SolveOptions options) {
  options.onImprovement = nullptr;
  return options;
}

namespace {

llvm::Error internal(const llvm::Twine &message) {
  return bundleError(PlanFailure::Internal, message);
}

std::string nameOf(const PlanJob &job) {
  mlir::func::FuncOp source = job.source; // a copy: handles are not const
  return source.getSymName().str();
}

} // namespace

ParametricPlanner::ParametricPlanner(const PlanJob &job,
                                     const FunctionPlanOptions &options,
                                     mlir::ModuleOp planned,
                                     PlanObserver *observer)
    : job(job), options(options), observer(observer),
      specialiser(job, planned), name(nameOf(job)) {
  specialiser.symbol = job.chunkSymbol;
  result.symbol = job.chunkSymbol;
}

ParametricPlanner::~ParametricPlanner() {
  for (auto &[piece, checked] : checkedPieces)
    checked.clone.func.erase();
}

llvm::Expected<ParametricFunction> ParametricPlanner::run() {
  stage("planning");
  if (llvm::Error error = planPieces())
    return error;
  if (llvm::Error error = mergePieces())
    return error;
  if (llvm::Error error = finishPieces())
    return error;
  for (size_t p : pieceParts)
    result.reordered |= !parts[p].positions.empty();
  // Every S: the graph's own buffers there against the expressions, the
  // interval verifier, and the replay of the instantiated plan.
  stage("verifying");
  for (int64_t s = job.lo; s <= job.hi; ++s)
    if (llvm::Error error = instantiateAt(s))
      return error;
  return std::move(result);
}

llvm::Error ParametricPlanner::bad(int64_t s, const llvm::Twine &why) const {
  return bundleError(
      PlanFailure::BadInput,
      llvm::formatv("@{0} cannot have one plan for {1} in [{2}, {3}]: at "
                    "{1}={4} ",
                    name, job.chunkSymbol, job.lo, job.hi, s)
              .str() +
          why.str());
}

llvm::Error ParametricPlanner::solverFailed(int64_t s,
                                            llvm::StringRef why) const {
  return internal("the solver returned no plan for @" + name + " at " +
                  job.chunkSymbol + "=" + std::to_string(s) + " " + why);
}

llvm::Error
ParametricPlanner::failedVerification(llvm::Error violation) const {
  return internal("the parametric plan of @" + name +
                  " failed verification " +
                  llvm::toString(std::move(violation)));
}

/// The function specialised at `s` in the current op order, and its
/// buffers, which must be the reference's. With `original`, also a copy of
/// the specialised clone before its ops move, for the replay's dataflow
/// check.
llvm::Expected<ParametricPlanner::CloneAndBuffers>
ParametricPlanner::buffersAt(const FunctionBuffers &reference, int64_t s,
                             llvm::StringRef cloneName,
                             mlir::OwningOpRef<mlir::func::FuncOp> *original) {
  auto clone = specialiser.cloneAt(s, cloneName);
  if (mlir::failed(clone))
    return bundleError(PlanFailure::BadInput, "");
  if (original)
    *original = clone->clone();
  specialiser.order(*clone);
  mlir::FailureOr<FunctionBuffers> buffers =
      computeBuffers(*clone, options.liveness);
  if (mlir::failed(buffers)) {
    clone->erase();
    return bundleError(PlanFailure::BadInput, "");
  }
  if (llvm::Error differs = sameBuffers(reference, *buffers)) {
    clone->erase();
    return bad(s, llvm::toString(std::move(differs)) +
                      "; plan a list of chunk sizes instead");
  }
  return std::make_pair(*clone, std::move(*buffers));
}

/// The part [lo, top]: the reference planned at `top` in the source's
/// order, then its buffers' expressions over the part.
llvm::Expected<Part> ParametricPlanner::partFor(int64_t lo, int64_t top) {
  Part part;
  part.top = top;
  specialiser.setLayout({}, {});
  auto reference = specialiser.cloneAt(top, name + "__reference");
  if (mlir::failed(reference))
    return bundleError(PlanFailure::BadInput, "");
  std::vector<mlir::Operation *> exported = currentOrder(*reference);
  FunctionPlanOptions referenceOptions = options;
  referenceOptions.chunk = top;
  referenceOptions.maxHeap = 0; // the range's heap is checked below
  // One decision for every S: each op keeps its least-workspace variant.
  referenceOptions.chooseVariants = false;
  referenceOptions.recomputeRules = nullptr; // and every value is kept
  PlanFailure why = PlanFailure::Internal;
  mlir::FailureOr<PlannedEntry> referencePlan =
      planFunction(*reference, referenceOptions, &why);
  if (mlir::failed(referencePlan)) {
    reference->erase();
    return bundleError(why, "");
  }
  specialiser.recordOrder(exported, *reference);
  part.positions = specialiser.positions();
  part.kernels = specialiser.kernels();
  mlir::FailureOr<FunctionBuffers> referenceBuffers =
      computeBuffers(*reference, options.liveness);
  reference->erase();
  if (mlir::failed(referenceBuffers))
    return internal("@" + name + ": liveness failed on its planned clone");
  part.referenceBuffers = std::move(*referenceBuffers);
  stage("specialising");
  if (llvm::Error error = fitExpressions(part, lo, top))
    return error;
  part.offsets = referencePlan->plan.offsets;
  part.regions = referencePlan->binOf;
  size_t count = part.referenceBuffers.problem.buffers.size();
  if (!part.bins.empty() && part.regions.size() != count)
    part.regions.assign(count, -1);
  return part;
}

/// The sizes of `part`'s buffers and lent outputs as expressions of S,
/// fitted through the three sizes at the top and checked at lo. Not at
/// every S here: specialising the graph and computing its buffers at every
/// S of the range was a quarter of `--chunks 1..64`, and instantiateAt
/// does it anyway, checking every size there (checkSizesAt).
llvm::Error ParametricPlanner::fitExpressions(Part &part, int64_t lo,
                                              int64_t top) {
  const FunctionBuffers &ref = part.referenceBuffers;
  size_t count = ref.problem.buffers.size();
  size_t binCount = ref.bins.size();
  // Three S at the top, or reaching above it where the part is shorter:
  // a part of one or two S then has expressions that may hold above it,
  // for mergePieces to stretch it up (where the graph is no other there).
  int64_t first = std::max(lo, top - 2);
  int64_t last = std::min(job.hi, first + 2);
  std::vector<int64_t> points;
  if (lo < first)
    points.push_back(lo);
  for (int64_t s = first; s <= last; ++s)
    points.push_back(s);
  // sizes[i][t]: buffer i at points[t] (bins after the buffers).
  std::vector<std::vector<int64_t>> sizes(count + binCount);
  for (int64_t s : points) {
    auto at = buffersAt(ref, s, name + "__sizes");
    if (!at && s > top) { // not the same buffers above the part: no matter
      llvm::consumeError(at.takeError());
      break;
    }
    if (!at)
      return at.takeError();
    for (size_t i = 0; i < count; ++i)
      sizes[i].push_back(at->second.problem.buffers[i].size);
    for (size_t k = 0; k < binCount; ++k)
      sizes[count + k].push_back(at->second.bins[k].capacity);
    at->first.erase();
  }
  size_t skip = lo < first ? 1 : 0; // the sizes at lo only check the fit
  auto fit = [&](size_t i) -> std::optional<SizeExpr> {
    std::optional<SizeExpr> expr =
        fitSizeExpr(first, llvm::ArrayRef(sizes[i]).drop_front(skip));
    if (expr && skip && expr->at(lo) != sizes[i].front())
      return std::nullopt;
    return expr;
  };
  for (size_t i = 0; i < count; ++i) {
    const Buffer &b = ref.problem.buffers[i];
    std::optional<SizeExpr> size = fit(i);
    if (!size)
      return bad(lo, "the size of buffer " + b.id +
                         " is not a polynomial of degree at most two in " +
                         job.chunkSymbol);
    bool workspace = llvm::any_of(
        ref.workspaces, [&](const auto &w) { return w.buffer == i; });
    part.buffers.push_back(
        {b.id, b.start, b.end, b.alignment, *size, {}, -1, workspace});
  }
  for (size_t k = 0; k < binCount; ++k) {
    const OutputBin &bin = ref.bins[k];
    std::optional<SizeExpr> capacity = fit(count + k);
    if (!capacity)
      return bad(lo, llvm::formatv("the bytes of output {0} (lent to the "
                                   "plan) are not a polynomial of degree "
                                   "at most two in {1}; plan a list of "
                                   "chunk sizes or --no-borrow-outputs",
                                   bin.output, job.chunkSymbol)
                         .str());
    part.bins.push_back({bin.output, *capacity, bin.availableUntil});
  }
  return llvm::Error::success();
}

/// Whether the graph's own sizes at `s` are what `part`'s expressions
/// give (they were fitted through a few S only).
llvm::Error ParametricPlanner::checkSizesAt(const Part &part,
                                            const FunctionBuffers &actual,
                                            int64_t s) const {
  for (size_t i = 0; i < part.buffers.size(); ++i)
    if (actual.problem.buffers[i].size != part.buffers[i].size.at(s))
      return bad(s, llvm::formatv("the size of buffer {0} is {1} bytes, not "
                                  "the {2} of its expression {3}: not a "
                                  "polynomial of degree at most two in {4}",
                                  part.buffers[i].id,
                                  actual.problem.buffers[i].size,
                                  part.buffers[i].size.at(s),
                                  part.buffers[i].size.str(), job.chunkSymbol)
                            .str());
  for (size_t k = 0; k < part.bins.size(); ++k)
    if (actual.bins[k].capacity != part.bins[k].capacity.at(s))
      return bad(s, llvm::formatv("the bytes of output {0} (lent to the "
                                  "plan) are not a polynomial of degree at "
                                  "most two in {1}; plan a list of chunk "
                                  "sizes or --no-borrow-outputs",
                                  part.bins[k].output, job.chunkSymbol)
                        .str());
  return llvm::Error::success();
}

/// `part`'s plan for [lo, hi], referenced at its offsets and regions.
llvm::Expected<ParametricPlan>
ParametricPlanner::build(const Part &part, int64_t lo, int64_t hi) const {
  std::vector<ParametricBuffer> placed = part.buffers;
  for (size_t i = 0; i < part.regions.size(); ++i)
    placed[i].bin = part.regions[i];
  llvm::Expected<ParametricPlan> plan =
      buildParametricPlan(lo, hi, std::move(placed), part.offsets, part.bins);
  if (!plan)
    return bundleError(PlanFailure::BadInput,
                       "@" + name + ": " + llvm::toString(plan.takeError()));
  return plan;
}

/// The plan instantiated at `s` on the function specialised there,
/// applied and replayed, checked against the graph's own buffers there on
/// the first S of each piece and on the instances kept (which need them
/// for the manifest); every other S replays the piece's buffers found
/// there (replaysAt), and falls back to this whole check when the replay
/// fails, whose messages say why.
llvm::Error ParametricPlanner::instantiateAt(int64_t s) {
  bool keep = llvm::is_contained(job.instances, s);
  size_t piece = size_t(
      llvm::find_if(result.pieces,
                    [&](const ParametricPlan &p) { return p.contains(s); }) -
      result.pieces.begin());
  bool first = !checkedPieces.count(piece);
  if (!keep && !first && replaysAt(piece, s))
    return llvm::Error::success();
  std::string cloneName =
      keep ? llvm::formatv("{0}__s{1}", name, s).str() : name + "__check";
  mlir::OwningOpRef<mlir::func::FuncOp> original;
  const Part &part = parts[pieceParts[piece]];
  specialiser.setLayout(part.positions, part.kernels);
  // The dataflow check (the planned graph computes what the specialised
  // one did) compares the two op for op: the same ops, operands and order
  // at every S of a piece, only the types differ. Once per piece, and on
  // the instances kept.
  auto at = buffersAt(part.referenceBuffers, s, cloneName,
                      keep || first ? &original : nullptr);
  if (!at)
    return at.takeError();
  auto [clone, functionBuffers] = std::move(*at);
  if (llvm::Error notPolynomial = checkSizesAt(part, functionBuffers, s)) {
    clone.erase();
    return notPolynomial;
  }
  const ParametricPlan &plan = result.pieces[piece];
  if (llvm::Error violation = verifyParametricAt(
          plan, s, functionBuffers.problem, &functionBuffers.bins))
    return failedVerification(std::move(violation));
  if (first)
    checkedPieces.try_emplace(
        piece, CheckedPiece{BufferPositions(clone, functionBuffers),
                            specialiser.rebindable(name + "__replay")});
  Plan instance;
  instance.offsets = plan.offsetsAt(s);
  instance.heap = plan.heapAt(s);
  instance.lowerBound =
      borrowingLowerBound(functionBuffers.problem, functionBuffers.bins);
  // The bound is sound for any plan of these buffers, so reaching it is
  // a proof, whichever way the offsets were made.
  instance.optimal = instance.heap <= instance.lowerBound;
  instance.algorithm = "parametric";
  FunctionPlanOptions instanceOptions = options;
  instanceOptions.chunk = s;
  mlir::FailureOr<PlannedEntry> entry =
      applyPlan(clone, original ? *original : mlir::func::FuncOp(),
                std::move(functionBuffers),
                std::move(instance), plan.binOf(), instanceOptions);
  if (mlir::failed(entry))
    return internal("");
  if (options.maxHeap > 0 && entry->plan.heap > options.maxHeap) {
    clone.emitError("heap of @")
        << name << " at " << job.chunkSymbol << "=" << s << " is "
        << entry->plan.heap << " bytes, above max-heap " << options.maxHeap;
    return bundleError(PlanFailure::OverLimit, "");
  }
  if (!keep) {
    clone.erase();
    return llvm::Error::success();
  }
  entry->entry = name;
  entry->chunk = s;
  result.instances.emplace_back(std::move(*entry), cloneName);
  return llvm::Error::success();
}

/// Whether the piece's plan, applied at `s` with the buffers found on the
/// piece's first S (no liveness here), passes the replay, which checks
/// every placed value's size against its type at `s` and every read
/// against the bytes' last writer. Its messages are dropped: on failure
/// instantiateAt runs the whole check, whose messages say why.
bool ParametricPlanner::replaysAt(size_t piece, int64_t s) {
  const Part &part = parts[pieceParts[piece]];
  const ParametricPlan &plan = result.pieces[piece];
  if (options.maxHeap > 0 && plan.heapAt(s) > options.maxHeap)
    return false;
  CheckedPiece &checked = checkedPieces.at(piece);
  mlir::func::FuncOp clone = checked.clone.func;
  mlir::ScopedDiagnosticHandler quiet(clone.getContext(),
                                      [](mlir::Diagnostic &) {
                                        return mlir::success();
                                      });
  specialiser.setLayout(part.positions, part.kernels);
  if (mlir::failed(specialiser.rebind(checked.clone, s)))
    return false;
  Plan instance;
  instance.offsets = plan.offsetsAt(s);
  instance.heap = plan.heapAt(s);
  instance.algorithm = "parametric";
  FunctionPlanOptions instanceOptions = options;
  instanceOptions.chunk = s;
  return mlir::succeeded(replayPlan(
      clone, checked.buffers.on(clone, plan.problemAt(s), plan.binsAt(s)),
      instance, plan.binOf(), instanceOptions));
}

llvm::Expected<ParametricFunction>
planParametricFunction(const PlanJob &job, const FunctionPlanOptions &options,
                       mlir::ModuleOp planned, PlanObserver *observer) {
  return ParametricPlanner(job, options, planned, observer).run();
}

} // namespace coreai

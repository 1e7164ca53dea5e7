//===- ParametricFunction.cpp - One plan of a function for a range of S ---===//
#include "ParametricFunction.h"

#include "coreai-plan/Passes/Reorder.h"
#include "coreai-plan/Borrow.h"
#include "coreai-plan/Verify.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace coreai {

namespace {

SolveOptions quietly(SolveOptions options) {
  options.onImprovement = nullptr;
  return options;
}

llvm::Error internal(const llvm::Twine &message) {
  return bundleError(PlanFailure::Internal, message);
}

/// Clones of the source function specialised at one S and put in the op
/// order chosen for the range (positions in the source's order).
class Specialiser {
public:
  Specialiser(const PlanJob &job, mlir::ModuleOp planned)
      : job(job), source(job.source), planned(planned) {}

  /// A clone in `planned` at S, in the source's own order; the caller
  /// erases it or keeps it.
  mlir::FailureOr<mlir::func::FuncOp> cloneAt(int64_t s,
                                              llvm::StringRef name) const {
    mlir::func::FuncOp clone = source.clone();
    clone.setSymName(name);
    planned.push_back(clone);
    mlir::Builder builder(clone.getContext());
    clone->setAttr("coreai.entry",
                   builder.getStringAttr(source.getSymName()));
    clone->setAttr("coreai.seq_len", builder.getI64IntegerAttr(s));
    SymbolBindings bindings = job.bindings;
    bindings[symbol] = s;
    if (mlir::failed(specializeShapes(clone, bindings))) {
      clone.erase();
      return mlir::failure();
    }
    return clone;
  }

  /// `clone` (in the source's order) moved into the range's order, with
  /// the reference's fused kernels: every S runs the same kernels (the
  /// rules, which weigh bytes, could group a small S otherwise).
  void order(mlir::func::FuncOp clone) const {
    std::vector<mlir::Operation *> ops = currentOrder(clone);
    if (!order_.empty()) {
      std::vector<mlir::Operation *> moved;
      moved.reserve(ops.size());
      for (unsigned position : order_)
        moved.push_back(ops[position]);
      applyOrder(clone, moved);
      ops = std::move(moved);
    }
    mlir::Builder builder(clone.getContext());
    for (auto [op, kernel] : llvm::zip(ops, kernels_))
      if (kernel >= 0)
        op->setAttr("coreai.kernel", builder.getI64IntegerAttr(kernel));
  }

  /// Records the order planFunction left `clone` in; `before` is its order
  /// when it was cloned.
  void recordOrder(llvm::ArrayRef<mlir::Operation *> before,
                   mlir::func::FuncOp clone) {
    llvm::DenseMap<mlir::Operation *, unsigned> position;
    for (unsigned i = 0; i < before.size(); ++i)
      position[before[i]] = i;
    order_.clear();
    kernels_.clear();
    bool moved = false, fused = false;
    for (mlir::Operation *op : currentOrder(clone)) {
      moved |= position.lookup(op) != order_.size();
      order_.push_back(position.lookup(op));
      auto kernel = op->getAttrOfType<mlir::IntegerAttr>("coreai.kernel");
      kernels_.push_back(kernel ? kernel.getInt() : -1);
      fused |= bool(kernel);
    }
    if (!moved)
      order_.clear();
    if (!fused)
      kernels_.clear();
  }

  /// The order clones are put in (empty: the source's), and the kernel of
  /// each op in that order (empty: none).
  const std::vector<unsigned> &positions() const { return order_; }
  const std::vector<int64_t> &kernels() const { return kernels_; }
  void setLayout(std::vector<unsigned> order, std::vector<int64_t> kernels) {
    order_ = std::move(order);
    kernels_ = std::move(kernels);
  }

  std::string symbol;

private:
  const PlanJob &job;
  // Copies: MLIR's op handles are not const-correct.
  mutable mlir::func::FuncOp source;
  mutable mlir::ModuleOp planned;
  std::vector<unsigned> order_; ///< empty: the exported order
  std::vector<int64_t> kernels_; ///< per op in order_'s order; -1: none
};

/// Why the buffers at S are not the reference's buffers, if they are not.
/// The outputs lent (with borrowing) must be the same outputs available
/// until the same op; only their capacities may depend on S.
llvm::Error sameBuffers(const FunctionBuffers &reference,
                        const FunctionBuffers &other) {
  if (reference.bins.size() != other.bins.size())
    return llvm::createStringError(
        llvm::formatv("{0} outputs are lent instead of {1}", other.bins.size(),
                      reference.bins.size()));
  for (size_t k = 0; k < reference.bins.size(); ++k)
    if (reference.bins[k].output != other.bins[k].output ||
        reference.bins[k].availableUntil != other.bins[k].availableUntil)
      return llvm::createStringError(
          llvm::formatv("output {0} is available until op {1} instead of {2}",
                        other.bins[k].output, other.bins[k].availableUntil,
                        reference.bins[k].availableUntil));
  const auto &a = reference.problem.buffers, &b = other.problem.buffers;
  if (a.size() != b.size())
    return llvm::createStringError(
        llvm::formatv("{0} buffers instead of {1}", b.size(), a.size()));
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || a[i].start != b[i].start ||
        a[i].end != b[i].end || a[i].alignment != b[i].alignment ||
        reference.origins[i].value != other.origins[i].value ||
        reference.owners[i] != other.owners[i])
      return llvm::createStringError(
          llvm::formatv("buffer {0} ({1}) is not the same buffer", a[i].id,
                        reference.origins[i].value));
  }
  return llvm::Error::success();
}

/// A part of the range with one op order: the reference plan at its top
/// with every technique (its op order, and with it every reuse decision,
/// kept for the whole part), the buffers at every S of the part in that
/// order, their size expressions and the lent outputs'.
struct Part {
  std::vector<unsigned> positions; ///< Specialiser's; empty: exported
  std::vector<int64_t> kernels;    ///< Specialiser's; empty: none
  FunctionBuffers referenceBuffers;
  std::vector<ParametricBuffer> buffers;
  std::vector<ParametricBin> bins;
  std::vector<int64_t> offsets; ///< the reference plan's, per region
  BinAssignment regions;        ///< empty without bins
};

std::string nameOf(const PlanJob &job) {
  mlir::func::FuncOp source = job.source; // a copy: handles are not const
  return source.getSymName().str();
}

/// planParametricFunction's state: the parts planned so far, the pieces
/// cut from the top of the range down, then every S instantiated.
class ParametricPlanner {
public:
  ParametricPlanner(const PlanJob &job, const FunctionPlanOptions &options,
                    mlir::ModuleOp planned, PlanObserver *observer)
      : job(job), options(options), observer(observer),
        specialiser(job, planned), name(nameOf(job)) {
    specialiser.symbol = job.chunkSymbol;
    result.symbol = job.chunkSymbol;
  }

  llvm::Expected<ParametricFunction> run() {
    stage("planning");
    if (llvm::Error error = planPieces())
      return error;
    for (const Part &p : pieceParts)
      result.reordered |= !p.positions.empty();
    // Every S: the graph's own buffers there against the expressions, the
    // interval verifier, and the replay of the instantiated plan.
    stage("verifying");
    for (int64_t s = job.lo; s <= job.hi; ++s)
      if (llvm::Error error = instantiateAt(s))
        return error;
    return std::move(result);
  }

private:
  using CloneAndBuffers = std::pair<mlir::func::FuncOp, FunctionBuffers>;

  void stage(llvm::StringRef what) const {
    if (observer)
      observer->stage(job, what);
  }

  /// The range cannot have one plan because of what happens at `s`.
  llvm::Error bad(int64_t s, const llvm::Twine &why) const {
    return bundleError(
        PlanFailure::BadInput,
        llvm::formatv("@{0} cannot have one plan for {1} in [{2}, {3}]: at "
                      "{1}={4} ",
                      name, job.chunkSymbol, job.lo, job.hi, s)
                .str() +
            why.str());
  }

  llvm::Error solverFailed(int64_t s, llvm::StringRef why) const {
    return internal("the solver returned no plan for @" + name + " at " +
                    job.chunkSymbol + "=" + std::to_string(s) + " " + why);
  }

  llvm::Error failedVerification(llvm::Error violation) const {
    return internal("the parametric plan of @" + name +
                    " failed verification " +
                    llvm::toString(std::move(violation)));
  }

  llvm::Expected<CloneAndBuffers>
  buffersAt(const FunctionBuffers &reference, int64_t s,
            llvm::StringRef cloneName,
            mlir::OwningOpRef<mlir::func::FuncOp> *original = nullptr);
  llvm::Expected<Part> partFor(int64_t lo, int64_t top);
  llvm::Error fitExpressions(Part &part, int64_t lo, int64_t top);
  llvm::Expected<ParametricPlan> build(int64_t lo, int64_t hi) const;
  llvm::Expected<int64_t> solvedHeapAt(const ParametricPlan &plan, int64_t s);
  llvm::Expected<int64_t> ownHeapAt(int64_t s);
  llvm::Expected<bool> tooFarAbove(const ParametricPlan &plan, int64_t s);
  llvm::Expected<std::optional<int64_t>>
  keepBorrowedInBins(ParametricPlan &plan, int64_t top, bool lastPiece);
  llvm::Expected<std::optional<int64_t>>
  cutFor(const ParametricPlan &plan, int64_t top,
         std::optional<int64_t> overflow);
  llvm::Error addPiece(llvm::Expected<ParametricPlan> plan);
  llvm::Error planPieces();
  llvm::Error instantiateAt(int64_t s);

  const PlanJob &job;
  const FunctionPlanOptions &options;
  PlanObserver *observer;
  Specialiser specialiser;
  std::string name;
  ParametricFunction result;
  /// The part of the piece being cut; its offsets and regions change as
  /// borrowed buffers that outgrow their bins move to the heap.
  Part part;
  /// The parts of the pieces, parallel to result.pieces.
  std::vector<Part> pieceParts;
  /// The heap of a plan solved for S alone in the current part's op order.
  std::map<int64_t, int64_t> solvedHeaps;
  /// The heap of the plan `plan --chunks S` makes: S alone, every
  /// technique, in the op order reorder picks at S. The piece's lower bound
  /// holds for the piece's order only; another order can be far better
  /// (the dynamic Llama: S=64's order costs 85 % at S=1).
  std::map<int64_t, int64_t> ownHeaps;
};

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
                      " (liveness or reuse depends on S); plan a list of "
                      "chunk sizes instead");
  }
  return std::make_pair(*clone, std::move(*buffers));
}

/// The part [lo, top]: the reference planned at `top` in the source's
/// order, then its buffers' expressions over the part.
llvm::Expected<Part> ParametricPlanner::partFor(int64_t lo, int64_t top) {
  Part part;
  specialiser.setLayout({}, {});
  auto reference = specialiser.cloneAt(top, name + "__reference");
  if (mlir::failed(reference))
    return bundleError(PlanFailure::BadInput, "");
  std::vector<mlir::Operation *> exported = currentOrder(*reference);
  FunctionPlanOptions referenceOptions = options;
  referenceOptions.chunk = top;
  referenceOptions.maxHeap = 0; // the range's heap is checked below
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
/// fitted and checked at every S of [lo, top].
llvm::Error ParametricPlanner::fitExpressions(Part &part, int64_t lo,
                                              int64_t top) {
  const FunctionBuffers &ref = part.referenceBuffers;
  size_t count = ref.problem.buffers.size();
  size_t span = size_t(top - lo + 1);
  std::vector<std::vector<int64_t>> sizes(count, std::vector<int64_t>(span));
  size_t binCount = ref.bins.size();
  std::vector<std::vector<int64_t>> capacities(binCount,
                                               std::vector<int64_t>(span));
  for (int64_t s = lo; s <= top; ++s) {
    auto at = buffersAt(ref, s, name + "__sizes");
    if (!at)
      return at.takeError();
    for (size_t i = 0; i < count; ++i)
      sizes[i][size_t(s - lo)] = at->second.problem.buffers[i].size;
    for (size_t k = 0; k < binCount; ++k)
      capacities[k][size_t(s - lo)] = at->second.bins[k].capacity;
    at->first.erase();
  }
  for (size_t i = 0; i < count; ++i) {
    const Buffer &b = ref.problem.buffers[i];
    std::optional<SizeExpr> size = fitSizeExpr(lo, sizes[i]);
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
    std::optional<SizeExpr> capacity = fitSizeExpr(lo, capacities[k]);
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

/// The current part's plan for [lo, hi], referenced at its offsets and
/// regions.
llvm::Expected<ParametricPlan> ParametricPlanner::build(int64_t lo,
                                                        int64_t hi) const {
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

/// The heap of a plan for S alone in the piece's op order, with the bins
/// as they are at S.
llvm::Expected<int64_t>
ParametricPlanner::solvedHeapAt(const ParametricPlan &plan, int64_t s) {
  if (auto known = solvedHeaps.find(s); known != solvedHeaps.end())
    return known->second;
  std::optional<Plan> solved;
  std::string why;
  if (plan.bins.empty()) {
    SolveResult r = solve(plan.problemAt(s), quietly(options.solve));
    solved = std::move(r.plan);
    why = r.internalError;
  } else {
    BorrowResult r = solveWithBorrowing(plan.problemAt(s), plan.binsAt(s),
                                        quietly(options.solve));
    solved = std::move(r.plan);
    why = r.internalError;
  }
  if (!solved)
    return solverFailed(s, why);
  return solvedHeaps[s] = solved->heap;
}

/// The heap `plan --chunks S` would have (ownHeaps).
llvm::Expected<int64_t> ParametricPlanner::ownHeapAt(int64_t s) {
  if (auto known = ownHeaps.find(s); known != ownHeaps.end())
    return known->second;
  auto clone = specialiser.cloneAt(s, name + "__alone");
  if (mlir::failed(clone))
    return bundleError(PlanFailure::BadInput, "");
  FunctionPlanOptions aloneOptions = options;
  aloneOptions.chunk = s;
  aloneOptions.solve = quietly(options.solve);
  PlanFailure why = PlanFailure::Internal;
  // Only the heap is compared: planHeap skips the replay, the annotation
  // and the measuring solve (Gemma --chunks 1..64 on an idle machine:
  // 18 s before, 15-16 s; what remains is mostly reorder's search).
  mlir::FailureOr<int64_t> alone = planHeap(*clone, aloneOptions, &why);
  clone->erase();
  if (mlir::failed(alone))
    return bundleError(why, "");
  return ownHeaps[s] = *alone;
}

/// Whether the heap at S is more than the tolerance above what S can have:
/// its own plan's heap (with reorder), the lower bound in the piece's op
/// order, and where that is not met, the heap of a plan solved for S alone
/// (the bound under borrowing is not always reachable, and cutting for it
/// would waste the pieces).
llvm::Expected<bool> ParametricPlanner::tooFarAbove(const ParametricPlan &plan,
                                                    int64_t s) {
  int64_t heap = plan.heapAt(s);
  auto above = [&](int64_t best) {
    return heap * 100 > best * (100 + kPieceTolerancePercent);
  };
  // Without reorder S alone has the piece's order: the checks below cover
  // it.
  if (options.reorder) {
    llvm::Expected<int64_t> own = ownHeapAt(s);
    if (!own)
      return own.takeError();
    if (above(*own))
      return true;
  }
  if (!above(plan.lowerBoundAt(s)))
    return false;
  llvm::Expected<int64_t> alone = solvedHeapAt(plan, s);
  if (!alone)
    return alone.takeError();
  return above(*alone);
}

/// Out of pieces (or outgrown at the top itself, which the reference rules
/// out): what outgrows its bin somewhere goes to the heap, the heap is
/// placed again at the top, until everything borrowed fits. Returns the
/// highest S where a borrowed buffer still outgrows its bin, if any.
llvm::Expected<std::optional<int64_t>>
ParametricPlanner::keepBorrowedInBins(ParametricPlan &plan, int64_t top,
                                      bool lastPiece) {
  std::optional<int64_t> overflow = highestOverflow(plan);
  while (overflow && (lastPiece || *overflow >= top)) {
    for (int64_t s = plan.lo; s <= plan.hi; ++s)
      for (uint32_t i : overflowingAt(plan, s))
        part.regions[i] = -1;
    BufferProblem heapProblem;
    std::vector<size_t> inHeap;
    BufferProblem atTop = plan.problemAt(top);
    for (size_t i = 0; i < part.buffers.size(); ++i)
      if (part.regions[i] < 0) {
        inHeap.push_back(i);
        heapProblem.buffers.push_back(atTop.buffers[i]);
      }
    SolveResult heap = solve(heapProblem, quietly(options.solve));
    if (!heap.plan)
      return solverFailed(top, heap.internalError);
    for (size_t j = 0; j < inHeap.size(); ++j)
      part.offsets[inHeap[j]] = heap.plan->offsets[j];
    llvm::Expected<ParametricPlan> rebuilt = build(job.lo, top);
    if (!rebuilt)
      return rebuilt.takeError();
    plan = std::move(*rebuilt);
    overflow = highestOverflow(plan);
  }
  return overflow;
}

/// Where to cut [job.lo, top] (the piece above keeps cut + 1 and up): the
/// highest S below the top whose heap is too far above what S can have,
/// looking down to the highest overflow; else that overflow, else nothing.
llvm::Expected<std::optional<int64_t>>
ParametricPlanner::cutFor(const ParametricPlan &plan, int64_t top,
                          std::optional<int64_t> overflow) {
  std::optional<int64_t> cut = overflow;
  for (int64_t s = top - 1; s > cut.value_or(job.lo - 1); --s) {
    llvm::Expected<bool> far = tooFarAbove(plan, s);
    if (!far)
      return far.takeError();
    if (*far)
      cut = s;
  }
  return cut;
}

llvm::Error ParametricPlanner::addPiece(llvm::Expected<ParametricPlan> plan) {
  if (!plan)
    return plan.takeError();
  if (llvm::Error violation = verifyParametricPlan(*plan))
    return failedVerification(std::move(violation));
  result.pieces.push_back(std::move(*plan));
  pieceParts.push_back(std::move(part));
  return llvm::Error::success();
}

/// Pieces from the top down: a plan referenced at the piece's top (its
/// offsets and regions), cut below the highest S where a borrowed buffer
/// outgrows its bin or the heap is too far above what S can have.
llvm::Error ParametricPlanner::planPieces() {
  int64_t top = job.hi;
  llvm::Expected<Part> first = partFor(job.lo, top);
  if (!first)
    return first.takeError();
  part = std::move(*first);
  while (true) {
    llvm::Expected<ParametricPlan> plan = build(job.lo, top);
    if (!plan)
      return plan.takeError();
    bool lastPiece = result.pieces.size() + 1 >= job.maxPieces;
    llvm::Expected<std::optional<int64_t>> overflow =
        keepBorrowedInBins(*plan, top, lastPiece);
    if (!overflow)
      return overflow.takeError();
    if (lastPiece)
      return addPiece(std::move(*plan));
    llvm::Expected<std::optional<int64_t>> cut = cutFor(*plan, top, *overflow);
    if (!cut)
      return cut.takeError();
    if (!*cut)
      return addPiece(std::move(*plan));
    if (llvm::Error error = addPiece(build(**cut + 1, top)))
      return error;
    // The part below gets a reference of its own at its top: planned there
    // with every technique, in the op order best there (the outputs' sizes
    // as they are there decide what it borrows).
    top = **cut;
    llvm::Expected<Part> below = partFor(job.lo, top);
    if (!below)
      return below.takeError();
    part = std::move(*below);
    solvedHeaps.clear(); // solved in another op order
  }
}

/// The plan instantiated at `s` on the function specialised there:
/// checked against the graph's own buffers, applied and replayed, kept
/// when `s` is one of the job's instances.
llvm::Error ParametricPlanner::instantiateAt(int64_t s) {
  bool keep = llvm::is_contained(job.instances, s);
  std::string cloneName =
      keep ? llvm::formatv("{0}__s{1}", name, s).str() : name + "__check";
  mlir::OwningOpRef<mlir::func::FuncOp> original;
  size_t piece = size_t(
      llvm::find_if(result.pieces,
                    [&](const ParametricPlan &p) { return p.contains(s); }) -
      result.pieces.begin());
  specialiser.setLayout(pieceParts[piece].positions,
                        pieceParts[piece].kernels);
  auto at =
      buffersAt(pieceParts[piece].referenceBuffers, s, cloneName, &original);
  if (!at)
    return at.takeError();
  auto [clone, functionBuffers] = std::move(*at);
  const ParametricPlan &plan = result.pieces[piece];
  if (llvm::Error violation = verifyParametricAt(
          plan, s, functionBuffers.problem, &functionBuffers.bins))
    return failedVerification(std::move(violation));
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
      applyPlan(clone, *original, std::move(functionBuffers),
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

} // namespace

llvm::Expected<ParametricFunction>
planParametricFunction(const PlanJob &job, const FunctionPlanOptions &options,
                       mlir::ModuleOp planned, PlanObserver *observer) {
  return ParametricPlanner(job, options, planned, observer).run();
}

} // namespace coreai

//===- ParametricPieces.cpp - Where a parametric range is cut -------------===//
//
// The pieces of a range: cut from the top down where a borrowed buffer
// outgrows its output or where the plan is more than the tolerance above
// what S can have, then neighbours merged wherever one plan is good enough
// for both (docs/PARAMETRIC.md, "Pieces").
//
//===----------------------------------------------------------------------===//
#include "ParametricPlanner.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

namespace coreai {

namespace {

bool above(int64_t heap, int64_t best) {
  return heap * 100 > best * (100 + kPieceTolerancePercent);
}

double percentAbove(int64_t heap, int64_t best) {
  return best > 0 ? double(heap - best) * 100.0 / double(best) : 0.0;
}

} // namespace

/// The heap of a plan for S alone in part `p`'s op order, with the bins
/// as they are at S.
llvm::Expected<int64_t>
ParametricPlanner::solvedHeapAt(size_t p, const ParametricPlan &plan,
                                int64_t s) {
  if (auto known = solvedHeaps.find({p, s}); known != solvedHeaps.end())
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
  return solvedHeaps[{p, s}] = solved->heap;
}

/// The heap `plan --chunks S` would have (ownHeaps), and its op order.
llvm::Expected<int64_t> ParametricPlanner::ownHeapAt(int64_t s) {
  if (auto known = ownHeaps.find(s); known != ownHeaps.end())
    return known->second;
  auto clone = specialiser.cloneAt(s, name + "__alone");
  if (mlir::failed(clone))
    return bundleError(PlanFailure::BadInput, "");
  llvm::DenseMap<mlir::Operation *, unsigned> position;
  for (mlir::Operation *op : currentOrder(*clone))
    position.try_emplace(op, unsigned(position.size()));
  FunctionPlanOptions aloneOptions = options;
  aloneOptions.chunk = s;
  aloneOptions.solve = quietly(options.solve);
  PlanFailure why = PlanFailure::Internal;
  // Only the heap is compared: planHeap skips the replay, the annotation
  // and the measuring solve.
  mlir::FailureOr<int64_t> alone = planHeap(*clone, aloneOptions, &why);
  std::vector<unsigned> &order = ownOrders[s];
  for (mlir::Operation *op : currentOrder(*clone))
    order.push_back(position.lookup(op));
  clone->erase();
  if (mlir::failed(alone))
    return bundleError(why, "");
  return ownHeaps[s] = *alone;
}

/// Why the plan's heap at S is too far above what S can have in the
/// piece's op order, if it is: above its lower bound there and, only where
/// that is not met, above a plan solved for S alone in that order (the
/// bound under borrowing is not always reachable, and cutting for it would
/// waste the pieces). Cheap (no MLIR): checked at every S.
llvm::Expected<std::optional<std::string>>
ParametricPlanner::farInOrder(size_t p, const ParametricPlan &plan,
                              int64_t s) {
  int64_t heap = plan.heapAt(s);
  if (!above(heap, plan.lowerBoundAt(s)))
    return std::nullopt;
  llvm::Expected<int64_t> alone = solvedHeapAt(p, plan, s);
  if (!alone)
    return alone.takeError();
  if (!above(heap, *alone))
    return std::nullopt;
  return llvm::formatv("at {0}={1} the heap, {2} bytes, is {3:F1} % above "
                       "the {4} of a plan solved for {0}={1} alone in its "
                       "op order",
                       job.chunkSymbol, s, heap, percentAbove(heap, *alone),
                       *alone)
      .str();
}

/// Why the plan's heap at S is too far above the plan `plan --chunks S`
/// makes (S alone, every technique, its own op order), if it is.
llvm::Expected<std::optional<std::string>>
ParametricPlanner::farFromOwn(const ParametricPlan &plan, int64_t s) {
  if (!options.reorder) // S alone has the piece's order: farInOrder
    return std::nullopt;
  llvm::Expected<int64_t> own = ownHeapAt(s);
  if (!own)
    return own.takeError();
  int64_t heap = plan.heapAt(s);
  if (!above(heap, *own))
    return std::nullopt;
  return llvm::formatv("at {0}={1} the heap, {2} bytes, is {3:F1} % above "
                       "the {4} of the plan for {0}={1} alone",
                       job.chunkSymbol, s, heap, percentAbove(heap, *own), *own)
      .str();
}

/// The highest S in [a, b] where farFromOwn holds, found without a plan
/// for every S alone: that plan (a solve and a reorder) was nearly all of
/// `--chunks 1..64`. Between two S where the plan is good enough and
/// reorder picks the same op order, the S in between are taken to pick
/// it too and to be as good (see docs/PARAMETRIC.md, "Pieces").
llvm::Expected<std::optional<Cut>>
ParametricPlanner::highestFarFromOwn(const ParametricPlan &plan, int64_t a,
                                     int64_t b) {
  if (a > b)
    return std::nullopt;
  llvm::Expected<std::optional<std::string>> atB = farFromOwn(plan, b);
  if (!atB)
    return atB.takeError();
  if (*atB)
    return Cut{b, std::move(**atB)};
  return farBetween(plan, a, b);
}

/// highestFarFromOwn in [a, b), farFromOwn known not to hold at b. Returns
/// something whenever it holds at a.
llvm::Expected<std::optional<Cut>>
ParametricPlanner::farBetween(const ParametricPlan &plan, int64_t a,
                              int64_t b) {
  if (a >= b)
    return std::nullopt;
  llvm::Expected<std::optional<std::string>> atA = farFromOwn(plan, a);
  if (!atA)
    return atA.takeError();
  if (b - a == 1)
    return *atA ? std::optional<Cut>(Cut{a, std::move(**atA)}) : std::nullopt;
  if (!*atA && ownOrders[a] == ownOrders[b])
    return std::nullopt;
  int64_t middle = a + (b - a) / 2;
  llvm::Expected<std::optional<Cut>> upper = farBetween(plan, middle, b);
  if (!upper || *upper)
    return upper;
  return farBetween(plan, a, middle);
}

/// Out of pieces (or outgrown at the top itself, which the reference rules
/// out): what outgrows its bin somewhere goes to the heap, the heap is
/// placed again at the top, until everything borrowed fits. Returns the
/// highest S where a borrowed buffer still outgrows its bin, if any.
llvm::Expected<std::optional<int64_t>>
ParametricPlanner::keepBorrowedInBins(Part &part, ParametricPlan &plan,
                                      int64_t top, bool lastPiece) {
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
    llvm::Expected<ParametricPlan> rebuilt = build(part, job.lo, top);
    if (!rebuilt)
      return rebuilt.takeError();
    plan = std::move(*rebuilt);
    overflow = highestOverflow(plan);
  }
  return overflow;
}

/// Where to cut [job.lo, top] (the piece above keeps cut + 1 and up), and
/// why: the highest S below the top where the plan is too far above what
/// S can have, looking down to the highest overflow; else that overflow.
llvm::Expected<std::optional<Cut>>
ParametricPlanner::cutFor(size_t p, const ParametricPlan &plan, int64_t top,
                          std::optional<int64_t> overflow) {
  std::optional<Cut> cut;
  if (overflow) {
    std::vector<uint32_t> over = overflowingAt(plan, *overflow);
    const ParametricBuffer &b = plan.buffers[over.front()];
    cut = Cut{*overflow,
              llvm::formatv("at {0}={1} borrowed buffer {2} ({3} bytes) "
                            "does not fit output {4} ({5} bytes there)",
                            job.chunkSymbol, *overflow, b.id,
                            b.size.at(*overflow), plan.bins[b.bin].output,
                            plan.bins[b.bin].capacity.at(*overflow))
                  .str()};
  }
  int64_t floor = overflow.value_or(job.lo - 1);
  for (int64_t s = top - 1; s > floor; --s) {
    llvm::Expected<std::optional<std::string>> far = farInOrder(p, plan, s);
    if (!far)
      return far.takeError();
    if (*far) {
      cut = Cut{s, std::move(**far)};
      floor = s;
      break;
    }
  }
  llvm::Expected<std::optional<Cut>> own =
      highestFarFromOwn(plan, floor + 1, top - 1);
  if (!own)
    return own.takeError();
  if (*own)
    cut = std::move(*own);
  return cut;
}

/// Pieces from the top down: a plan referenced at the piece's top (its
/// offsets and regions), cut below the highest S where a borrowed buffer
/// outgrows its bin or the heap is too far above what S can have.
llvm::Error ParametricPlanner::planPieces() {
  int64_t top = job.hi;
  while (true) {
    // The part below a cut gets a reference of its own at its top: planned
    // there with every technique, in the op order best there (the outputs'
    // sizes as they are there decide what it borrows).
    llvm::Expected<Part> made = partFor(job.lo, top);
    if (!made)
      return made.takeError();
    size_t p = parts.size();
    parts.push_back(std::move(*made));
    llvm::Expected<ParametricPlan> plan = build(parts[p], job.lo, top);
    if (!plan)
      return plan.takeError();
    bool lastPiece = pieces.size() + 1 >= job.maxPieces;
    // Out of pieces: merging those above may give some back for the rest
    // of the range, which would otherwise keep one order however bad.
    if (lastPiece && !pieces.empty()) {
      if (llvm::Error error = mergePieces())
        return error;
      lastPiece = pieces.size() + 1 >= job.maxPieces;
    }
    llvm::Expected<std::optional<int64_t>> overflow =
        keepBorrowedInBins(parts[p], *plan, top, lastPiece);
    if (!overflow)
      return overflow.takeError();
    std::optional<Cut> cut;
    if (!lastPiece) {
      llvm::Expected<std::optional<Cut>> found = cutFor(p, *plan, top, *overflow);
      if (!found)
        return found.takeError();
      cut = std::move(*found);
    }
    if (!cut) {
      pieces.push_back({job.lo, top, p, ""});
      return llvm::Error::success();
    }
    pieces.push_back({cut->at + 1, top, p, std::move(cut->why)});
    top = cut->at;
  }
}

/// Why part `p`'s plan is not good enough at some S of [lo, hi], if it
/// is not: its buffers are not the graph's there, a borrowed buffer does
/// not fit, or the heap is too far above what S can have (as the cuts are
/// decided). The S nearest `boundary` (the top of the lower of two
/// neighbours) are looked at first: that is where a plan stops fitting.
llvm::Expected<std::optional<std::string>>
ParametricPlanner::whyNotCovered(size_t p, int64_t lo, int64_t hi,
                                 int64_t boundary) {
  llvm::Expected<ParametricPlan> plan = build(parts[p], lo, hi);
  if (!plan)
    return llvm::toString(plan.takeError());
  if (std::optional<int64_t> overflow = highestOverflow(*plan))
    return llvm::formatv("at {0}={1} a borrowed buffer does not fit its "
                         "output",
                         job.chunkSymbol, *overflow)
        .str();
  std::vector<int64_t> nearestFirst;
  for (int64_t d = 0; boundary - d >= lo || boundary + 1 + d <= hi; ++d) {
    if (boundary + 1 + d <= hi)
      nearestFirst.push_back(boundary + 1 + d);
    if (boundary - d >= lo)
      nearestFirst.push_back(boundary - d);
  }
  for (int64_t s : nearestFirst) {
    llvm::Expected<std::optional<std::string>> far = farInOrder(p, *plan, s);
    if (!far || *far)
      return far;
  }
  llvm::Expected<std::optional<Cut>> own = highestFarFromOwn(*plan, lo, hi);
  if (!own)
    return own.takeError();
  if (*own)
    return std::move((*own)->why);
  // Above its top the part's buffers were never compared with the graph's.
  const Part &part = parts[p];
  specialiser.setLayout(part.positions, part.kernels);
  for (int64_t s = part.top + 1; s <= hi; ++s) {
    auto at = buffersAt(part.referenceBuffers, s, name + "__sizes");
    if (!at)
      return llvm::toString(at.takeError());
    llvm::Error differs = checkSizesAt(part, at->second, s);
    at->first.erase();
    if (differs)
      return llvm::toString(std::move(differs));
  }
  return std::nullopt;
}

/// Neighbouring pieces merged while one of their two plans covers both
/// (the lower piece's plan stretched up, or the upper's down), so that no
/// piece is left that a neighbour could absorb within the tolerance. Where
/// two stay apart, the upper one says why neither plan covers both.
llvm::Error ParametricPlanner::mergePieces() {
  for (size_t i = 0; i + 1 < pieces.size();) {
    Piece &upper = pieces[i], &lower = pieces[i + 1];
    llvm::Expected<std::optional<std::string>> down =
        whyNotCovered(upper.part, lower.lo, upper.hi, lower.hi);
    if (!down)
      return down.takeError();
    std::optional<size_t> merged;
    std::optional<std::string> up;
    if (!*down) {
      merged = upper.part;
    } else {
      llvm::Expected<std::optional<std::string>> whyUp =
          whyNotCovered(lower.part, lower.lo, upper.hi, lower.hi);
      if (!whyUp)
        return whyUp.takeError();
      up = std::move(*whyUp);
      if (!up)
        merged = lower.part;
    }
    if (!merged) {
      upper.cut = llvm::formatv("this piece's plan stretched down to {0}: "
                                "{1}; the plan below stretched up to {2}: {3}",
                                lower.lo, **down, upper.hi, *up)
                      .str();
      ++i;
      continue;
    }
    upper = Piece{lower.lo, upper.hi, *merged, std::move(lower.cut)};
    pieces.erase(pieces.begin() + i + 1);
    if (i > 0) // the piece above may now absorb the larger one
      --i;
  }
  return llvm::Error::success();
}

/// The pieces' plans, each verified at every S of its range.
llvm::Error ParametricPlanner::finishPieces() {
  for (Piece &piece : pieces) {
    llvm::Expected<ParametricPlan> plan =
        build(parts[piece.part], piece.lo, piece.hi);
    if (!plan)
      return plan.takeError();
    if (llvm::Error violation = verifyParametricPlan(*plan))
      return failedVerification(std::move(violation));
    result.pieces.push_back(std::move(*plan));
    result.cuts.push_back(std::move(piece.cut));
    pieceParts.push_back(piece.part);
  }
  return llvm::Error::success();
}

} // namespace coreai

//===- Borrow.cpp - Packing into the heap and the outputs' storage --------===//
#include "coreai-plan/Borrow.h"

#include "coreai-plan/Solve/LentRegions.h"
#include "coreai-plan/Verify.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <numeric>

namespace coreai {

namespace {

/// The buffers placed in one bin, by start time; a buffer overlapping
/// [start, end) starts after start - longest, so only those are visited.
struct BinContents {
  std::multimap<int64_t, size_t> byStart;
  int64_t longest = 0;

  void add(const Buffer &buffer, size_t index) {
    byStart.emplace(buffer.start, index);
    longest = std::max(longest, buffer.end - buffer.start);
  }
};

/// The lowest offset (a multiple of the buffer's alignment) where `buffer`
/// fits in a bin beside the buffers already placed there that overlap it
/// in time, or -1.
int64_t lowestOffset(const BufferProblem &problem, const Buffer &buffer,
                     const OutputBin &bin, const BinContents &placed,
                     const std::vector<int64_t> &offsets) {
  std::vector<std::pair<int64_t, int64_t>> taken; // [offset, end)
  for (auto it = placed.byStart.upper_bound(buffer.start - placed.longest);
       it != placed.byStart.end() && it->first < buffer.end; ++it) {
    const Buffer &o = problem.buffers[it->second];
    if (o.overlapsInTime(buffer) && o.size > 0)
      taken.push_back({offsets[it->second], offsets[it->second] + o.size});
  }
  std::sort(taken.begin(), taken.end());
  int64_t candidate = 0;
  for (auto [begin, end] : taken) {
    if (candidate + buffer.size <= begin)
      break;
    candidate = std::max(candidate, alignTo(end, buffer.alignment));
  }
  return candidate + buffer.size <= bin.capacity ? candidate : -1;
}

} // namespace

namespace {

/// One way of filling the bins: candidates in `order`, each into the
/// first bin (in closing order) with room for it at the lowest offset.
/// Returns whether every candidate found a place.
bool fillBins(const BufferProblem &problem, const std::vector<OutputBin> &bins,
              const std::vector<size_t> &binOrder,
              const std::vector<size_t> &order, BinAssignment &binOf,
              std::vector<int64_t> &offsets) {
  std::vector<BinContents> placed(bins.size());
  bool borrowedAll = true;
  for (size_t i : order) {
    const Buffer &buffer = problem.buffers[i];
    bool done = false;
    for (size_t k : binOrder) {
      if (!fitsBin(buffer, bins[k]))
        continue;
      int64_t offset =
          lowestOffset(problem, buffer, bins[k], placed[k], offsets);
      if (offset < 0)
        continue;
      offsets[i] = offset;
      binOf[i] = int32_t(k);
      placed[k].add(buffer, i);
      done = true;
      break;
    }
    borrowedAll &= done;
  }
  return borrowedAll;
}

/// Where filling the bins first left a heap above the bound: the exact
/// search over the heap and the bins together, with what is left of the
/// budget. It keeps the packing when it finds none smaller; the plan is
/// optimal when the search proves its heap minimal.
void searchRegionsTogether(const BufferProblem &problem,
                           const std::vector<OutputBin> &bins,
                           const SolveOptions &options, BorrowResult &result) {
  Plan &plan = *result.plan;
  auto begin = std::chrono::steady_clock::now();
  LentRegionsOptions regions;
  regions.deadline = *options.deadline;
  regions.nodeLimit = options.minimiseNodeLimit;
  LentRegionsResult found = minimiseWithLentOutputs(
      problem, bins, result.binOf, plan.offsets, plan.lowerBound, regions);
  if (found.heap < plan.heap) {
    plan.heap = found.heap;
    plan.offsets = std::move(found.offsets);
    result.binOf = std::move(found.binOf);
    plan.algorithm += "+lent-exact";
  }
  // The plan's bound stays the static one (explain names it); the search's
  // proof, where it has one, is `optimal`.
  plan.optimal = plan.heap <= found.low;
  plan.seconds += std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - begin)
                      .count();
}

} // namespace

BorrowResult solveWithBorrowing(const BufferProblem &problem,
                                const std::vector<OutputBin> &bins,
                                const SolveOptions &requested) {
  // One budget for every search below: each heap search takes a third of
  // what is left (most end within milliseconds, proven), the search over
  // heap and outputs together the rest.
  SolveOptions options = withShareOfBudget(requested, 1.0);
  size_t count = problem.buffers.size();
  BorrowResult result;
  int64_t bound = borrowingLowerBound(problem, bins);

  // Bins in the order they close: a buffer goes to the first that takes
  // it, leaving later bins to the buffers only they can hold.
  std::vector<size_t> binOrder(bins.size());
  std::iota(binOrder.begin(), binOrder.end(), 0);
  std::stable_sort(binOrder.begin(), binOrder.end(), [&](size_t a, size_t b) {
    return bins[a].availableUntil < bins[b].availableUntil;
  });
  std::vector<size_t> candidates;
  for (size_t i = 0; i < count; ++i)
    for (const OutputBin &bin : bins)
      if (problem.buffers[i].size > 0 && fitsBin(problem.buffers[i], bin)) {
        candidates.push_back(i);
        break;
      }
  // Largest first; among equals, two tie-breaks. The buffers that end
  // last overlap most with what must stay in the heap after the bins
  // close (a chain mm -> div -> tanh before the output's op: borrowing div
  // rather than mm keeps mm and tanh apart in the heap), so that order is
  // tried too, and the smaller heap kept.
  auto bySizeThen = [&](bool lateEndFirst) {
    std::vector<size_t> order = candidates;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const Buffer &x = problem.buffers[a];
      const Buffer &y = problem.buffers[b];
      if (x.size != y.size)
        return x.size > y.size;
      return lateEndFirst ? x.end > y.end : x.start < y.start;
    });
    return order;
  };

  for (bool lateEndFirst : {false, true}) {
    BinAssignment binOf(count, -1);
    std::vector<int64_t> offsets(count, 0);
    bool borrowedAll =
        fillBins(problem, bins, binOrder, bySizeThen(lateEndFirst), binOf,
                 offsets);
    BufferProblem heapProblem;
    heapProblem.capacity = problem.capacity;
    std::vector<size_t> inHeap;
    for (size_t i = 0; i < count; ++i)
      if (binOf[i] < 0) {
        inHeap.push_back(i);
        heapProblem.buffers.push_back(problem.buffers[i]);
      }
    SolveResult heap = solve(heapProblem, withShareOfBudget(options, 1.0 / 3));
    if (!heap.plan) {
      result.internalError = heap.internalError;
      return result;
    }
    if (result.plan && result.plan->heap <= heap.plan->heap)
      continue;
    Plan plan = *heap.plan;
    for (size_t j = 0; j < inHeap.size(); ++j)
      offsets[inHeap[j]] = heap.plan->offsets[j];
    plan.offsets = std::move(offsets);
    // With every borrowable buffer borrowed, the heap holds exactly the
    // buffers every plan must keep there: its own bound and proof carry
    // over.
    plan.lowerBound = borrowedAll ? std::max(bound, heap.plan->lowerBound)
                                  : bound;
    plan.optimal = plan.heap <= plan.lowerBound ||
                   (borrowedAll && heap.plan->optimal);
    result.plan = std::move(plan);
    result.binOf = std::move(binOf);
    if (result.plan->optimal)
      break;
  }
  if (options.algorithm == Algorithm::Best && !bins.empty() &&
      !result.plan->optimal)
    searchRegionsTogether(problem, bins, options, result);
  if (llvm::Error violation =
          verifyBorrowedPlan(problem, bins, result.binOf, *result.plan)) {
    result.internalError = "borrowed plan failed verification: " +
                           llvm::toString(std::move(violation));
    result.plan.reset();
  }
  return result;
}


} // namespace coreai

//===- Portfolio.cpp - Several greedy packings, keep the smallest ---------===//
//
// No single order wins everywhere: size-first is best on most traces, area
// or pressure first where long-lived small buffers fragment the heap. Each
// pass is O(n log n)-ish, so trying several costs little. The winner is then
// improved by iterated greedy: the buffers that reach the top of the heap
// move to the front of the order and everything is placed again.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

#include <algorithm>

namespace coreai::solvers {
namespace {

struct Candidate {
  Offsets offsets;
  std::vector<size_t> order;
  Fit fit;
  int64_t heap;
};

/// Moves the buffers that reach above `threshold` to the front of `order`
/// (keeping their relative order), so the next pass places them first.
std::vector<size_t> promoteTopBuffers(const BufferProblem &problem,
                                      const Candidate &candidate,
                                      int64_t threshold) {
  std::vector<size_t> order;
  order.reserve(candidate.order.size());
  for (size_t i : candidate.order)
    if (candidate.offsets[i] + problem.buffers[i].size > threshold)
      order.push_back(i);
  for (size_t i : candidate.order)
    if (candidate.offsets[i] + problem.buffers[i].size <= threshold)
      order.push_back(i);
  return order;
}

} // namespace

Offsets portfolio(const BufferProblem &problem, int64_t target,
                  Clock::time_point deadline) {
  using OrderFn = std::vector<size_t> (*)(const BufferProblem &);
  const std::pair<OrderFn, Fit> strategies[] = {
      {orderBySize, Fit::Lowest},      {orderBySize, Fit::Tightest},
      {orderByPressure, Fit::Lowest},  {orderByArea, Fit::Lowest},
      {orderByBreadth, Fit::Tightest}, {orderByPressure, Fit::Tightest},
      {orderByLifetime, Fit::Lowest},  {orderByArea, Fit::Tightest},
  };
  std::optional<Candidate> best;
  auto consider = [&](std::vector<size_t> order, Fit fit) {
    Offsets offsets = placeInOrder(problem, order, fit);
    int64_t heap = heapOf(problem, offsets);
    if (!best || heap < best->heap) {
      best = Candidate{std::move(offsets), std::move(order), fit, heap};
      return true;
    }
    return false;
  };
  for (const auto &[orderFn, fit] : strategies) {
    consider(orderFn(problem), fit);
    if (best->heap <= target || Clock::now() >= deadline)
      return best->offsets;
  }

  // Iterated greedy: promote the buffers touching the top band of the heap.
  // Deterministic: the sequence of orders depends only on the input; the
  // deadline only decides how many rounds run.
  for (int round = 0; round < 64 && Clock::now() < deadline; ++round) {
    if (best->heap <= target)
      break;
    int64_t band = std::max<int64_t>(1, (best->heap - target) / 2);
    Candidate from = *best;
    bool improved = false;
    for (Fit fit : {Fit::Lowest, Fit::Tightest}) {
      improved |= consider(promoteTopBuffers(problem, from, best->heap - band),
                           fit);
      if (Clock::now() >= deadline)
        break;
    }
    if (!improved)
      break;
  }
  return best->offsets;
}

} // namespace coreai::solvers

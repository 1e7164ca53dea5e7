//===- Portfolio.cpp - Several greedy packings, keep the smallest ---------===//
//
// No single order wins everywhere: size-first is best on most traces,
// peak-first or by-breadth where the heap is decided at one busy moment,
// area-first where long-lived small buffers fragment the heap. Each pass is
// O(n log n)-ish, so trying several costs little. The winner is then
// improved by iterated greedy: the buffers that reach into the top band of
// the heap move to the front of the order and everything is placed again.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

#include <algorithm>

namespace coreai::solvers {
namespace {

struct Candidate {
  Offsets offsets;
  std::vector<size_t> order;
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
  // Cheapest and most often best first: the deadline may cut the list.
  const std::pair<OrderFn, Fit> strategies[] = {
      {orderBySize, Fit::Lowest},      {orderByPeakFirst, Fit::Lowest},
      {orderByBreadth, Fit::Tightest}, {orderBySize, Fit::Tightest},
      {orderByArea, Fit::Lowest},      {orderBySizeClass, Fit::Lowest},
      {orderByLifetime, Fit::Lowest},
  };
  std::vector<Candidate> tried;
  size_t best = 0;
  auto consider = [&](std::vector<size_t> order, Fit fit) {
    Offsets offsets = placeInOrder(problem, order, fit);
    int64_t heap = heapOf(problem, offsets);
    tried.push_back(Candidate{std::move(offsets), std::move(order), heap});
    if (tried[best].heap <= heap)
      return false;
    best = tried.size() - 1;
    return true;
  };
  auto done = [&] {
    return tried[best].heap <= target || Clock::now() >= deadline;
  };
  for (const auto &[orderFn, fit] : strategies) {
    consider(orderFn(problem), fit);
    if (done())
      return tried[best].offsets;
  }

  // Iterated greedy from each strategy's packing, best first. The sequence
  // of orders depends only on the input; the deadline (a safety cap) only
  // decides how many rounds run.
  std::vector<size_t> starts(tried.size());
  for (size_t i = 0; i < starts.size(); ++i)
    starts[i] = i;
  std::stable_sort(starts.begin(), starts.end(), [&](size_t a, size_t b) {
    return tried[a].heap < tried[b].heap;
  });
  constexpr int maxRounds = 16;
  for (size_t start : starts) {
    Candidate from = tried[start];
    for (int round = 0; round < maxRounds; ++round) {
      int64_t band = std::max<int64_t>(1, (from.heap - target) / 2);
      std::vector<size_t> order =
          promoteTopBuffers(problem, from, from.heap - band);
      std::optional<Candidate> next;
      for (Fit fit : {Fit::Lowest, Fit::Tightest}) {
        if (done())
          return tried[best].offsets;
        consider(order, fit);
        if (!next || tried.back().heap < next->heap)
          next = tried.back();
      }
      if (next->heap >= from.heap)
        break;
      from = std::move(*next);
    }
  }
  return tried[best].offsets;
}

} // namespace coreai::solvers

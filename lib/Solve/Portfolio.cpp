//===- Portfolio.cpp - Several greedy packings, keep the smallest ---------===//
//
// No single order wins everywhere: size-first is best on most traces,
// peak-first or by-breadth where the heap is decided at one busy moment,
// area-first where long-lived small buffers fragment the heap. Each pass is
// O(n log n)-ish, so trying several costs little.
//
// On large traces the heap is decided by how the largest buffers interlock,
// and greedy-by-size leaves holes among them that no smaller buffer fits
// (iopddl-S: 1.7 % above the bound). So the k largest buffers are packed by
// the exact search at their own lower bound (a small problem it closes in
// milliseconds), and the rest is placed around them largest first
// (iopddl-S: 0.14 % above the bound with a core of 1024, in 0.3 s).
//
// The winner is then improved by iterated greedy: the buffers that reach
// into the top band of the heap move to the front of the order and
// everything is placed again.
//
//===----------------------------------------------------------------------===//
#include "PlacementIndex.h"
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

/// The first `k` buffers of `bySize` packed by the exact search at their own
/// lower bound, the rest placed around them in order, lowest fit. Nothing
/// if the core does not close within its node budget or the deadline passes.
std::optional<Offsets> packCoreThenRest(const BufferProblem &problem,
                                        llvm::ArrayRef<size_t> bySize,
                                        size_t k, Clock::time_point deadline) {
  BufferProblem core;
  for (size_t j = 0; j < k; ++j)
    core.buffers.push_back(problem.buffers[bySize[j]]);
  if (countTimeOverlaps(core) > maxExactOverlaps)
    return std::nullopt;
  ExactOptions options;
  options.deadline = deadline;
  // A few dives' worth: a core that needs real search is too large.
  options.nodeLimit = 16 * int64_t(k);
  ExactResult packed = searchWithinCapacity(core, lowerBound(core), options);
  if (!packed.offsets)
    return std::nullopt;
  PlacementIndex index(problem);
  Offsets offsets(problem.buffers.size(), 0);
  for (size_t j = 0; j < bySize.size(); ++j) {
    size_t i = bySize[j];
    if (j % 256 == 255 && Clock::now() >= deadline)
      return std::nullopt;
    offsets[i] = j < k ? (*packed.offsets)[j] : index.lowestFit(i);
    index.place(i, offsets[i]);
  }
  return offsets;
}

using OrderFn = std::vector<size_t> (*)(const BufferProblem &);

/// Cheapest and most often best first: the deadline may cut the list.
const std::pair<OrderFn, Fit> strategies[] = {
    {orderBySize, Fit::Lowest},
    {orderByPeakFirst, Fit::Lowest},
    {orderBySizeWeightedByLifetime, Fit::Lowest},
    {orderByBreadth, Fit::Tightest},
    {orderBySize, Fit::Tightest},
    {orderByArea, Fit::Lowest},
    {orderBySizeClass, Fit::Lowest},
    {orderByLifetime, Fit::Lowest},
};

/// The packings tried so far, the best of them, and the starts for
/// iterated greedy; portfolio() runs the passes in a fixed order.
class Portfolio {
public:
  Portfolio(const BufferProblem &problem, int64_t target,
            Clock::time_point deadline, Clock::time_point boundProbeDeadline)
      : problem(problem), target(target), deadline(deadline),
        boundProbeDeadline(boundProbeDeadline), begin(Clock::now()) {}

  Offsets run();

private:
  const Offsets &bestOffsets() const { return tried[best].offsets; }
  bool done() const {
    return tried[best].heap <= target || Clock::now() >= deadline;
  }
  void keep(Offsets offsets, std::vector<size_t> order);
  /// A start for iterated greedy as well.
  void keepAsStart(Offsets offsets, std::vector<size_t> order) {
    starts.push_back(tried.size());
    keep(std::move(offsets), std::move(order));
  }
  void consider(std::vector<size_t> order, Fit fit);
  void iterate(size_t start);
  std::vector<size_t> rankStarts() const;
  void probeBound(const std::vector<size_t> &bySize);
  void sweep(const std::vector<size_t> &bySize);
  void packLargestExactly(const std::vector<size_t> &bySize);
  void afterGreedyBySize();
  void iterateMostPromising();
  void repackTopWindows();

  const BufferProblem &problem;
  const int64_t target;
  const Clock::time_point deadline, boundProbeDeadline, begin;
  /// The bound probe found a peak too crowded for wide cores: the capacity
  /// probes (wide cores too) would fail there at every capacity.
  bool wideCoresOversized = false;
  std::vector<Candidate> tried;
  size_t best = 0;
  /// Packings iterated greedy may start from, in the order they came.
  std::vector<size_t> starts;
  std::vector<char> iterated;
};

void Portfolio::keep(Offsets offsets, std::vector<size_t> order) {
  int64_t heap = heapOf(problem, offsets);
  tried.push_back(Candidate{std::move(offsets), std::move(order), heap});
  if (tried[best].heap > heap)
    best = tried.size() - 1;
}

/// The first pass always completes: there must be a packing to return.
/// Later ones give up at the deadline.
void Portfolio::consider(std::vector<size_t> order, Fit fit) {
  std::optional<Offsets> offsets =
      tried.empty() ? placeInOrder(problem, order, fit)
                    : placeInOrder(problem, order, fit, deadline);
  if (offsets)
    keep(std::move(*offsets), std::move(order));
}

/// Iterated greedy from one packing. The sequence of orders depends only
/// on the input; the deadline (a safety cap) only decides how many rounds
/// run.
void Portfolio::iterate(size_t start) {
  constexpr int maxRounds = 16;
  Candidate from = tried[start];
  for (int round = 0; round < maxRounds; ++round) {
    int64_t band = std::max<int64_t>(1, (from.heap - target) / 2);
    std::vector<size_t> order =
        promoteTopBuffers(problem, from, from.heap - band);
    std::optional<Candidate> next;
    for (Fit fit : {Fit::Lowest, Fit::Tightest}) {
      if (done())
        return;
      size_t before = tried.size();
      consider(order, fit);
      if (tried.size() > before && (!next || tried.back().heap < next->heap))
        next = tried.back();
    }
    if (!next || next->heap >= from.heap)
      return;
    from = std::move(*next);
  }
}

/// Starts by heap; among equal heaps, the packing with the fewest buffers
/// reaching into the top band first: fewer have to move down.
std::vector<size_t> Portfolio::rankStarts() const {
  std::vector<size_t> crowding(tried.size(), 0);
  for (size_t i : starts) {
    int64_t band = std::max<int64_t>(1, (tried[i].heap - target) / 2);
    for (size_t j = 0; j < problem.buffers.size(); ++j)
      crowding[i] +=
          tried[i].offsets[j] + problem.buffers[j].size > tried[i].heap - band;
  }
  std::vector<size_t> ranked = starts;
  std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
    if (tried[a].heap != tried[b].heap)
      return tried[a].heap < tried[b].heap;
    return crowding[a] < crowding[b];
  });
  return ranked;
}

/// Peak sweeps at the target itself (docs/SOLVERS.md, "The bound probe"):
/// where they pack, the heap is proven minimal at once (random 1k buffers:
/// 0.44 s, where no search of the whole trace proves it in 10 s; random
/// 100k: 0.44 s against 1.2 s; iopddl-S_1, never proven before, in
/// 2.6 s). Where they do not, they cost what they searched (S_1's wide
/// cores: no core at all, 9 ms), and they stop at their own deadline.
void Portfolio::probeBound(const std::vector<size_t> &bySize) {
  if (Clock::now() >= boundProbeDeadline)
    return;
  // Graphs' functions repeat their layers, so their load meets the bound
  // at many moments with no slack, and a sweep between two cores fails
  // there after its restarts (0.07 s each for wide and narrow cores on
  // Gemma-3-1B at S = 1 for `generic`), while the exact search packs them
  // within a few nodes a buffer (there 2,421 nodes for 2,421 buffers; at
  // S = 32, 7,352 for 2,445). So below the size of the large traces, an
  // exact search of at most four nodes a buffer comes first (random 1k:
  // 0.05 s lost).
  if (problem.buffers.size() < 4096 &&
      countTimeOverlaps(problem) <= maxExactOverlaps) {
    ExactOptions dive;
    dive.deadline = boundProbeDeadline;
    dive.nodeLimit = 4 * int64_t(problem.buffers.size());
    ExactResult packed = searchWithinCapacity(problem, target, dive);
    if (packed.offsets) {
      keepAsStart(std::move(*packed.offsets), bySize);
      return;
    }
  }
  BoundProbe probe = packAtBoundBySweeps(problem, target, boundProbeDeadline);
  wideCoresOversized = probe.wideCoresOversized;
  if (probe.packed)
    keepAsStart(std::move(*probe.packed), bySize);
}

/// Large traces: exact cores at the load's peaks and sweeps between them
/// (PeakSweep.cpp), right after greedy-by-size, with half of what is
/// left. The first probe may take as long as that pass did or a quarter
/// of the budget, whichever is longer: on random 100k buffers at 1 s the
/// pass takes 0.45 s and the probe 0.25-0.35 s more; on pangu a probe
/// that packs takes 0.56 s of a 1 s budget whose optimum the later
/// passes reach at 0.25 s, so there it is better cut.
void Portfolio::sweep(const std::vector<size_t> &bySize) {
  Clock::time_point now = Clock::now();
  Clock::time_point first =
      std::min(deadline, now + std::max((deadline - begin) / 4, now - begin));
  Clock::time_point half = now + (deadline - now) / 2;
  int64_t before = tried[best].heap;
  Offsets packed = lowerByPeakSweeps(problem, tried[best].offsets, target,
                                     first, std::max(first, half));
  if (heapOf(problem, packed) < before)
    keepAsStart(std::move(packed), bySize);
}

/// The exact core of the largest buffers, for large traces: cores of
/// 1024, 2048, ... while they close and improve the heap (a larger core
/// leaves fewer holes to chance); if even 1024 does not close, 512 and
/// then 256.
void Portfolio::packLargestExactly(const std::vector<size_t> &bySize) {
  bool closed = false;
  for (size_t k = 1024; 4 * k <= bySize.size() && !done(); k *= 2) {
    auto offsets = packCoreThenRest(problem, bySize, k, deadline);
    if (!offsets)
      break;
    int64_t before = tried[best].heap;
    keepAsStart(std::move(*offsets), bySize);
    closed = true;
    if (tried[best].heap >= before)
      break;
  }
  for (size_t k = 512; !closed && k >= 256 && 4 * k <= bySize.size() && !done();
       k /= 2)
    if (auto offsets = packCoreThenRest(problem, bySize, k, deadline)) {
      keepAsStart(std::move(*offsets), bySize);
      closed = true;
    }
}

/// What runs right after greedy-by-size, from its order.
void Portfolio::afterGreedyBySize() {
  // A copy: `tried` grows below.
  std::vector<size_t> bySize = tried.front().order;
  if (problem.buffers.size() >= 4096) {
    probeBound(bySize);
    if (done())
      return;
    if (!wideCoresOversized)
      sweep(bySize);
    if (done())
      return;
  }
  packLargestExactly(bySize);
}

/// The slower passes can wait: iterated greedy from the most promising of
/// the fast ones first (pangu: optimal from peak-first; random 100k
/// buffers: from size weighted by lifetime).
void Portfolio::iterateMostPromising() {
  std::vector<size_t> ranked = rankStarts();
  iterated.assign(tried.size(), 0);
  iterated[ranked.front()] = 1;
  iterate(ranked.front());
}

/// Large traces: windows around the top re-packed exactly, with half of
/// what is left (WindowRepack.cpp); after every pass, since on some traces
/// a slower pass reaches the bound (iopddl-Y: by-breadth).
void Portfolio::repackTopWindows() {
  WindowRepackOptions windows;
  windows.deadline = Clock::now() + (deadline - Clock::now()) / 2;
  windows.depth = std::max<int64_t>(1, tried[best].heap / 8);
  keep(repackWindows(problem, tried[best].offsets, target, windows),
       tried[best].order);
}

Offsets Portfolio::run() {
  for (size_t s = 0; s < std::size(strategies); ++s) {
    const auto &[orderFn, fit] = strategies[s];
    size_t before = tried.size();
    consider(orderFn(problem), fit);
    if (tried.size() > before)
      starts.push_back(before);
    if (done())
      return bestOffsets();
    if (s == 0) {
      afterGreedyBySize();
      if (done())
        return bestOffsets();
    }
    if (s == 2) {
      iterateMostPromising();
      if (done())
        return bestOffsets();
    }
  }
  if (problem.buffers.size() >= 4096) {
    repackTopWindows();
    if (done())
      return bestOffsets();
  } else {
    // Smaller problems probe the bound only after every pass: on graphs'
    // functions and iopddl-G one of them reaches it within milliseconds
    // (iopddl-G: 14 ms in all, 29 ms with the probe after the first three).
    probeBound(tried.front().order);
    if (done())
      return bestOffsets();
  }
  iterated.resize(tried.size(), 0);
  for (size_t start : rankStarts()) {
    if (iterated[start])
      continue;
    iterate(start);
    if (done())
      break;
  }
  return bestOffsets();
}

} // namespace

Offsets portfolio(const BufferProblem &problem, int64_t target,
                  Clock::time_point deadline,
                  Clock::time_point boundProbeDeadline) {
  return Portfolio(problem, target, deadline, boundProbeDeadline).run();
}

} // namespace coreai::solvers

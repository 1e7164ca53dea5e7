//===- Minimise.cpp - The smallest heap by a schedule of capacity probes --===//
//
// The exact search decides "does a packing within C exist?". Minimising asks
// it at several capacities between the largest one proven infeasible + 1
// (`low`) and the best heap found (`heap`). Probes near the optimum are the
// hard ones: one just below the best heap usually finds a packing in a few
// dives, one at the lower bound either closes fast or never, and a bisection
// midpoint can be infeasible yet unprovable. A schedule that stops at the
// first probe that times out therefore leaves bytes on the table (challenging
// D and J). How hard a capacity is for the search is also erratic: on J,
// stepping down from 1041408 by 1 KiB, 1039360, 1036288, 1035264 and
// 1032192 pack in under 600 nodes, 1028096 in 35 thousand, while 1040384,
// 1034240, 1033216 and others need over 150 thousand. So several capacities
// are searched at once, each a resumable search that keeps its restarts
// (doubling node limits, so a capacity that needs many nodes gets them
// eventually), in turns by nodes spent:
//
// - the *floor* at the largest capacity not yet ruled out (half of the
//   nodes, as the old schedule gave its first probe): the lower bound is
//   often tight (9 of the 11 challenging instances; E needs 124 thousand
//   nodes there), and exhausting it raises the bound;
// - the *descent* at heap - 1 (a quarter): from the heuristics' heap it
//   walks down in big jumps, since a packing found within a slack capacity
//   usually lies far below it;
// - the *sweep* (a quarter): the midpoint of the range (bisection) and the next
//   capacities below the descent, a step apart (up to six in all; fewer on
//   large problems, whose searches hold large overlap lists), each resumed
//   when it has had the fewest nodes of the sweep.
//
// Everything a probe learns is shared through the range [low, heap): a
// packing lowers `heap`, an exhausted probe raises `low`; probes that left
// the range are dropped and the sweep takes the next capacities, keeping
// the searches (and their progress) at capacities still in it. Every heap
// is a multiple of the gcd of the sizes (and alignments above 1), so
// capacities are taken on that grid; a step is that gcd, or 1/256 of the
// range if larger. Node counts decide every turn, so the sequence of probes
// depends only on the input; the deadline is a safety cap.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

#include <algorithm>
#include <memory>
#include <numeric>

namespace coreai::solvers {
namespace {

/// One capacity probe of the exact search, resumable restart by restart.
struct Probe {
  int64_t capacity;
  ExactSearch search;
  Probe(const BufferProblem &problem, int64_t capacity,
        const ExactOptions &options)
      : capacity(capacity), search(problem, capacity, options) {}
};

} // namespace

MinimiseResult minimiseHeap(const BufferProblem &problem, Offsets start,
                            int64_t lowerBound,
                            const MinimiseOptions &options) {
  MinimiseResult result;
  result.offsets = std::move(start);
  result.heap = heapOf(problem, result.offsets);
  // Canonical offsets are sums of sizes, rounded up to alignments, so every
  // heap a probe can find or rule out is a multiple of this.
  int64_t grain = 0;
  for (const Buffer &b : problem.buffers)
    grain = std::gcd(grain, b.alignment > 1 ? std::gcd(b.size, b.alignment)
                                            : b.size);
  grain = std::max<int64_t>(grain, 1);
  auto roundUp = [&](int64_t x) { return (x + grain - 1) / grain * grain; };
  result.low = std::min(roundUp(lowerBound), result.heap);

  ExactOptions exact;
  exact.deadline = options.deadline;
  int64_t nodesSpent = 0;
  auto report = [&] {
    if (options.onProgress)
      options.onProgress(result.heap, result.low);
  };

  // Runs one restart of `probe`; true once it has settled its capacity.
  auto advance = [&](Probe &probe, int64_t &spent) {
    int64_t before = probe.search.result().nodes;
    bool running = probe.search.step();
    const ExactResult &found = probe.search.result();
    spent += found.nodes - before;
    nodesSpent += found.nodes - before;
    if (running)
      return false;
    if (found.offsets) {
      result.offsets = *found.offsets;
      result.heap = heapOf(problem, result.offsets);
      report();
    } else if (found.exhausted) {
      result.low = std::max(result.low, roundUp(probe.capacity + 1));
      report();
    }
    return true;
  };

  std::optional<Probe> descent, floorProbe;
  int64_t descentNodes = 0, floorNodes = 0, sweepNodes = 0;
  // The sweep: resumable probes at the midpoint of the range and at steps
  // below the descent, each resumed when it has had the fewest nodes.
  // Fewer on large problems, whose searches hold large overlap lists.
  std::vector<std::pair<std::unique_ptr<Probe>, int64_t>> sweep;
  size_t sweepSize = size_t(std::clamp<int64_t>(
      maxExactOverlaps / std::max<int64_t>(1, countTimeOverlaps(problem)), 1,
      options.sweepProbes));
  auto sweepTargets = [&] {
    std::vector<int64_t> targets;
    int64_t step =
        std::max(grain, (result.heap - result.low) / 256 / grain * grain);
    int64_t mid = result.low + (result.heap - result.low) / 2 / grain * grain;
    if (mid > result.low && mid < result.heap - grain)
      targets.push_back(mid);
    for (int64_t c = result.heap - grain - step;
         c > result.low && targets.size() < sweepSize; c -= step)
      if (c != mid)
        targets.push_back(c);
    return targets;
  };
  auto refreshSweep = [&] {
    std::vector<int64_t> targets = sweepTargets();
    std::vector<std::pair<std::unique_ptr<Probe>, int64_t>> kept;
    for (int64_t target : targets) {
      auto it = std::find_if(sweep.begin(), sweep.end(), [&](auto &probe) {
        return probe.first && probe.first->capacity == target;
      });
      if (it != sweep.end())
        kept.push_back(std::move(*it));
      else
        kept.emplace_back(std::make_unique<Probe>(problem, target, exact), 0);
    }
    sweep = std::move(kept);
  };
  int64_t sweptHeap = -1, sweptLow = -1;

  while (result.low < result.heap && nodesSpent < options.nodeLimit &&
         Clock::now() < options.deadline) {
    if (!descent || descent->capacity != result.heap - grain)
      descent.emplace(problem, result.heap - grain, exact);
    if (sweptHeap != result.heap || sweptLow != result.low) {
      refreshSweep();
      sweptHeap = result.heap;
      sweptLow = result.low;
    }
    // The descent covers heap - 1 itself.
    if (floorProbe && floorProbe->capacity != result.low)
      floorProbe.reset();
    if (!floorProbe && result.low < result.heap - grain)
      floorProbe.emplace(problem, result.low, exact);
    // Half of the nodes go to the floor, a quarter each to the others.
    bool sweeping = !sweep.empty();
    if (floorProbe && floorNodes <= 2 * descentNodes &&
        (!sweeping || floorNodes <= 2 * sweepNodes)) {
      if (advance(*floorProbe, floorNodes))
        floorProbe.reset();
      continue;
    }
    if (!sweeping || descentNodes <= sweepNodes) {
      if (advance(*descent, descentNodes))
        descent.reset();
      continue;
    }
    auto least = std::min_element(
        sweep.begin(), sweep.end(),
        [](auto &a, auto &b) { return a.second < b.second; });
    int64_t before = least->second;
    bool settled = advance(*least->first, least->second);
    sweepNodes += least->second - before;
    if (settled) {
      // The range moved: the refresh replaces it.
      least->first.reset();
      sweptHeap = -1;
    }
  }
  result.optimal = result.low >= result.heap;
  return result;
}

} // namespace coreai::solvers

//===- Minimise.cpp - The smallest heap by a schedule of capacity probes --===//
//
// The exact search decides "does a packing within C exist?". Minimising asks
// it at several capacities between the largest one proven infeasible + 1
// (`low`) and the best heap found (`heap`). Probes near the optimum are the
// hard ones: one just below the best heap usually finds a packing in a few
// dives, one at the lower bound either closes fast or never, and a bisection
// midpoint can be infeasible yet unprovable. A schedule that stops at the
// first probe that times out therefore leaves bytes on the table (challenging
// D and J). How hard a capacity is for the search is erratic: on J, stepping
// down from 1041408 by 1 KiB, 1039360, 1036288, 1035264 and 1032192 pack in
// under 600 nodes, 1028096 in 35 thousand, while 1040384, 1034240, 1033216
// and others need over 150 thousand. So the schedule buys many cheap tickets
// first and dearer ones later:
//
// Two kinds of probes take turns, each getting about half of the nodes:
//
// - The *descent* probe at heap - 1 keeps its restarts (doubling node
//   limits) until it finds a packing, then starts again below the new heap:
//   from the heuristics' heap it walks down in big jumps, since a packing
//   found within a slack capacity usually lies far below it.
// - *Sweep* probes in passes: a pass steps down from heap - 2 steps through
//   up to 16 capacities (a step is the gcd of the sizes and alignments, on
//   which every heap lies, or 1/256 of the range if that is larger), then
//   probes the lower bound (often tight). Every probe of a pass gets the
//   same node budget; the next pass starts again below the heap with twice
//   the budget (restarts with growing budgets: a capacity that needs many
//   nodes is reached eventually, the cheap ones early).
//
// Everything a probe learns is shared through the range [low, heap): a
// packing lowers `heap` (the descent restarts below it, the pass goes on
// below it), an exhausted probe raises `low`.
//
// Node budgets make the sequence of probes depend only on the input; the
// deadline is a safety cap.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

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

  constexpr int probesPerPass = 9;
  std::optional<Probe> descent, floorProbe, sweep;
  int64_t descentNodes = 0, floorNodes = 0, sweepNodes = 0;
  int64_t budget = options.firstProbeBudget, sweepLeft = 0;
  int passIndex = 0;
  int64_t next = result.heap; // the sweep's last step-down capacity
  auto startSweep = [&] {
    int64_t step =
        std::max(grain, (result.heap - result.low) / 256 / grain * grain);
    int64_t capacity;
    if (passIndex == 0) {
      capacity = result.low + (result.heap - result.low) / 2 / grain * grain;
    } else {
      capacity = std::min(next, result.heap - grain) - step;
      next = capacity;
    }
    if (++passIndex == probesPerPass ||
        (passIndex > 1 && capacity <= result.low)) {
      // The next pass starts with twice the budget.
      passIndex = 0;
      next = result.heap;
      if (budget <= options.nodeLimit / 2)
        budget *= 2;
    }
    sweepLeft = budget;
    if (capacity >= result.low && capacity < result.heap - grain)
      sweep.emplace(problem, capacity, exact);
  };

  while (result.low < result.heap && nodesSpent < options.nodeLimit &&
         Clock::now() < options.deadline) {
    if (!descent || descent->capacity != result.heap - grain)
      descent.emplace(problem, result.heap - grain, exact);
    if (sweep && (sweep->capacity >= result.heap - grain ||
                  sweep->capacity < result.low))
      sweep.reset();
    if (!sweep)
      startSweep();
    // The descent covers heap - 1 itself.
    if (floorProbe && floorProbe->capacity != result.low)
      floorProbe.reset();
    if (!floorProbe && result.low < result.heap - grain)
      floorProbe.emplace(problem, result.low, exact);
    // Half of the nodes go to the sweep, a quarter each to the others.
    if (floorProbe && floorNodes <= descentNodes &&
        (!sweep || 2 * floorNodes <= sweepNodes)) {
      if (advance(*floorProbe, floorNodes))
        floorProbe.reset();
      continue;
    }
    if (!sweep || 2 * descentNodes <= sweepNodes) {
      if (advance(*descent, descentNodes))
        descent.reset();
      continue;
    }
    int64_t before = sweepNodes;
    if (advance(*sweep, sweepNodes)) {
      sweep.reset();
      continue;
    }
    sweepLeft -= sweepNodes - before;
    if (sweepLeft <= 0)
      sweep.reset(); // spent without an answer: on to the next capacity
  }
  result.optimal = result.low >= result.heap;
  return result;
}

} // namespace coreai::solvers

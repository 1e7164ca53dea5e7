//===- Minimise.cpp - The smallest heap by a schedule of capacity probes --===//
//
// The exact search decides "does a packing within C exist?". Minimising asks
// it at several capacities between the largest one proven infeasible + 1
// (`low`) and the best heap found (`heap`). How hard a capacity is for the
// search is erratic and does not fall steadily towards the optimum: on
// challenging J, stepping down from 1032192 by 1 KiB, 1031168 and 1030144
// need over 60 thousand nodes, 1029120 45 thousand and 1028096 35
// thousand; on D, 1044480 needs over 100 thousand while the five capacities
// below it pack in 5 to 25 thousand. A probe that packs almost always packs
// at exactly its capacity, so the search itself never skips ahead: the
// schedule must pick the capacities. And on instances whose lower bound is
// tight (E, B) every capacity between the bound and the heuristics' heap
// can be far harder than the bound itself (E: 124 thousand nodes at the
// bound, over 60 thousand at each of eight capacities above it).
//
// So the schedule keeps three kinds of resumable probes (each keeps its
// restarts, doubling node limits, so a capacity that needs many nodes gets
// them eventually), stepped by node counts alone:
//
// - the *window*: the capacities 1..W grid steps below the heap. Each
//   gets nodes in proportion to how far below the heap it is (capped), the
//   bytes it would save: a stalled capacity just below the heap costs its
//   share and no more, and deeper ones, worth more, are not starved by it.
// - the *floor* at `low`: the only way to prove optimality, and where tight
//   instances find their optimum; it has the weight of a mid-window probe.
// - a *jump* far below the heap (2W steps at first), stepped first but
//   given up after one dive per preordering: far from the optimum
//   capacities pack in one dive and the heap walks down in doubling jumps
//   instead of one window at a time; a jump that fails halves the distance,
//   down to 2W.
//
// What a probe learns is shared through the range [low, heap): a packing
// lowers `heap`, an exhausted probe raises `low`; probes that leave the
// window are dropped, those still in it keep their progress. A new probe
// starts at the least pass (nodes per weight) of the others: it is tried at
// once (a cheap capacity is found in a dive) without first catching up on
// all the nodes the others searched, which after every improvement would
// starve the floor (B: twice the nodes to its optimum). Every heap is a
// multiple of the gcd of the sizes (and alignments above 1), so capacities
// are taken on that grid. Node counts decide every turn, so the probes
// depend only on the input; the deadline is a safety cap.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace coreai::solvers {
namespace {

/// A capacity probe of the exact search.
class ExactProbe final : public CapacityProbe {
public:
  ExactProbe(const BufferProblem &problem, int64_t capacity,
             const ExactOptions &options)
      : problem(problem), search(problem, capacity, options) {}
  bool step() override { return search.step(); }
  int64_t nodes() const override { return search.result().nodes; }
  std::optional<int64_t> foundHeap() const override {
    if (!search.result().offsets)
      return std::nullopt;
    return heapOf(problem, *search.result().offsets);
  }
  bool exhausted() const override { return search.result().exhausted; }
  const Offsets &offsets() const { return *search.result().offsets; }

private:
  const BufferProblem &problem;
  ExactSearch search;
};

} // namespace

ProbeScheduleResult
scheduleProbes(int64_t heap, int64_t low, int64_t grain,
               const ProbeScheduleOptions &options,
               llvm::function_ref<std::unique_ptr<CapacityProbe>(int64_t)>
                   makeProbe,
               llvm::function_ref<void(CapacityProbe *found, int64_t heap,
                                       int64_t low)>
                   onProgress) {
  ProbeScheduleResult result{heap, std::min(low, heap), 0};
  int64_t window = std::max<int64_t>(1, options.window);
  int64_t jumpSteps = 2 * window, failedJump = -1;
  struct Entry {
    std::unique_ptr<CapacityProbe> probe;
    /// Where the probe's turns started: the least pass of the others when
    /// it was made, so that a newcomer takes its turns among them instead
    /// of catching up on every node they searched before it existed.
    double startPass = 0;
  };
  std::map<int64_t, Entry> probes;
  while (result.low < result.heap && result.nodes < options.nodeLimit &&
         Clock::now() < options.deadline) {
    // The capacities searched now: `below(i)` is i grid steps below the
    // heap, so that an exhausted capacity c proves low = c + grain.
    int64_t top = (result.heap - 1) / grain * grain;
    auto below = [&](int64_t steps) { return top - (steps - 1) * grain; };
    while (jumpSteps > 2 * window && below(jumpSteps) <= result.low)
      jumpSteps /= 2;
    int64_t jump = below(jumpSteps);
    if (options.jumpBudget <= 0 || jump <= result.low || jump == failedJump)
      jump = -1;
    std::vector<int64_t> wanted{result.low};
    for (int64_t i = 1; i <= window && below(i) > result.low; ++i)
      wanted.push_back(below(i));
    if (jump > 0)
      wanted.push_back(jump);
    for (auto it = probes.begin(); it != probes.end();)
      it = llvm::is_contained(wanted, it->first) ? std::next(it)
                                                 : probes.erase(it);
    // A probe's pass: its nodes per weight since it started.
    auto pass = [&](int64_t capacity, const Entry &entry) {
      double weight = capacity == result.low
                          ? options.floorWeight
                          : double(std::min(options.weightCap,
                                            (top - capacity) / grain + 1));
      return entry.startPass + double(entry.probe->nodes()) / weight;
    };
    std::optional<double> leastPass;
    for (auto &[capacity, entry] : probes)
      if (capacity != jump)
        leastPass = std::min(leastPass.value_or(pass(capacity, entry)),
                             pass(capacity, entry));
    for (int64_t capacity : wanted)
      if (!probes.count(capacity))
        probes.emplace(capacity,
                       Entry{makeProbe(capacity), leastPass.value_or(0)});

    // The jump while it is cheap; otherwise the probe with the least pass,
    // the lowest capacity on ties.
    int64_t next = -1;
    if (jump > 0 && probes[jump].probe->nodes() < options.jumpBudget) {
      next = jump;
    } else {
      double least = 0;
      for (auto &[capacity, entry] : probes) {
        if (capacity == jump)
          continue;
        double load = pass(capacity, entry);
        if (next < 0 || load < least) {
          next = capacity;
          least = load;
        }
      }
    }
    CapacityProbe &probe = *probes[next].probe;
    int64_t before = probe.nodes();
    bool running = probe.step();
    result.nodes += probe.nodes() - before;
    if (running) {
      if (next == jump && probe.nodes() >= options.jumpBudget) {
        if (jumpSteps > 2 * window)
          jumpSteps /= 2;
        else
          failedJump = jump; // until the heap moves
      }
      continue;
    }
    if (std::optional<int64_t> found = probe.foundHeap()) {
      if (next == jump)
        jumpSteps *= 2;
      result.heap = std::min(result.heap, *found);
      onProgress(&probe, result.heap, result.low);
    } else if (probe.exhausted()) {
      result.low = std::max(result.low, next + grain);
      onProgress(nullptr, result.heap, result.low);
    } else {
      break; // out of time
    }
  }
  return result;
}

MinimiseResult minimiseHeap(const BufferProblem &problem, Offsets start,
                            int64_t lowerBound,
                            const MinimiseOptions &options) {
  MinimiseResult result;
  result.offsets = std::move(start);
  result.heap = heapOf(problem, result.offsets);
  int64_t grain = heapGrain(problem);
  int64_t low = (lowerBound + grain - 1) / grain * grain;

  ProbeScheduleOptions schedule;
  schedule.deadline = options.deadline;
  schedule.nodeLimit = options.nodeLimit;
  // Fewer probes on large problems, whose searches hold large overlap lists.
  schedule.window = std::clamp<int64_t>(
      maxExactOverlaps / std::max<int64_t>(1, countTimeOverlaps(problem)), 1,
      schedule.window);
  // The search's first three restarts, one per preordering (2n + 16 nodes
  // each): far above the optimum a capacity packs in one dive.
  schedule.jumpBudget = 6 * int64_t(problem.buffers.size()) + 48;
  ExactOptions exact;
  exact.deadline = options.deadline;
  ProbeScheduleResult outcome = scheduleProbes(
      result.heap, low, grain, schedule,
      [&](int64_t capacity) {
        return std::make_unique<ExactProbe>(problem, capacity, exact);
      },
      [&](CapacityProbe *found, int64_t heap, int64_t low) {
        if (found)
          result.offsets = static_cast<ExactProbe *>(found)->offsets();
        if (options.onProgress)
          options.onProgress(heap, low);
      });
  result.heap = heapOf(problem, result.offsets);
  result.low = outcome.low;
  result.nodes = outcome.nodes;
  result.optimal = result.low >= result.heap;
  return result;
}

} // namespace coreai::solvers

//===- Solvers.h - The individual packing algorithms ------------*- C++ -*-===//
//
// Internal to lib/Solve: each algorithm is a plain function from a problem to
// offsets; Solve.cpp names them, times them and verifies what they return.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_SOLVE_SOLVERS_H
#define COREAI_PLAN_LIB_SOLVE_SOLVERS_H

#include "TimeAxis.h"
#include "coreai-plan/Problem.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

namespace coreai::solvers {

using Offsets = std::vector<int64_t>;
using Clock = std::chrono::steady_clock;

/// Address ranges [begin, end) sorted and merged where they overlap or
/// touch: what a buffer must stay clear of, as few runs as possible.
template <typename Runs> void mergeSortedRuns(Runs &runs);
template <typename Runs> void sortAndMergeRuns(Runs &runs) {
  std::sort(runs.begin(), runs.end());
  mergeSortedRuns(runs);
}

/// The same for runs already sorted by their begin (ties in any order).
template <typename Runs> void mergeSortedRuns(Runs &runs) {
  if (runs.empty())
    return;
  size_t merged = 0;
  for (size_t k = 1; k < runs.size(); ++k) {
    if (runs[k].first <= runs[merged].second)
      runs[merged].second = std::max(runs[merged].second, runs[k].second);
    else
      runs[++merged] = runs[k];
  }
  runs.resize(merged + 1);
}

/// Canonical offsets are sums of sizes rounded up to alignments, so every
/// heap a packing needs (or that a search can rule out) is a multiple of
/// this: the gcd of the sizes, with the alignments above 1; at least 1.
inline int64_t heapGrain(const BufferProblem &problem) {
  int64_t grain = 0;
  for (const Buffer &b : problem.buffers)
    grain = std::gcd(grain, b.alignment > 1 ? std::gcd(b.size, b.alignment)
                                            : b.size);
  return std::max<int64_t>(grain, 1);
}

/// How a greedy pass chooses among the free gaps a buffer fits into.
enum class Fit {
  Lowest,   ///< The gap at the lowest address (first fit).
  Tightest, ///< The smallest gap that fits, lowest on ties (best fit).
};

//===- Heuristics (Greedy.cpp, BestFit.cpp) -------------------------------===//

/// Buffers end to end in input order: no reuse at all.
Offsets placeNaive(const BufferProblem &problem);

/// Places buffers one by one in `order`, each at an aligned offset where it
/// collides with no already placed buffer that is live at the same time.
Offsets placeInOrder(const BufferProblem &problem, llvm::ArrayRef<size_t> order,
                     Fit fit);
/// The same, but gives up (std::nullopt) once `deadline` has passed: the
/// clock is read every few hundred buffers, so a budget holds within a
/// fraction of a pass even on 100k buffers.
std::optional<Offsets> placeInOrder(const BufferProblem &problem,
                                    llvm::ArrayRef<size_t> order, Fit fit,
                                    Clock::time_point deadline);

/// Largest padded size first; earlier start, then input order, on ties.
std::vector<size_t> orderBySize(const BufferProblem &problem);
/// Largest size x lifetime^0.2 first: size order, with long-lived buffers
/// moved ahead of slightly larger short-lived ones.
std::vector<size_t> orderBySizeWeightedByLifetime(const BufferProblem &problem);
/// Largest size x lifetime ("area") first.
std::vector<size_t> orderByArea(const BufferProblem &problem);
/// Longest lifetime first, larger size on ties.
std::vector<size_t> orderByLifetime(const BufferProblem &problem);
/// Pisarchyk & Lee's by-breadth order: time steps by decreasing live bytes,
/// within a step its buffers by decreasing size; each buffer is taken at the
/// first step (in that order) where it is live.
std::vector<size_t> orderByBreadth(const BufferProblem &problem);
/// The buffers live at the busiest moment first (they then stack without
/// gaps there), the rest after them; by size within each group.
std::vector<size_t> orderByPeakFirst(const BufferProblem &problem);

/// Power-of-two size classes, largest first; longer lifetime first within
/// a class, so similar buffers line up in time.
std::vector<size_t> orderBySizeClass(const BufferProblem &problem);

Offsets greedyBySize(const BufferProblem &problem);
Offsets greedyByBreadth(const BufferProblem &problem);
/// XLA heap-simulator style: decreasing size (longer lifetime first on
/// ties), each buffer into the tightest gap that fits.
Offsets bestFit(const BufferProblem &problem);

//===- Portfolio (Portfolio.cpp) ------------------------------------------===//

/// The smallest-heap packing over several orderings and both fits, then
/// improved by re-placing the buffers at the peak until `deadline`.
/// Stops early once the heap reaches `target` (e.g. the lower bound).
/// Until `boundProbeDeadline` (none by default), right after the first
/// greedy pass, peak sweeps try to pack at `target` itself
/// (packAtBoundBySweeps), which may run past `deadline`.
Offsets portfolio(const BufferProblem &problem, int64_t target,
                  Clock::time_point deadline,
                  Clock::time_point boundProbeDeadline = Clock::time_point::min());

//===- Exact search (Exact.cpp) -------------------------------------------===//

struct ExactOptions {
  Clock::time_point deadline;
  /// A second, deterministic budget: the search stops (not exhausted) after
  /// this many nodes, so a driver can interleave searches reproducibly.
  int64_t nodeLimit = std::numeric_limits<int64_t>::max();
  /// The switches of the search's techniques; every one is sound on its own
  /// and the tests compare each off against on.
  bool canonicalOrder = true;
  bool dominance = true;
  bool sectionInference = true;
  bool decomposition = true;
  /// The one-machine release-date bound per section (docs/SOLVERS.md).
  bool releaseDates = true;
  /// Buffers already in place: per buffer of the problem, its offset, or
  /// -1 where the search places it (empty: it places all). The search
  /// packs the others around them, each at the lowest offset above the
  /// buffers it placed before that no fixed buffer blocks.
  std::vector<int64_t> fixedOffsets;
};

struct ExactResult {
  /// A packing within the capacity, if one was found.
  std::optional<Offsets> offsets;
  /// True when the search space was exhausted without finding one: no
  /// packing within the capacity exists.
  bool exhausted = false;
  int64_t nodes = 0;
};

/// The search for a packing within a capacity as a sequence of restarts,
/// so that a driver can interleave two searches (say at the lower bound and
/// at the capacity) without repeating work: each step() runs one more
/// restart and returns false once the search has finished (a packing found,
/// the space exhausted, or out of time or nodes).
class ExactSearch {
public:
  ExactSearch(const BufferProblem &problem, int64_t capacity,
              const ExactOptions &options);
  ~ExactSearch();
  bool step();
  const ExactResult &result() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Pairs of buffers live at the same time: the size of the exact search's
/// overlap lists.
int64_t countTimeOverlaps(const BufferProblem &problem);
/// Beyond this many pairs the search would spend the budget building its
/// lists, and such instances are far beyond what branch and bound closes.
constexpr int64_t maxExactOverlaps = 4'000'000;

/// Looks for a packing within `capacity` (branch and bound over canonical
/// solutions, after MiniMalloc, with time-connected components solved
/// separately).
ExactResult searchWithinCapacity(const BufferProblem &problem,
                                 int64_t capacity,
                                 const ExactOptions &options);

//===- Window re-packing (WindowRepack.cpp) -------------------------------===//

struct WindowRepackOptions {
  Clock::time_point deadline;
  /// The nodes of all windows' searches together, and of one window.
  int64_t nodeLimit = std::numeric_limits<int64_t>::max();
  int64_t windowNodes = 20000;
  /// Buffers in a window reaching above capacity - depth are re-packed.
  int64_t depth = 131072;
  /// Windows with more buffers to re-pack are not searched.
  int64_t maxFree = 400;
  /// How many times a window that does not pack is doubled (its margin in
  /// time and its depth) and searched again.
  int grow = 1;
  /// Once no capacity a grain below the heap packs, windows may grow that
  /// many times more.
  int maxGrow = 3;
};

/// Lowers the heap of `offsets` towards `target` by re-packing, with the
/// exact search, time windows around the buffers that reach the top, the
/// buffers crossing a window's edges fixed (docs/SOLVERS.md).
Offsets repackWindows(const BufferProblem &problem, Offsets offsets,
                      int64_t target, const WindowRepackOptions &options);

//===- Peak sweep (PeakSweep.cpp) -----------------------------------------===//

struct PeakSweepOptions {
  Clock::time_point deadline = Clock::time_point::max();
  /// Peaks: the busiest segment, then every segment with at least this
  /// share of its load that is farther than 2 x coreRadius + peakSpacing
  /// segments from the peaks already chosen, at most maxPeaks of them. A
  /// core holds the buffers live within coreRadius segments of its peak.
  double peakShare = 0.9;
  int64_t maxPeaks = 64;
  int coreRadius = 64;
  int peakSpacing = 1024;
  /// A core with more buffers is narrowed (halving its radius) first.
  int64_t maxCoreBuffers = 1024;
  int64_t coreNodes = 20000;
  /// A repair window: this many segments before the failed arrival and
  /// after it, doubled up to repairGrowth times while it does not pack.
  int repairBefore = 64;
  int repairAfter = 16;
  int repairGrowth = 2;
  int64_t repairNodes = 20000;
  /// When a sweep fails, the call starts again with one more core at the
  /// busiest segment near the failure, at most this many times.
  int extraCores = 3;
  /// When set, counts what the call did (tests check that they reach the
  /// repairs).
  struct Stats {
    int64_t cores = 0, repairs = 0, restarts = 0;
    /// Cores with more than maxCoreBuffers buffers live in their peak's
    /// own segment: no radius makes them small enough, so the call fails
    /// there at every capacity.
    int64_t oversized = 0;
  } *stats = nullptr;
};

/// A packing within `capacity` built from exact cores at the load's peaks
/// and sweeps through time between them (docs/SOLVERS.md), or nothing if a
/// core or a sweep's repair did not pack (or the deadline passed).
std::optional<Offsets> peakSweep(const BufferProblem &problem,
                                 int64_t capacity,
                                 const PeakSweepOptions &options);

/// Peak sweeps at `bound` itself: first with PeakSweepOptions' cores (64
/// segments around a peak, at most 1024 buffers), then with narrow ones
/// (16 segments, at most 4096 buffers: a busiest moment with more than
/// 1024 buffers live gets a core at all).
struct BoundProbe {
  /// A packing within the bound, if either packed before the deadline.
  std::optional<Offsets> packed;
  /// The wide cores met a peak too crowded for them: lowerByPeakSweeps
  /// (wide cores) would fail at every capacity.
  bool wideCoresOversized = false;
};
BoundProbe packAtBoundBySweeps(const BufferProblem &problem, int64_t bound,
                               Clock::time_point deadline);

/// Probes capacities between `bound` and the heap of `best` by peak sweeps
/// and returns the smallest packing found (`best` if none beats it). The
/// first probe may run until `firstDeadline`, the later ones until
/// `deadline`; three failures in a row end the probes.
Offsets lowerByPeakSweeps(const BufferProblem &problem, Offsets best,
                          int64_t bound, Clock::time_point firstDeadline,
                          Clock::time_point deadline);

/// What a sweep between the peak sweep's cores works on: the buffers, their
/// spans on the time axis (segments), the offsets placed so far (-1: not
/// yet) and the capacity.
struct SweepSpace {
  const std::vector<Buffer> &buffers;
  const std::vector<std::pair<int, int>> &spans;
  Offsets &offsets;
  int64_t capacity;
  /// Read as the sweep moves (the deadline may change between calls).
  const PeakSweepOptions &options;
};

/// Places `todo` in the order its buffers come alive (going forward in
/// time, or backward from their ends), around `obstacles` (placed buffers
/// they can meet), with exact repairs where no gap fits (Sweep.cpp). False
/// if a repair did not pack, with `failedAt` the segment where it gave up,
/// or if the deadline passed; the offsets of `todo` are then partial.
bool sweepInArrivalOrder(const SweepSpace &space, bool forward,
                         std::vector<size_t> todo,
                         std::vector<size_t> obstacles, int &failedAt);

//===- Minimise (Minimise.cpp) --------------------------------------------===//

/// One resumable search for a packing within a capacity, as the minimising
/// schedule sees it: an ExactSearch, or a stand-in in tests.
class CapacityProbe {
public:
  virtual ~CapacityProbe() = default;
  /// Runs one more restart; false once the probe has settled (a packing
  /// found, the capacity proven infeasible, or out of time).
  virtual bool step() = 0;
  /// Nodes searched so far.
  virtual int64_t nodes() const = 0;
  /// Once settled: the heap of the packing found, if one was.
  virtual std::optional<int64_t> foundHeap() const = 0;
  /// Once settled: no packing within the capacity exists.
  virtual bool exhausted() const = 0;
};

/// The knobs of the schedule (docs/SOLVERS.md, *Minimising*).
struct ProbeScheduleOptions {
  Clock::time_point deadline = Clock::time_point::max();
  /// A deterministic budget: the nodes of every probe together (the last
  /// restart may overrun it).
  int64_t nodeLimit = std::numeric_limits<int64_t>::max();
  /// How many capacities just below the heap are searched at once.
  int64_t window = 6;
  /// A window probe i grid steps below the heap weighs min(i, weightCap);
  /// the floor weighs floorWeight; nodes go to the least loaded by weight.
  int64_t weightCap = 4;
  double floorWeight = 3;
  /// Nodes a jump far below the heap may cost before it is given up;
  /// 0: no jumps.
  int64_t jumpBudget = 0;
};

struct ProbeScheduleResult {
  int64_t heap = 0;
  /// No packing below it exists.
  int64_t low = 0;
  int64_t nodes = 0;
};

/// Narrows [low, heap) by probes on the grid of multiples of `grain` (heap
/// and low are heaps the probes can find, or multiples of it): `makeProbe`
/// makes a probe at a capacity; `onProgress` hears of every packing found
/// (with its probe) and every raised `low` (with nullptr).
ProbeScheduleResult scheduleProbes(
    int64_t heap, int64_t low, int64_t grain,
    const ProbeScheduleOptions &options,
    llvm::function_ref<std::unique_ptr<CapacityProbe>(int64_t capacity)>
        makeProbe,
    llvm::function_ref<void(CapacityProbe *found, int64_t heap, int64_t low)>
        onProgress);

struct MinimiseOptions {
  Clock::time_point deadline;
  /// A deterministic budget: the nodes of every probe together.
  int64_t nodeLimit = std::numeric_limits<int64_t>::max();
  /// Called with the best heap and the proven lower bound whenever either
  /// moves. May be empty.
  std::function<void(int64_t heap, int64_t low)> onProgress;
};

struct MinimiseResult {
  Offsets offsets;
  int64_t heap = 0;
  /// No packing below it exists: the static lower bound, raised by every
  /// probe the search exhausted.
  int64_t low = 0;
  bool optimal = false;
  /// Nodes the probes searched.
  int64_t nodes = 0;
};

/// Improves `start` by exact probes at capacities between the lower bound
/// and the best heap (docs/SOLVERS.md, *Minimising*), until the heap is
/// proven optimal or the budget is spent.
MinimiseResult minimiseHeap(const BufferProblem &problem, Offsets start,
                            int64_t lowerBound, const MinimiseOptions &options);

} // namespace coreai::solvers

#endif // COREAI_PLAN_LIB_SOLVE_SOLVERS_H

//===- PeakSweep.cpp - Exact cores at the peaks, sweeps between them ------===//
//
// On a long trace the load stays well below its maximum almost everywhere
// (random 100k buffers: 0.7 % of the time steps above 90 % of the bound),
// and the heap is decided at a few isolated peaks. Greedy passes place a
// buffer by what was placed before it anywhere in time, so they leave a
// few percent of holes at every peak. Here time is the main axis instead:
//
// - At each peak (the busiest segment, then the busiest ones far enough
//   from the peaks before), the buffers live within a few dozen segments
//   of it form a *core*, packed by the exact search within the capacity
//   around the cores packed before.
// - Between two cores, the buffers are placed by two sweeps that start at
//   the cores and meet at the quietest step between them. A sweep visits
//   buffers in the order they come alive (moving away from its core); when
//   one comes alive every buffer it can collide with is either live then or
//   already placed further ahead (a core, or the other sweep's buffers), so
//   the free gaps at that moment are all that matters. Among them the sweep
//   prefers the gap next to a buffer that dies when this one does: their
//   holes then merge instead of leaving two slivers.
// - When no gap fits under the capacity, the arrivals of a window of time
//   around that moment are taken back and packed by the exact search
//   around everything else placed; a window that does not pack is tried
//   wider.
//
// A sweep that still fails makes the whole call fail: the caller then tries
// another capacity. Every decision depends on the input and node counts
// only; the deadline just cuts a call short.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace coreai::solvers {
namespace {

class PeakSweep {
public:
  /// What does not depend on the capacity, computed once for every probe
  /// and restart.
  PeakSweep(const BufferProblem &problem, const PeakSweepOptions &options)
      : buffers(problem.buffers), options(options),
        unplacedOffsets(buffers.size(), -1) {
    TimeAxis axis(problem);
    numSegments = std::max(1, axis.numSegments());
    load.assign(numSegments + 1, 0);
    spans.resize(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
      const Buffer &b = buffers[i];
      if (b.size == 0 || b.start >= b.end) {
        unplacedOffsets[i] = 0; // Collides with nothing.
        spans[i] = {0, 0};
        continue;
      }
      spans[i] = {axis.indexOf(b.start), axis.indexOf(b.end)};
      load[spans[i].first] += b.size;
      load[spans[i].second] -= b.size;
    }
    for (int s = 1; s <= numSegments; ++s)
      load[s] += load[s - 1];
    byStart.resize(buffers.size());
    std::iota(byStart.begin(), byStart.end(), 0);
    std::stable_sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) {
      return spans[a].first < spans[b].first;
    });
    for (const auto &[start, end] : spans)
      longest = std::max(longest, end - start);
  }

  /// A packing within `capacity`, or nothing (peakSweep in Solvers.h).
  std::optional<Offsets> pack(int64_t capacity);

private:
  /// One attempt with the current forced and widened cores; on a failed
  /// sweep, failedAt says where it gave up.
  std::optional<Offsets> run();
  /// The busiest segment within `radius` of `segment` that no core
  /// covers (`segment` itself if every one is covered).
  int busiestNear(int segment, int radius) const {
    int begin = std::max(0, segment - radius),
        end = std::min(numSegments, segment + radius + 1);
    int busiest = segment;
    for (int s = begin; s < end; ++s)
      if (!covered(s) && (busiest == segment || load[s] > load[busiest]))
        busiest = s;
    return busiest;
  }
  bool live(size_t i) const { return spans[i].first < spans[i].second; }
  /// Some core's range holds segment `s`.
  bool covered(int s) const {
    return llvm::any_of(coreRanges, [&](std::pair<int, int> core) {
      return core.first <= s && s < core.second;
    });
  }
  /// The placed (or the unplaced) buffers live somewhere in segments
  /// [begin, end).
  std::vector<size_t> buffersDuring(int begin, int end, bool placed) const;
  /// The placed buffers live somewhere in the span of `group` (those it
  /// may meet).
  std::vector<size_t> placedMeeting(const std::vector<size_t> &group) const {
    int spanBegin = numSegments, spanEnd = 0;
    for (size_t i : group) {
      spanBegin = std::min(spanBegin, spans[i].first);
      spanEnd = std::max(spanEnd, spans[i].second);
    }
    return buffersDuring(spanBegin, spanEnd, /*placed=*/true);
  }
  /// Packs the core around `peak`; its segment range, or nothing if it
  /// did not pack.
  std::optional<std::pair<int, int>> packCore(int peak);
  bool sweep(bool forward, std::vector<size_t> todo);
  bool timeLeft() const { return Clock::now() < options.deadline; }

  const std::vector<Buffer> &buffers;
  const PeakSweepOptions &options;
  Offsets unplacedOffsets;
  int64_t capacity = 0;
  Offsets offsets;
  int numSegments = 1;
  std::vector<int64_t> load;
  std::vector<std::pair<int, int>> spans;
  std::vector<size_t> byStart;
  int longest = 0;
  std::vector<std::pair<int, int>> coreRanges; // [from, to) segments.
  /// Where the last failed sweep gave up (a segment), or -1.
  int failedAt = -1;
  /// Peaks to core besides the chosen ones (where earlier runs failed).
  std::vector<int> forcedPeaks;
  /// Ranges of segments a core grows to cover when its peak lies in one
  /// (where earlier runs failed next to it).
  std::vector<std::pair<int, int>> widened;
};

std::vector<size_t> PeakSweep::buffersDuring(int begin, int end,
                                             bool placed) const {
  std::vector<size_t> found;
  auto first = std::lower_bound(
      byStart.begin(), byStart.end(), begin - longest,
      [&](size_t i, int s) { return spans[i].first < s; });
  for (auto it = first; it != byStart.end() && spans[*it].first < end; ++it)
    if (live(*it) && (offsets[*it] >= 0) == placed &&
        spans[*it].second > begin)
      found.push_back(*it);
  return found;
}

std::optional<std::pair<int, int>> PeakSweep::packCore(int peak) {
  // The unplaced buffers live within the radius around the peak; it
  // shrinks until they are few enough for the search.
  std::vector<size_t> core;
  int from = peak, to = peak + 1;
  for (int radius = options.coreRadius;; radius /= 2) {
    from = std::max(0, peak - radius);
    to = std::min(numSegments, peak + radius + 1);
    for (auto [begin, end] : widened)
      if (begin <= peak && peak < end) {
        from = std::min(from, begin);
        to = std::max(to, end);
      }
    core = buffersDuring(from, to, /*placed=*/false);
    if (core.size() <= size_t(options.maxCoreBuffers))
      break;
    if (radius == 0) {
      if (options.stats)
        ++options.stats->oversized;
      return std::nullopt;
    }
  }
  std::pair<int, int> range{from, to};
  if (core.empty())
    return range;
  std::vector<size_t> fixed = placedMeeting(core);
  BufferProblem window;
  ExactOptions exact;
  exact.deadline = options.deadline;
  exact.nodeLimit = options.coreNodes;
  for (size_t i : fixed) {
    window.buffers.push_back(buffers[i]);
    exact.fixedOffsets.push_back(offsets[i]);
  }
  for (size_t i : core) {
    window.buffers.push_back(buffers[i]);
    exact.fixedOffsets.push_back(-1);
  }
  if (countTimeOverlaps(window) > maxExactOverlaps)
    return std::nullopt;
  ExactResult packed = searchWithinCapacity(window, capacity, exact);
  if (!packed.offsets)
    return std::nullopt;
  for (size_t k = 0; k < core.size(); ++k)
    offsets[core[k]] = (*packed.offsets)[fixed.size() + k];
  if (options.stats)
    ++options.stats->cores;
  return range;
}

std::optional<Offsets> PeakSweep::run() {
  offsets = unplacedOffsets;
  coreRanges.clear();
  failedAt = -1;
  // Peaks, busiest first: a segment with at least peakShare of the
  // busiest load, far enough from the peaks before it that the cores stay
  // apart. Each core is packed around the ones before it.
  int64_t busiest = *std::max_element(load.begin(), load.end() - 1);
  int64_t hot = int64_t(options.peakShare * double(busiest));
  std::vector<int> bySegment;
  for (int s = 0; s < numSegments; ++s)
    if (load[s] >= hot)
      bySegment.push_back(s);
  std::stable_sort(bySegment.begin(), bySegment.end(),
                   [&](int a, int b) { return load[a] > load[b]; });
  std::vector<int> peaks;
  auto addCore = [&](int peak) {
    std::optional<std::pair<int, int>> core = packCore(peak);
    if (!core || !timeLeft())
      return false;
    coreRanges.push_back(*core);
    peaks.push_back(peak);
    return true;
  };
  for (int s : bySegment) {
    if (peaks.size() >= size_t(options.maxPeaks))
      break;
    bool farFromOthers = llvm::none_of(peaks, [&](int peak) {
      return std::abs(peak - s) <= 2 * options.coreRadius + options.peakSpacing;
    });
    if (farFromOthers && !addCore(s))
      return std::nullopt;
  }
  for (int s : forcedPeaks)
    if (!covered(s) && !addCore(s))
      return std::nullopt;
  const std::vector<std::pair<int, int>> &cores = coreRanges;
  std::vector<size_t> byPosition(peaks.size());
  std::iota(byPosition.begin(), byPosition.end(), 0);
  std::sort(byPosition.begin(), byPosition.end(),
            [&](size_t a, size_t b) { return peaks[a] < peaks[b]; });
  // Every other buffer lies between two cores (or before the first, after
  // the last), so between their peaks: those starting up to the quietest
  // segment between the cores are swept forward from the earlier core,
  // the rest backward from the later one.
  std::vector<int> valleys;
  for (size_t k = 0; k + 1 < byPosition.size(); ++k) {
    int begin = cores[byPosition[k]].second,
        end = cores[byPosition[k + 1]].first;
    valleys.push_back(begin >= end ? begin
                                   : int(std::min_element(load.begin() + begin,
                                                          load.begin() + end) -
                                         load.begin()));
  }
  std::sort(peaks.begin(), peaks.end());
  std::vector<std::vector<size_t>> forwardOf(peaks.size() + 1),
      backwardOf(peaks.size() + 1);
  for (size_t i : byStart) {
    if (offsets[i] >= 0)
      continue;
    int start = spans[i].first;
    size_t gap = std::upper_bound(peaks.begin(), peaks.end(), start) -
                 peaks.begin(); // Between peaks[gap - 1] and peaks[gap].
    bool forward = gap == peaks.size() ||
                   (gap > 0 && start <= valleys[gap - 1]);
    (forward ? forwardOf : backwardOf)[gap].push_back(i);
  }
  for (size_t gap = 0; gap <= peaks.size(); ++gap)
    if (!sweep(true, forwardOf[gap]) || !sweep(false, backwardOf[gap]))
      return std::nullopt;
  return offsets;
}

bool PeakSweep::sweep(bool forward, std::vector<size_t> todo) {
  if (todo.empty())
    return true;
  std::vector<size_t> obstacles = placedMeeting(todo);
  SweepSpace space{buffers, spans, offsets, capacity, options};
  return sweepInArrivalOrder(space, forward, std::move(todo),
                             std::move(obstacles), failedAt);
}

std::optional<Offsets> PeakSweep::pack(int64_t capacity) {
  for (const Buffer &b : buffers)
    if (b.size > capacity)
      return std::nullopt;
  this->capacity = capacity;
  // Where a sweep fails, the trace is busy too: the core next to it
  // grows over it, or a new core goes there, and the call starts again.
  forcedPeaks.clear();
  widened.clear();
  for (int attempt = 0;; ++attempt) {
    if (std::optional<Offsets> packed = run())
      return packed;
    int failed = failedAt;
    if (failed < 0 || attempt >= options.extraCores || !timeLeft())
      return std::nullopt;
    if (options.stats)
      ++options.stats->restarts;
    int reach = 2 * options.coreRadius;
    bool grew = false;
    for (auto [from, to] : coreRanges)
      if (from - reach <= failed && failed < to + reach) {
        widened.push_back({std::min(from, failed - options.coreRadius),
                           std::max(to, failed + options.coreRadius + 1)});
        grew = true;
        break;
      }
    if (!grew)
      forcedPeaks.push_back(
          busiestNear(failed, options.repairBefore << options.repairGrowth));
  }
}

} // namespace

std::optional<Offsets> peakSweep(const BufferProblem &problem,
                                 int64_t capacity,
                                 const PeakSweepOptions &options) {
  return PeakSweep(problem, options).pack(capacity);
}

BoundProbe packAtBoundBySweeps(const BufferProblem &problem, int64_t bound,
                               Clock::time_point deadline) {
  BoundProbe probe;
  PeakSweepOptions options;
  options.deadline = deadline;
  PeakSweepOptions::Stats stats;
  options.stats = &stats;
  PeakSweep sweeper(problem, options); // Reads its options as it moves.
  if (Clock::now() >= deadline)
    return probe;
  if ((probe.packed = sweeper.pack(bound)))
    return probe;
  probe.wideCoresOversized = stats.oversized > 0;
  // Narrow cores: iopddl-S_1 has 2,576 buffers live at its busiest moment,
  // so wide cores never form; at radii 4, 8, 12, 20, 24, 32, 48 and 64 (at
  // most 4096 buffers) the sweeps failed, at 16 they pack it at the bound.
  options.coreRadius = 16;
  options.maxCoreBuffers = 4096;
  if (Clock::now() < deadline)
    probe.packed = sweeper.pack(bound);
  return probe;
}

Offsets lowerByPeakSweeps(const BufferProblem &problem, Offsets best,
                          int64_t bound, Clock::time_point firstDeadline,
                          Clock::time_point deadline) {
  int64_t grain = heapGrain(problem);
  auto onGrain = [&](int64_t capacity) {
    return std::max(bound, capacity / grain * grain);
  };
  int64_t heap = heapOf(problem, best);
  // A sweep that packs usually packs far below the greedy heap (random
  // 100k buffers: down to the bound itself), so the first probe
  // goes a quarter of the way down; each success halves the gap, each
  // failure moves halfway back up. Failures are not proofs: the next
  // success restarts from the new heap.
  int64_t capacity = onGrain(bound + (heap - bound) / 4);
  PeakSweepOptions options;
  options.deadline = firstDeadline;
  // The first probe restarts no sweep: a trace that needs an extra core
  // at its first capacity is one the sweeps suit badly, and the greedy
  // passes after them are the better use of the time (pangu: its first
  // probe packed after a restart, as did every later one, 0.25 s of CPU
  // each against 0.03 s for greedy-by-size, four probes to its optimum,
  // which iterated greedy from peak-first reaches in a tenth of that).
  // Later probes restart as before (random 10k: two of eight).
  options.extraCores = 0;
  PeakSweep sweeper(problem, options); // Reads its options as it moves.
  // Three failures in a row end the probes, or the first one if none has
  // packed yet: the sweep does not suit every trace (iopddl-S and -Y get
  // no core; on pangu at 1 s the time is better spent on greedy passes).
  constexpr int maxFailures = 3;
  bool packedOnce = false;
  for (int failures = 0; failures < (packedOnce ? maxFailures : 1) &&
                         capacity < heap;) {
    std::optional<Offsets> packed = sweeper.pack(capacity);
    options.deadline = deadline;
    options.extraCores = PeakSweepOptions().extraCores;
    if (packed) {
      heap = heapOf(problem, *packed);
      best = std::move(*packed);
      packedOnce = true;
      failures = 0;
      capacity = onGrain(bound + (heap - bound) / 2);
    } else {
      ++failures;
      capacity = onGrain(capacity + (heap - capacity + grain) / 2);
    }
    if (Clock::now() >= deadline)
      break;
  }
  return best;
}

} // namespace coreai::solvers

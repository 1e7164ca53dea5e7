//===- WindowRepack.cpp - Exact re-packing of time windows at the top -----===//
//
// On large traces the heap is the maximum over many busy moments, and a
// greedy pass leaves each of them a little too high. Lowering the heap to
// a capacity C means lowering every buffer that reaches above C. For each,
// in time order, a window of time around its lifetime is packed again by
// the exact search: the buffers living entirely inside the window and
// reaching above a level below C are free, every other buffer live in the
// window stays where it is (the search packs around it). A window that
// packs within C is kept; the next buffer above C gets its window. When
// none is left the heap is at most C and the next capacity is tried; when
// a window does not pack, the step to the next capacity halves.
//
// Every decision depends on node counts only, so the result is
// deterministic for a node budget; the deadline only cuts it short.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

#include <algorithm>
#include <numeric>

namespace coreai::solvers {

Offsets repackWindows(const BufferProblem &problem, Offsets offsets,
                      int64_t target, const WindowRepackOptions &options) {
  const std::vector<Buffer> &buffers = problem.buffers;
  size_t n = buffers.size();
  int64_t grain = heapGrain(problem);
  int64_t heap = heapOf(problem, offsets);
  int64_t nodesLeft = options.nodeLimit;
  int64_t step = std::max(grain, (heap - target) / 4 / grain * grain);
  int64_t longest = 0;
  for (const Buffer &b : buffers)
    longest = std::max(longest, b.end - b.start);
  std::vector<size_t> byStart(n);
  std::iota(byStart.begin(), byStart.end(), 0);
  std::stable_sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) {
    return buffers[a].start < buffers[b].start;
  });

  std::vector<size_t> above; // The buffers above the capacity being tried.
  // Packs the window around buffer `high` within `capacity`; true if it
  // did (offsets updated).
  auto repackOnce = [&](size_t high, int64_t capacity, int grow) {
    const Buffer &h = buffers[high];
    int64_t margin = ((h.end - h.start) / 2 + 8) << grow;
    int64_t begin = h.start - margin, end = h.end + margin;
    // Buffers above the capacity that cross the window's edges would stay
    // there: the window grows to take them in.
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t i : above)
        if (buffers[i].start < end && begin < buffers[i].end &&
            (buffers[i].start < begin || end < buffers[i].end)) {
          begin = std::min(begin, buffers[i].start);
          end = std::max(end, buffers[i].end);
          grew = true;
        }
    }
    int64_t level = capacity - (options.depth << grow);
    BufferProblem window;
    std::vector<size_t> ids;
    std::vector<int64_t> fixed;
    int64_t freeBuffers = 0;
    // Only buffers starting after begin - longest can be live in the window.
    auto first = std::lower_bound(
        byStart.begin(), byStart.end(), begin - longest,
        [&](size_t i, int64_t t) { return buffers[i].start < t; });
    for (auto it = first; it != byStart.end() && buffers[*it].start < end;
         ++it) {
      size_t i = *it;
      const Buffer &b = buffers[i];
      if (b.size == 0 || b.start >= b.end || b.end <= begin || end <= b.start)
        continue;
      bool inside = begin <= b.start && b.end <= end;
      bool free = inside && offsets[i] + b.size > level;
      ids.push_back(i);
      window.buffers.push_back(b);
      fixed.push_back(free ? -1 : offsets[i]);
      freeBuffers += free;
    }
    if (freeBuffers > options.maxFree)
      return false;
    ExactOptions exact;
    exact.deadline = options.deadline;
    exact.nodeLimit = std::min(options.windowNodes, nodesLeft);
    exact.fixedOffsets = std::move(fixed);
    ExactResult packed = searchWithinCapacity(window, capacity, exact);
    nodesLeft -= packed.nodes;
    if (!packed.offsets)
      return false;
    for (size_t k = 0; k < ids.size(); ++k)
      offsets[ids[k]] = (*packed.offsets)[k];
    return true;
  };
  // A window that does not pack gets one wider in time and deeper.
  int widest = options.grow; // Raised once no capacity a grain lower packs.
  auto repack = [&](size_t high, int64_t capacity) {
    for (int grow = 0; grow <= widest; ++grow)
      if (repackOnce(high, capacity, grow))
        return true;
    return false;
  };

  while (heap > target && step >= grain && nodesLeft > 0 &&
         Clock::now() < options.deadline) {
    int64_t capacity = std::max(target, heap - step);
    above.clear();
    for (size_t i : byStart)
      if (offsets[i] + buffers[i].size > capacity)
        above.push_back(i);
    bool lowered = true;
    for (size_t i : byStart) {
      if (offsets[i] + buffers[i].size <= capacity)
        continue;
      if (nodesLeft <= 0 || Clock::now() >= options.deadline ||
          !repack(i, capacity)) {
        lowered = false;
        break;
      }
    }
    // Windows that packed stay packed: each kept every buffer within the
    // old heap, so the packing is never worse.
    heap = heapOf(problem, offsets);
    if (lowered)
      continue;
    step = step / 2 / grain * grain;
    if (step < grain && widest < options.maxGrow) {
      // Stuck: wider and deeper windows too, from a full step again.
      ++widest;
      step = std::max(grain, (heap - target) / 4 / grain * grain);
    }
  }
  return offsets;
}

} // namespace coreai::solvers

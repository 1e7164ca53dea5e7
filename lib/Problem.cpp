//===- Problem.cpp - Lower bound and heap of a buffer problem -------------===//
#include "coreai-plan/Problem.h"
#include "coreai-plan/Options.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <set>
#include <utility>

namespace coreai {

int64_t alignTo(int64_t size, int64_t alignment) {
  assert(isValidAlignment(alignment));
  return int64_t(llvm::alignTo(uint64_t(size), uint64_t(alignment)));
}

std::vector<LiveEvent> liveEvents(const BufferProblem &problem) {
  std::vector<LiveEvent> events;
  events.reserve(problem.buffers.size() * 2);
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &b = problem.buffers[i];
    if (b.start >= b.end || b.size == 0)
      continue;
    events.push_back({b.start, true, i});
    events.push_back({b.end, false, i});
  }
  std::sort(events.begin(), events.end(),
            [](const LiveEvent &a, const LiveEvent &b) {
              return a.time != b.time ? a.time < b.time : a.starts < b.starts;
            });
  return events;
}

int64_t lowerBound(const BufferProblem &problem) {
  // Buffers live at one time are disjoint in address. Every offset is a
  // multiple of the smallest alignment in the problem, so each buffer below
  // the topmost takes at least its size rounded up to that alignment; the
  // topmost takes only its size. The bound at time t is therefore the sum
  // of rounded sizes minus the largest rounding slack among those live.
  int64_t unit = 0;
  for (const Buffer &b : problem.buffers)
    unit = unit == 0 ? b.alignment : std::min(unit, b.alignment);
  std::vector<LiveEvent> events = liveEvents(problem);
  std::multiset<int64_t> slacks;
  int64_t live = 0, peak = 0;
  for (const LiveEvent &event : events) {
    const Buffer &b = problem.buffers[event.index];
    int64_t rounded = alignTo(b.size, unit);
    if (event.starts) {
      live += rounded;
      slacks.insert(rounded - b.size);
      peak = std::max(peak, live - *slacks.rbegin());
    } else {
      live -= rounded;
      slacks.erase(slacks.find(rounded - b.size));
    }
  }
  return peak;
}

int64_t heapOf(const BufferProblem &problem,
               const std::vector<int64_t> &offsets) {
  int64_t heap = 0;
  for (size_t i = 0; i < problem.buffers.size(); ++i)
    heap = std::max(heap, offsets[i] + problem.buffers[i].size);
  return heap;
}

double heapRatio(int64_t heap, int64_t lowerBound) {
  return lowerBound == 0 ? 1.0 : double(heap) / double(lowerBound);
}

double gap(int64_t heap, int64_t lowerBound) {
  return heapRatio(heap, lowerBound) - 1.0;
}

} // namespace coreai

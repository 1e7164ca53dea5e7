//===- Problem.cpp - Lower bound and heap of a buffer problem -------------===//
#include "coreai-plan/Problem.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace coreai {

int64_t alignTo(int64_t size, int64_t alignment) {
  assert(alignment > 0 && (alignment & (alignment - 1)) == 0);
  return (size + alignment - 1) & ~(alignment - 1);
}

int64_t lowerBound(const BufferProblem &problem) {
  // Sweep over interval endpoints; at equal times ends come before starts,
  // which is exactly the half-open convention.
  std::vector<std::pair<int64_t, int64_t>> events;
  events.reserve(problem.buffers.size() * 2);
  for (const Buffer &buffer : problem.buffers) {
    if (buffer.start >= buffer.end)
      continue;
    events.emplace_back(buffer.start, paddedSize(buffer));
    events.emplace_back(buffer.end, -paddedSize(buffer));
  }
  std::sort(events.begin(), events.end());
  int64_t live = 0, peak = 0;
  for (const auto &[time, delta] : events) {
    live += delta;
    peak = std::max(peak, live);
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

double gap(int64_t heap, int64_t lowerBound) {
  return lowerBound == 0 ? 1.0 : double(heap) / double(lowerBound);
}

} // namespace coreai

//===- TimeAxis.cpp - Time compressed to the problem's event times ---------===//
#include "TimeAxis.h"

#include "llvm/ADT/STLExtras.h"

namespace coreai::solvers {

TimeAxis::TimeAxis(const BufferProblem &problem) {
  times.reserve(problem.buffers.size() * 2);
  for (const Buffer &b : problem.buffers) {
    times.push_back(b.start);
    times.push_back(b.end);
  }
  sortUnique();
}

TimeAxis::TimeAxis(const BufferProblem &problem, llvm::ArrayRef<int> ids) {
  times.reserve(ids.size() * 2);
  for (int id : ids) {
    times.push_back(problem.buffers[id].start);
    times.push_back(problem.buffers[id].end);
  }
  sortUnique();
}

void TimeAxis::sortUnique() {
  llvm::sort(times);
  times.erase(std::unique(times.begin(), times.end()), times.end());
}

int TimeAxis::indexOf(int64_t t) const {
  return int(llvm::lower_bound(times, t) - times.begin());
}

} // namespace coreai::solvers

//===- TimeAxis.h - Time compressed to the problem's event times -*- C++ -*-===//
//
// Internal to lib/Solve: the greedy profile, the placement index and the
// exact search all index time by the rank of the distinct start and end
// times.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_SOLVE_TIMEAXIS_H
#define COREAI_PLAN_LIB_SOLVE_TIMEAXIS_H

#include "coreai-plan/Problem.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace coreai::solvers {

/// The problem's distinct start and end times, sorted: time t's index is
/// its rank, and segment s is [times[s], times[s + 1]). Solvers work on
/// these indices so that sparse op positions cost nothing.
struct TimeAxis {
  /// Over every buffer, or over the buffers `ids` names.
  explicit TimeAxis(const BufferProblem &problem);
  TimeAxis(const BufferProblem &problem, llvm::ArrayRef<int> ids);
  int indexOf(int64_t t) const;
  /// Segments between the distinct times (0 with fewer than two).
  int numSegments() const { return std::max(0, int(times.size()) - 1); }
  std::vector<int64_t> times;

private:
  void sortUnique();
};

} // namespace coreai::solvers

#endif // COREAI_PLAN_LIB_SOLVE_TIMEAXIS_H

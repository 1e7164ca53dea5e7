//===- LentRegions.h - The exact search over heap and lent outputs -*- C++ -*-===//
//
// Borrowing (Borrow.h) packs in two steps: first which buffers go into the
// outputs' storage, then the heap. Each step is sound, but together they are
// a heuristic: a different choice of borrowed buffers may leave a smaller
// heap. This search decides the heap and the bins together, so its answer
// is exact where it finishes. No MLIR; docs/SOLVERS.md, "Lent outputs".
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_SOLVE_LENTREGIONS_H
#define COREAI_PLAN_SOLVE_LENTREGIONS_H

#include "coreai-plan/OutputBins.h"
#include "coreai-plan/Problem.h"

#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

namespace coreai {

struct LentRegionsOptions {
  std::chrono::steady_clock::time_point deadline =
      std::chrono::steady_clock::time_point::max();
  /// The search's nodes, every capacity probe together: a budget that does
  /// not depend on the machine (tests, benchmarks).
  int64_t nodeLimit = std::numeric_limits<int64_t>::max();
};

struct LentRegionsResult {
  /// The best packing found: each buffer's region and its offset there.
  /// Never worse than the starting packing it was given.
  BinAssignment binOf;
  std::vector<int64_t> offsets;
  int64_t heap = 0;
  /// No packing into the heap and the bins has a heap below it (with the
  /// op order of the problem): the bound given, raised by every heap
  /// capacity the search exhausted.
  int64_t low = 0;
  bool optimal = false;
  int64_t nodes = 0;
};

/// Minimises the heap over every way of placing the buffers into the heap
/// and the bins at once, starting from a sound packing (`binOf`, `offsets`:
/// a borrowed plan) and a sound lower bound. Anytime: stops at the deadline
/// or node limit with the best packing so far and the bound proven so far.
LentRegionsResult minimiseWithLentOutputs(const BufferProblem &problem,
                                          const std::vector<OutputBin> &bins,
                                          const BinAssignment &binOf,
                                          const std::vector<int64_t> &offsets,
                                          int64_t lowerBound,
                                          const LentRegionsOptions &options);

} // namespace coreai

#endif // COREAI_PLAN_SOLVE_LENTREGIONS_H

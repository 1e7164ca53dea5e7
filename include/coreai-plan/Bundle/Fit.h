//===- Fit.h - Which chunk sizes fit a fixed heap ---------------*- C++ -*-===//
//
// The question a runtime with a fixed heap asks: for each entry point,
// which chunk sizes S have a planned heap within a budget, and which is the
// largest. A list of S is planned in full (heaps need not grow with S); a
// range A..B is bisected per dynamic entry point, which assumes they do.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_BUNDLE_FIT_H
#define COREAI_PLAN_BUNDLE_FIT_H

#include "coreai-plan/Bundle/Planner.h"

#include <optional>

namespace coreai {

/// The chunk sizes to try and whether they came as a range.
struct ChunkChoice {
  std::vector<int64_t> chunks;
  bool range = false;
};

/// A list `S,S,...` (parseChunkList) or a range `A..B`.
llvm::Expected<ChunkChoice> parseChunkChoice(llvm::StringRef text);

/// A range may not span more sizes than this (it is bisected, but every
/// size is a job the planner lists).
constexpr int64_t maxChunkRangeSpan = 1 << 16;

struct FitPoint {
  int64_t chunk = 0;
  int64_t heap = 0;
  int64_t lowerBound = 0;
  bool optimal = false;
  bool fits = false;
};

/// One entry point over the sizes it was tried at.
struct EntryFit {
  std::string entry;
  std::vector<FitPoint> planned; ///< sorted by S
  /// Sizes a bisection did not plan, with what monotonicity implies.
  std::vector<std::pair<int64_t, bool>> inferred;
  bool bisected = false;
  /// Answered from a parametric plan: `planned` holds every S of the
  /// range, each heap evaluated from the plan's expression.
  bool parametric = false;
  size_t candidates = 0; ///< sizes tried or inferred

  /// Every S that fits, planned or inferred, ascending.
  std::vector<int64_t> fitting() const;
  /// The first pair of planned sizes whose heap shrinks as S grows.
  std::optional<std::pair<FitPoint, FitPoint>> notMonotone() const;
};

struct BundleFit {
  int64_t budget = 0;
  std::vector<EntryFit> entries; ///< in order of first appearance
  /// The plans made on the way (only the S the question needed).
  Manifest manifest;

  bool allFit() const;
};

/// The budget a heap total leaves on `target`: the total, or the target's
/// own heap limit when that is smaller.
int64_t fitBudget(const Target &target, int64_t heapTotal);

/// Plans the entry points of `request` at the chunk sizes needed to say
/// which S fit in `budget` bytes; with `range`, dynamic entry points are
/// bisected over request.chunks (ascending, contiguous), or with
/// request.parametric planned once for the whole range and answered at
/// every S from the plan's heap expression. A heap over the
/// budget is an answer here, not an error: the request's maxHeap is
/// ignored.
llvm::Expected<BundleFit> fitBundle(PlanRequest request, int64_t budget,
                                    bool range,
                                    PlanObserver *observer = nullptr);

} // namespace coreai

#endif // COREAI_PLAN_BUNDLE_FIT_H

//===- PlacementIndex.h - Where a buffer fits among placed ones -*- C++ -*-===//
//
// Greedy packers ask, for each buffer in turn, "what is the lowest (or the
// tightest) free address range during my lifetime?". Answering by scanning
// every placed buffer that is live at the same time costs the number of
// time overlaps, which is 180 million pairs on the 62k-buffer idealloc trace.
//
// Instead the placed buffers live in a segment tree over time. A buffer is
// recorded at its O(log T) canonical nodes ("own": it covers the node's whole
// time range) and in the "sub" set of those nodes and their ancestors. A
// query's time range decomposes into canonical nodes too; the placed buffers
// live during the query are exactly those in the canonical nodes' "sub" sets
// and in the "own" sets of their ancestors. Each set is kept as a union of
// address ranges (greedy packing never removes a buffer), so a conflict at
// address `o` lets the query jump past the whole occupied run at once.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_SOLVE_PLACEMENTINDEX_H
#define COREAI_PLAN_LIB_SOLVE_PLACEMENTINDEX_H

#include "coreai-plan/Problem.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace coreai::solvers {

/// Disjoint, sorted, merged address ranges [begin, end).
class AddressUnion {
public:
  void add(int64_t begin, int64_t end);
  bool empty() const { return ranges.empty(); }
  /// The first range ending after `address`, or nullptr.
  const std::pair<int64_t, int64_t> *firstEndingAfter(int64_t address) const;

private:
  std::vector<std::pair<int64_t, int64_t>> ranges;
};

class PlacementIndex {
public:
  explicit PlacementIndex(const BufferProblem &problem);

  /// The lowest offset >= `from`, aligned for `buffer`, where it collides
  /// with no placed buffer live at the same time.
  int64_t lowestFit(size_t buffer, int64_t from = 0) const;
  /// The offset of the smallest free gap that holds `buffer` (the unbounded
  /// gap above everything counts as infinitely large); lowest on ties.
  int64_t tightestFit(size_t buffer) const;
  void place(size_t buffer, int64_t offset);

private:
  using Sets = llvm::SmallVector<const AddressUnion *, 64>;
  void collect(size_t buffer, Sets &sets) const;
  void collect(int node, int nodeBegin, int nodeEnd, int begin, int end,
               Sets &sets) const;
  void insert(int node, int nodeBegin, int nodeEnd, int begin, int end,
              int64_t offset, int64_t top);
  static int64_t lowestFit(const Sets &sets, int64_t from, int64_t size,
                           int64_t alignment);

  const BufferProblem &problem;
  /// Each buffer's lifetime as a range of elementary time segments.
  std::vector<std::pair<int, int>> segments;
  int numSegments = 0;
  std::vector<AddressUnion> own, sub;
};

} // namespace coreai::solvers

#endif // COREAI_PLAN_LIB_SOLVE_PLACEMENTINDEX_H

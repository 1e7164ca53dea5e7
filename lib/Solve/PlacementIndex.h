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
// The tree's leaves are buckets of a few time segments, each with a plain
// list of the placed buffers that only partly cover it: the tree is then
// small enough to stay in the caches, which is what a placement waits on.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_SOLVE_PLACEMENTINDEX_H
#define COREAI_PLAN_LIB_SOLVE_PLACEMENTINDEX_H

#include "coreai-plan/Problem.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace coreai::solvers {

using AddressRun = std::pair<int64_t, int64_t>;

/// Disjoint, sorted, merged address ranges [begin, end).
class AddressUnion {
public:
  void add(int64_t begin, int64_t end);
  bool empty() const { return ranges.empty(); }
  llvm::ArrayRef<AddressRun> runs() const { return ranges; }

private:
  // Most sets are one solid run: kept inline, it shares the cache line of
  // the node (see PlacementIndex::Node).
  llvm::SmallVector<AddressRun, 1> ranges;
};

/// A free gap for a buffer: the lowest offset where it fits at or above
/// some address, and where the free space there ends (kOpenTop: nothing is
/// placed above).
struct Gap {
  int64_t offset, end;
};
constexpr int64_t kOpenTop = std::numeric_limits<int64_t>::max();

/// The tightest-fit policy over gaps visited bottom up, `nextGap(from)`
/// giving the gap at or above `from`: the one leaving the least slack above
/// `size` bytes wins (the lowest on ties, an exact fit at once), the open top
/// only when nothing below fits. Bounded: fragmented address spaces could
/// have many gaps, and past a few dozen the tightest one rarely changes.
/// -1 when the bound is reached with no gap found.
template <typename NextGap> int64_t tightestGap(int64_t size, NextGap nextGap) {
  constexpr int maxGaps = 64;
  int64_t best = -1, bestSlack = kOpenTop, from = 0;
  for (int gaps = 0; gaps < maxGaps; ++gaps) {
    Gap gap = nextGap(from);
    if (gap.end == kOpenTop) {
      if (best < 0)
        best = gap.offset;
      break;
    }
    int64_t slack = gap.end - gap.offset - size;
    if (slack < bestSlack) {
      bestSlack = slack;
      best = gap.offset;
      if (slack == 0)
        break;
    }
    from = gap.end;
  }
  return best;
}

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
  /// The address runs a query must avoid: sets of the tree, and the merged
  /// runs of the partly covered buckets' lists that meet the query.
  struct Query {
    llvm::SmallVector<llvm::ArrayRef<AddressRun>, 64> sets;
    llvm::SmallVector<AddressRun, 32> bucketRuns[2];
    int buckets = 0;
  };
  void collect(size_t buffer, Query &query) const;
  void collect(int node, int nodeBegin, int nodeEnd, int begin, int end,
               Query &query) const;
  void markReads(int node, int nodeBegin, int nodeEnd, int begin, int end);
  void insert(int node, int nodeBegin, int nodeEnd, int begin, int end,
              int64_t offset, int64_t top);

  const BufferProblem &problem;
  /// Each buffer's lifetime as a range of elementary time segments.
  std::vector<std::pair<int, int>> segments;
  int numSegments = 0;
  /// Time segments per leaf of the tree.
  static constexpr int bucketWidth = 16;
  int numBuckets = 0;
  /// Both sets of a tree node in one cache line: a placement and a query
  /// visit a node for both.
  struct alignas(64) Node {
    AddressUnion own, sub;
  };
  std::vector<Node> nodes;
  /// Per node, which of its sets some query reads: `sub` where a buffer's
  /// lifetime covers the node, `own` where one only overlaps it. The
  /// queries are the problem's own buffers, so this is known up front, and
  /// sets no query reads are never filled.
  enum : uint8_t { readsSub = 1, readsOwn = 2 };
  std::vector<uint8_t> reads;
  /// Per bucket, the placed buffers that live in part of it, by offset.
  struct Partial {
    int begin, end;
    int64_t offset, top;
  };
  std::vector<std::vector<Partial>> partials;
};

} // namespace coreai::solvers

#endif // COREAI_PLAN_LIB_SOLVE_PLACEMENTINDEX_H

//===- PlacementIndex.cpp - Where a buffer fits among placed ones ---------===//
#include "PlacementIndex.h"
#include "Solvers.h"
#include "TimeAxis.h"

#include <algorithm>
#include <limits>

#include "llvm/ADT/STLExtras.h"

namespace coreai::solvers {

void AddressUnion::add(int64_t begin, int64_t end) {
  // Ranges that touch or overlap [begin, end) merge with it: a query only
  // needs to know that every address of the run is taken by someone.
  auto first = std::lower_bound(
      ranges.begin(), ranges.end(), begin,
      [](const std::pair<int64_t, int64_t> &r, int64_t b) {
        return r.second < b;
      });
  auto last = first;
  while (last != ranges.end() && last->first <= end) {
    begin = std::min(begin, last->first);
    end = std::max(end, last->second);
    ++last;
  }
  if (first == last) {
    ranges.insert(first, {begin, end});
    return;
  }
  *first = {begin, end};
  ranges.erase(first + 1, last);
}

PlacementIndex::PlacementIndex(const BufferProblem &problem)
    : problem(problem) {
  TimeAxis axis(problem);
  numSegments = std::max(1, axis.numSegments());
  segments.reserve(problem.buffers.size());
  for (const Buffer &b : problem.buffers)
    segments.emplace_back(axis.indexOf(b.start), axis.indexOf(b.end));
  numBuckets = (numSegments + bucketWidth - 1) / bucketWidth;
  nodes.resize(4 * size_t(numBuckets));
  partials.resize(numBuckets);
  reads.assign(nodes.size(), 0);
  for (auto [begin, end] : segments)
    if (begin < end)
      markReads(1, 0, numBuckets, begin, end);
}

// The tree is over buckets; a node [nodeBegin, nodeEnd) of buckets covers
// segments [nodeBegin * bucketWidth, nodeEnd * bucketWidth), and a range of
// segments [begin, end) covers it when it contains all of those.
static bool covers(int begin, int end, int nodeBegin, int nodeEnd, int width) {
  return begin <= nodeBegin * width && nodeEnd * width <= end;
}

void PlacementIndex::markReads(int node, int nodeBegin, int nodeEnd, int begin,
                               int end) {
  if (covers(begin, end, nodeBegin, nodeEnd, bucketWidth)) {
    reads[node] |= readsSub;
    return;
  }
  reads[node] |= readsOwn;
  if (nodeEnd - nodeBegin == 1)
    return;
  int mid = (nodeBegin + nodeEnd) / 2;
  if (begin < mid * bucketWidth)
    markReads(2 * node, nodeBegin, mid, begin, end);
  if (mid * bucketWidth < end)
    markReads(2 * node + 1, mid, nodeEnd, begin, end);
}

void PlacementIndex::collect(int node, int nodeBegin, int nodeEnd, int begin,
                             int end, Query &query) const {
  if (covers(begin, end, nodeBegin, nodeEnd, bucketWidth)) {
    if (!nodes[node].sub.empty())
      query.sets.push_back(nodes[node].sub.runs());
    return;
  }
  // Buffers covering this whole node are live somewhere in [begin, end).
  if (!nodes[node].own.empty())
    query.sets.push_back(nodes[node].own.runs());
  if (nodeEnd - nodeBegin == 1) {
    // A bucket the query lives in only partly: of the buffers living in
    // part of it, those that meet the query, as one merged set (they are
    // kept by offset, so merging needs no sort: greedy passes on iopddl-Y
    // spent 44 % of their time sorting them).
    auto &runs = query.bucketRuns[query.buckets++];
    runs.clear();
    for (const Partial &p : partials[nodeBegin])
      if (p.begin < end && begin < p.end)
        runs.emplace_back(p.offset, p.top);
    if (runs.empty())
      return;
    mergeSortedRuns(runs);
    query.sets.push_back(runs);
    return;
  }
  int mid = (nodeBegin + nodeEnd) / 2;
  if (begin < mid * bucketWidth)
    collect(2 * node, nodeBegin, mid, begin, end, query);
  if (mid * bucketWidth < end)
    collect(2 * node + 1, mid, nodeEnd, begin, end, query);
}

void PlacementIndex::collect(size_t buffer, Query &query) const {
  auto [begin, end] = segments[buffer];
  if (begin < end)
    collect(1, 0, numBuckets, begin, end, query);
}

void PlacementIndex::insert(int node, int nodeBegin, int nodeEnd, int begin,
                            int end, int64_t offset, int64_t top) {
  if (reads[node] & readsSub)
    nodes[node].sub.add(offset, top);
  if (covers(begin, end, nodeBegin, nodeEnd, bucketWidth)) {
    if (reads[node] & readsOwn)
      nodes[node].own.add(offset, top);
    return;
  }
  if (nodeEnd - nodeBegin == 1) {
    std::vector<Partial> &bucket = partials[nodeBegin];
    bucket.insert(std::upper_bound(bucket.begin(), bucket.end(), offset,
                                   [](int64_t offset, const Partial &p) {
                                     return offset < p.offset;
                                   }),
                  {begin, end, offset, top});
    return;
  }
  int mid = (nodeBegin + nodeEnd) / 2;
  if (begin < mid * bucketWidth)
    insert(2 * node, nodeBegin, mid, begin, end, offset, top);
  if (mid * bucketWidth < end)
    insert(2 * node + 1, mid, nodeEnd, begin, end, offset, top);
}

void PlacementIndex::place(size_t buffer, int64_t offset) {
  auto [begin, end] = segments[buffer];
  const Buffer &b = problem.buffers[buffer];
  if (begin < end && b.size > 0)
    insert(1, 0, numBuckets, begin, end, offset, offset + b.size);
}

namespace {

int64_t alignUp(int64_t offset, int64_t alignment) {
  // Offsets here are non-negative and alignments powers of two.
  return (offset + alignment - 1) & ~(alignment - 1);
}

/// One query's walk over the sets' runs. Within a query the offset only
/// grows, so each set keeps a cursor at its first run ending after the
/// offset and moves it forward instead of searching the whole set again at
/// every check (a placement checks each set about five times).
class RunCursors {
public:
  using Run = std::pair<int64_t, int64_t>;
  explicit RunCursors(llvm::ArrayRef<llvm::ArrayRef<AddressRun>> sets) {
    for (llvm::ArrayRef<AddressRun> set : sets)
      cursors.push_back({set.data(), set.data() + set.size()});
  }

  /// The first run of set `i` ending after `offset` (nullptr if none), for
  /// offsets no lower than any asked before.
  const Run *firstEndingAfter(size_t i, int64_t offset) {
    Cursor &c = cursors[i];
    // A few steps usually reach it; a long skip is searched.
    for (int step = 0; step < 4; ++step) {
      if (c.at == c.end || c.at->second > offset)
        return c.at == c.end ? nullptr : c.at;
      ++c.at;
    }
    c.at = std::upper_bound(c.at, c.end, offset,
                            [](int64_t a, const Run &r) { return a < r.second; });
    return c.at == c.end ? nullptr : c.at;
  }

  /// The lowest offset >= `from` (and >= every offset asked before),
  /// aligned, where [offset, offset + size) meets no run of any set.
  int64_t lowestFit(int64_t from, int64_t size, int64_t alignment) {
    int64_t offset = alignUp(from, alignment);
    if (size == 0 || cursors.empty())
      return offset;
    // Round-robin over the sets until a full round finds no collision; every
    // jump skips addresses that provably collide, so the result is the
    // lowest.
    size_t clean = 0, i = 0, n = cursors.size();
    while (clean < n) {
      const Run *run = firstEndingAfter(i, offset);
      if (run && run->first < offset + size) {
        offset = alignUp(run->second, alignment);
        clean = 0;
        continue;
      }
      ++clean;
      i = i + 1 == n ? 0 : i + 1;
    }
    return offset;
  }

  size_t size() const { return cursors.size(); }

private:
  struct Cursor {
    const Run *at, *end;
  };
  llvm::SmallVector<Cursor, 64> cursors;
};

} // namespace

int64_t PlacementIndex::lowestFit(size_t buffer, int64_t from) const {
  Query query;
  collect(buffer, query);
  const Buffer &b = problem.buffers[buffer];
  return RunCursors(query.sets).lowestFit(from, b.size, b.alignment);
}

int64_t PlacementIndex::tightestFit(size_t buffer) const {
  Query query;
  collect(buffer, query);
  const Buffer &b = problem.buffers[buffer];
  // Gaps are visited bottom up, so one set of cursors serves the whole scan.
  RunCursors cursors(query.sets);
  int64_t best = tightestGap(b.size, [&](int64_t from) {
    Gap gap{cursors.lowestFit(from, b.size, b.alignment), kOpenTop};
    for (size_t i = 0; i < cursors.size(); ++i)
      if (const auto *run = cursors.firstEndingAfter(i, gap.offset))
        gap.end = std::min(gap.end, run->first);
    return gap;
  });
  if (best < 0) // Gap budget exhausted: fall back to first fit.
    best = RunCursors(query.sets).lowestFit(0, b.size, b.alignment);
  return best;
}

} // namespace coreai::solvers

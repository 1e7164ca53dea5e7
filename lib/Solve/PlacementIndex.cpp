//===- PlacementIndex.cpp - Where a buffer fits among placed ones ---------===//
#include "PlacementIndex.h"
#include "TimeAxis.h"

#include <algorithm>
#include <limits>

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

const std::pair<int64_t, int64_t> *
AddressUnion::firstEndingAfter(int64_t address) const {
  auto it = std::upper_bound(
      ranges.begin(), ranges.end(), address,
      [](int64_t a, const std::pair<int64_t, int64_t> &r) {
        return a < r.second;
      });
  return it == ranges.end() ? nullptr : &*it;
}

PlacementIndex::PlacementIndex(const BufferProblem &problem)
    : problem(problem) {
  TimeAxis axis(problem);
  numSegments = std::max(1, axis.numSegments());
  segments.reserve(problem.buffers.size());
  for (const Buffer &b : problem.buffers)
    segments.emplace_back(axis.indexOf(b.start), axis.indexOf(b.end));
  own.resize(4 * size_t(numSegments));
  sub.resize(4 * size_t(numSegments));
}

void PlacementIndex::collect(int node, int nodeBegin, int nodeEnd, int begin,
                             int end, Sets &sets) const {
  if (begin <= nodeBegin && nodeEnd <= end) {
    if (!sub[node].empty())
      sets.push_back(&sub[node]);
    return;
  }
  // Buffers covering this whole node are live somewhere in [begin, end).
  if (!own[node].empty())
    sets.push_back(&own[node]);
  int mid = (nodeBegin + nodeEnd) / 2;
  if (begin < mid)
    collect(2 * node, nodeBegin, mid, begin, end, sets);
  if (mid < end)
    collect(2 * node + 1, mid, nodeEnd, begin, end, sets);
}

void PlacementIndex::collect(size_t buffer, Sets &sets) const {
  auto [begin, end] = segments[buffer];
  if (begin < end)
    collect(1, 0, numSegments, begin, end, sets);
}

void PlacementIndex::insert(int node, int nodeBegin, int nodeEnd, int begin,
                            int end, int64_t offset, int64_t top) {
  sub[node].add(offset, top);
  if (begin <= nodeBegin && nodeEnd <= end) {
    own[node].add(offset, top);
    return;
  }
  int mid = (nodeBegin + nodeEnd) / 2;
  if (begin < mid)
    insert(2 * node, nodeBegin, mid, begin, end, offset, top);
  if (mid < end)
    insert(2 * node + 1, mid, nodeEnd, begin, end, offset, top);
}

void PlacementIndex::place(size_t buffer, int64_t offset) {
  auto [begin, end] = segments[buffer];
  const Buffer &b = problem.buffers[buffer];
  if (begin < end && b.size > 0)
    insert(1, 0, numSegments, begin, end, offset, offset + b.size);
}

int64_t PlacementIndex::lowestFit(const Sets &sets, int64_t from,
                                  int64_t size, int64_t alignment) {
  int64_t offset = alignTo(from, alignment);
  if (size == 0)
    return offset;
  // Round-robin over the sets until a full round finds no collision; every
  // jump skips addresses that provably collide, so the result is the lowest.
  size_t clean = 0, i = 0;
  while (clean < sets.size()) {
    const auto *run = sets[i]->firstEndingAfter(offset);
    if (run && run->first < offset + size) {
      offset = alignTo(run->second, alignment);
      clean = 0;
      continue;
    }
    ++clean;
    i = (i + 1) % sets.size();
  }
  return offset;
}

int64_t PlacementIndex::lowestFit(size_t buffer, int64_t from) const {
  Sets sets;
  collect(buffer, sets);
  const Buffer &b = problem.buffers[buffer];
  return lowestFit(sets, from, b.size, b.alignment);
}

int64_t PlacementIndex::tightestFit(size_t buffer) const {
  Sets sets;
  collect(buffer, sets);
  const Buffer &b = problem.buffers[buffer];
  constexpr int64_t unbounded = std::numeric_limits<int64_t>::max();
  // Bounded scan: fragmented address spaces could have many gaps, and past a
  // few dozen the tightest one rarely changes.
  constexpr int maxGaps = 64;
  int64_t best = -1, bestSlack = unbounded;
  int64_t from = 0;
  for (int gaps = 0; gaps < maxGaps; ++gaps) {
    int64_t offset = lowestFit(sets, from, b.size, b.alignment);
    int64_t gapEnd = unbounded;
    for (const AddressUnion *set : sets)
      if (const auto *run = set->firstEndingAfter(offset))
        gapEnd = std::min(gapEnd, run->first);
    if (gapEnd == unbounded) {
      if (best < 0)
        best = offset;
      break;
    }
    int64_t slack = gapEnd - offset - b.size;
    if (slack < bestSlack) {
      bestSlack = slack;
      best = offset;
      if (slack == 0)
        break;
    }
    from = gapEnd;
  }
  if (best < 0) // Gap budget exhausted: fall back to first fit.
    best = lowestFit(sets, 0, b.size, b.alignment);
  return best;
}

} // namespace coreai::solvers

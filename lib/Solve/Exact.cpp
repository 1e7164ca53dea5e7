//===- Exact.cpp - Branch and bound over canonical packings ---------------===//
//
// Decides whether the buffers fit into a capacity, after MiniMalloc (Moffitt,
// ASPLOS 2023). The techniques, each sound on its own (docs/SOLVERS.md):
//
// - Canonical solutions. Any packing can be pushed down until every buffer
//   rests on a time-overlapping buffer or on 0; listed by offset, each buffer
//   then sits exactly at the highest top among the overlapping buffers before
//   it. So the search only picks which buffer comes next; its offset follows.
//   Picks are made in non-decreasing (offset, preorder) order, so every
//   packing is generated at most once.
// - Dominance. Placing b at or above min(offset + size) of some unplaced c
//   leaves room for c below b: c could be placed first, so skip b.
// - Hatless pruning. If the buffer b just tried overlaps no unplaced buffer,
//   its earliest offset can never rise again; every later candidate sorts
//   after b, and canonical order then forbids placing b at all. So when b's
//   subtree fails, the remaining candidates of this node fail too.
// - Section inference. Time is cut into sections at every endpoint. Buffers
//   still to place in a section are pairwise live together and all go above
//   max(section floor, last offset): if that plus their sizes exceeds the
//   capacity, prune. A section's floor is also at least the lowest earliest
//   offset of its unplaced buffers. Where anything changed, the sharper
//   bound of one machine with release dates (each buffer no lower than its
//   earliest offset) must fit too.
// - Decomposition. When no unplaced buffer crosses a section boundary, the two
//   sides no longer interact and are solved one after the other.
//
// Restarts with doubling node limits rotate through three static orderings
// (TLZ, TAW, TWA), since one ordering often finds in milliseconds
// what another misses for minutes. Only a run that ends below its node
// limit counts as exhausted.
//
// The state per section (floors, loads, earliest offsets) and the bounds
// over it are in ExactSections.cpp; ExactSearch.h declares the search.
//
//===----------------------------------------------------------------------===//
#include "ExactSearch.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <numeric>
#include <optional>

namespace coreai::solvers {
namespace exact {
namespace {

// Measured one at a time on the challenging set (nodes to a packing at
// 1048576): TLZ packs A, D, E, I, J and K, TAW packs B and C, TWA (one of
// MiniMalloc's three) A and E; WAT and AWT pack nothing the others miss.
// Each restart level tries them in this order.
const Preordering preorderings[] = {"TLZ", "TAW", "TWA"};
constexpr size_t numPreorderings = std::size(preorderings);

} // namespace

Status Search::searchNode(const Partition &partition,
                          const std::vector<int> &pre,
                          const std::vector<int> &candidates,
                          int64_t lastOffset, int lastRank, int depth) {
  ++nodes;
  if (--nodesLeft < 0)
    return Status::Aborted;
  // A node sorts its candidates: even on small problems it costs far more
  // than a clock read every 16 nodes.
  if (nodes >= options.nodeLimit ||
      ((nodes & 15) == 0 && Clock::now() >= options.deadline))
    timedOut = true;
  if (timedOut)
    return Status::Aborted;

  // The unplaced buffers, every one a candidate of the nodes below.
  std::vector<int> &unplaced = scratch[depth];
  unplaced.clear();
  int64_t lowestTop = std::numeric_limits<int64_t>::max();
  for (int rank : candidates) {
    int b = pre[rank];
    if (offset[b] < 0) {
      unplaced.push_back(rank);
      lowestTop = std::min(lowestTop, minOffset[b] + size[b]);
    }
  }
  if (unplaced.empty())
    return Status::Found;
  // Every unplaced buffer goes at or above the next offset (canonical
  // order), so the busiest section's load must fit above it.
  int64_t heaviest = 0;
  bool loadCut = options.canonicalOrder && options.sectionInference;
  if (loadCut)
    for (int s = partition.sectionBegin; s < partition.sectionEnd; ++s)
      if (maximal[s])
        heaviest = std::max(heaviest, total[s]);
  // This node's branches, by (earliest offset, rank in the preordering).
  // The cuts below depend on a candidate alone, and those on its offset
  // only grow with it, so dropping every candidate they cut before sorting
  // leaves the branches, and their order, as they were; most candidates
  // are cut (dominance), and sorting them all was a fifth of the search.
  std::vector<int> &order = branches[depth];
  order.clear();
  for (int rank : unplaced) {
    int b = pre[rank];
    int64_t at = minOffset[b];
    if (options.canonicalOrder &&
        (at < lastOffset || (at == lastOffset && rank < lastRank)))
      continue;
    if (options.dominance && at >= lowestTop)
      continue;
    if (loadCut && at + heaviest > capacity)
      continue;
    if (at + size[b] > capacity)
      continue;
    order.push_back(rank);
  }
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    int64_t ox = minOffset[pre[x]], oy = minOffset[pre[y]];
    return ox != oy ? ox < oy : x < y;
  });

  for (size_t k = 0; k < order.size(); ++k) {
    int rank = order[k];
    int b = pre[rank];
    int64_t at = minOffset[b];
    size_t mark = place(b, at);
    // Every buffer on the path that succeeds is recorded last, so stale
    // entries from failed branches are always overwritten.
    solution[b] = at;
    Status status = Status::NotFound;
    if (consistent(partition, b, at))
      status = options.decomposition
                   ? decomposeAndSearch(partition, pre, unplaced, at, rank,
                                        b, depth + 1)
                   : searchNode(partition, pre, unplaced, at, rank,
                                depth + 1);
    unplace(b, mark);
    if (status != Status::NotFound)
      return status;
    if (options.dominance) {
      bool hatless = true;
      for (int other : overlaps[b])
        hatless &= offset[other] >= 0;
      if (hatless)
        break;
    }
  }
  return Status::NotFound;
}

std::vector<Partition> Search::split(const Partition &partition,
                                     const std::vector<int> &cutpoints) const {
  std::vector<Partition> parts;
  int begin = partition.sectionBegin;
  auto close = [&](int end) {
    Partition part;
    part.sectionBegin = begin;
    part.sectionEnd = end;
    for (int b : partition.buffers)
      if (offset[b] < 0 && sectionBegin[b] < end && begin < sectionEnd[b])
        part.buffers.push_back(b);
    if (!part.buffers.empty())
      parts.push_back(std::move(part));
    begin = end;
  };
  for (int cut : cutpoints)
    close(cut);
  close(partition.sectionEnd);
  return parts;
}

Status Search::decomposeAndSearch(const Partition &partition,
                                  const std::vector<int> &pre,
                                  const std::vector<int> &candidates,
                                  int64_t lastOffset, int lastRank,
                                  int placed, int depth) {
  // `place` already decremented the crossing counts; boundaries inside the
  // placed buffer's lifetime that no unplaced buffer crosses any more split
  // the partition.
  std::vector<int> cutpoints;
  for (int s = sectionBegin[placed]; s + 1 < sectionEnd[placed]; ++s)
    if (crossing[s] == 0)
      cutpoints.push_back(s + 1);
  if (cutpoints.empty())
    return searchNode(partition, pre, candidates, lastOffset, lastRank, depth);
  for (const Partition &part : split(partition, cutpoints)) {
    Status status = solvePartition(part, depth);
    if (status != Status::Found)
      return status;
  }
  return Status::Found;
}

Status Search::solvePartition(const Partition &partition, int depth) {
  int n = int(partition.buffers.size());
  std::vector<int64_t> peakTotal(n, 0);
  for (int k = 0; k < n; ++k) {
    int b = partition.buffers[k];
    for (int s = sectionBegin[b]; s < sectionEnd[b]; ++s)
      peakTotal[k] = std::max(peakTotal[k], total[s]);
  }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int k, char c) -> long double {
    int b = partition.buffers[k];
    int64_t width = sectionEnd[b] - sectionBegin[b];
    switch (c) {
    case 'W':
      return width;
    case 'A':
      return (long double)size[b] * lifetime[b];
    case 'T':
      return peakTotal[k];
    case 'L':
      return lifetime[b];
    case 'S':
      return -problem.buffers[ids[b]].start;
    case 'E':
      return problem.buffers[ids[b]].end;
    default:
      return size[b];
    }
  };
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    for (const char *c = preordering; *c; ++c) {
      long double kx = key(x, *c), ky = key(y, *c);
      if (kx != ky)
        return kx > ky;
    }
    return false;
  });
  std::vector<int> pre(n), candidates(n);
  for (int r = 0; r < n; ++r)
    pre[r] = partition.buffers[order[r]];
  std::iota(candidates.begin(), candidates.end(), 0);
  return searchNode(partition, pre, candidates, 0, 0, depth);
}

bool Search::step() {
  if (finished || timedOut) {
    finished = true;
    return false;
  }
  if (!started) {
    started = true;
    Partition all;
    all.buffers.resize(size.size());
    std::iota(all.buffers.begin(), all.buffers.end(), 0);
    all.sectionBegin = 0;
    all.sectionEnd = numSections;
    // Independent time components first: each is searched on its own.
    std::vector<int> cutpoints;
    if (options.decomposition)
      for (int s = 0; s + 1 < numSections; ++s)
        if (crossing[s] == 0)
          cutpoints.push_back(s + 1);
    parts = split(all, cutpoints);
    if (!parts.empty())
      limit = 2 * int64_t(parts[0].buffers.size()) + 16;
  }
  if (partIndex < parts.size()) {
    if (timedOut) {
      finished = true;
      return false;
    }
    const Partition &part = parts[partIndex];
    preordering = preorderings[preorderingIndex];
    nodesLeft = limit;
    Status status = solvePartition(part, 0);
    outcome.nodes = nodes;
    if (status == Status::NotFound) {
      outcome.exhausted = true;
      finished = true;
      return false;
    }
    if (status == Status::Aborted) {
      // Only a run that ends below its node limit proves anything; the
      // next one tries another ordering, or all again with twice the limit.
      if (timedOut)
        finished = true;
      else if (++preorderingIndex == numPreorderings) {
        preorderingIndex = 0;
        limit *= 2;
      }
      return !finished;
    }
    if (++partIndex < parts.size()) {
      preorderingIndex = 0;
      limit = 2 * int64_t(parts[partIndex].buffers.size()) + 16;
      return true;
    }
  }
  Offsets offsets(problem.buffers.size(), 0);
  for (size_t i = 0; i < options.fixedOffsets.size(); ++i)
    offsets[i] = std::max<int64_t>(0, options.fixedOffsets[i]);
  for (size_t i = 0; i < ids.size(); ++i)
    offsets[ids[i]] = solution[i];
  outcome.offsets = std::move(offsets);
  finished = true;
  return false;
}

} // namespace exact

struct ExactSearch::Impl {
  std::optional<exact::Search> search;
  ExactResult oversized; // A buffer larger than the capacity: no packing.
};

ExactSearch::ExactSearch(const BufferProblem &problem, int64_t capacity,
                         const ExactOptions &options)
    : impl(std::make_unique<Impl>()) {
  // Buffers that occupy no byte at no time need only fit the capacity.
  std::vector<int> ids;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &b = problem.buffers[i];
    if (!options.fixedOffsets.empty() && options.fixedOffsets[i] >= 0)
      continue;
    if (b.size > capacity) {
      impl->oversized.exhausted = true;
      return;
    }
    if (b.size > 0 && b.start < b.end)
      ids.push_back(int(i));
  }
  impl->search.emplace(problem, std::move(ids), capacity, options);
}

ExactSearch::~ExactSearch() = default;

bool ExactSearch::step() { return impl->search && impl->search->step(); }

const ExactResult &ExactSearch::result() const {
  return impl->search ? impl->search->result() : impl->oversized;
}

int64_t countTimeOverlaps(const BufferProblem &problem) {
  std::vector<std::pair<int64_t, int>> events;
  for (const Buffer &b : problem.buffers)
    if (b.start < b.end) {
      events.emplace_back(b.start, 1);
      events.emplace_back(b.end, -1);
    }
  // Ends sort before starts at the same time: those buffers do not meet.
  std::sort(events.begin(), events.end());
  int64_t live = 0, pairs = 0;
  for (auto [time, delta] : events) {
    if (delta > 0)
      pairs += live;
    live += delta;
  }
  return pairs;
}

ExactResult searchWithinCapacity(const BufferProblem &problem,
                                 int64_t capacity,
                                 const ExactOptions &options) {
  ExactSearch search(problem, capacity, options);
  while (search.step()) {
  }
  return search.result();
}

} // namespace coreai::solvers

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
//===----------------------------------------------------------------------===//
#include "Solvers.h"

#include <algorithm>
#include <limits>
#include <iterator>
#include <numeric>
#include <optional>

namespace coreai::solvers {
namespace {

enum class Status { Found, NotFound, Aborted };

struct Partition {
  std::vector<int> buffers;
  int sectionBegin = 0, sectionEnd = 0;
};

/// A static preordering: a string of keys compared in turn, all descending.
/// W: sections spanned, A: area (size x lifetime), T: the most bytes live in
/// any of its sections, Z: size.
using Preordering = const char *;

class Search {
public:
  Search(const BufferProblem &problem, std::vector<int> ids, int64_t capacity,
         const ExactOptions &options);
  /// Runs the next restart (one preordering under one node limit) on the
  /// current independent component; false once the search has finished.
  bool step();
  const ExactResult &result() const { return outcome; }

private:
  Status solvePartition(const Partition &partition, int depth);
  Status searchNode(const Partition &partition, const std::vector<int> &pre,
                    const std::vector<int> &candidates, int64_t lastOffset,
                    int lastRank, int depth);
  Status decomposeAndSearch(const Partition &partition,
                            const std::vector<int> &pre,
                            const std::vector<int> &candidates,
                            int64_t lastOffset, int lastRank, int placed,
                            int depth);
  bool consistent(const Partition &partition, int placed, int64_t lastOffset);
  bool releaseBoundFits(int s, int64_t lastOffset);
  int64_t highestFloor(int begin, int end) const;
  std::vector<Partition> split(const Partition &partition,
                               const std::vector<int> &cutpoints) const;

  size_t place(int b, int64_t offset);
  void unplace(int b, size_t mark);

  const BufferProblem &problem;
  std::vector<int> ids; // search index -> problem index
  int64_t capacity;
  ExactOptions options;

  std::vector<int64_t> size, alignment, lifetime;
  /// Each buffer lives in sections [sectionBegin, sectionEnd).
  std::vector<int> sectionBegin, sectionEnd;
  std::vector<std::vector<int>> overlaps;
  /// Per section its buffers, the unplaced ones first: place() swaps a
  /// buffer behind the unplaced prefix, unplace() (last in, first out)
  /// just regrows the prefix over it.
  std::vector<std::vector<int>> sectionBuffers;
  std::vector<int> unplacedCount;
  /// Where buffer b sits in sectionBuffers[s]: slot[slotBase[b] + s -
  /// sectionBegin[b]].
  std::vector<int> slot, slotBase;
  /// Sections whose buffers are not all live in a neighbouring section too.
  /// Only these need bounds: where every buffer of s continues into s+1,
  /// s+1 has the same unplaced buffers with the same release dates plus
  /// more, and a floor at least as high (placed ones continue too), so its
  /// bounds are at least s's. Sections that only gain buffers on the left
  /// and lose them on the right are the maximal cliques of the interval
  /// graph, typically a third of the sections.
  std::vector<char> maximal;
  /// Per section, the sections any of its buffers lives in: every earliest
  /// offset there is at most the highest floor of that span (aligned).
  std::vector<int> spanBegin, spanEnd;
  /// The highest floor per block of `blockSize` sections, so that the span
  /// maximum costs a few reads instead of a scan of the section's buffers.
  static constexpr int blockSize = 8;
  std::vector<int64_t> blockFloor;
  int64_t maxAlignment = 1;
  int numSections = 0;
  /// Per buffer, the merged address runs of the fixed buffers live with it
  /// (options.fixedOffsets); empty when nothing is fixed.
  std::vector<std::vector<std::pair<int64_t, int64_t>>> blocked;
  bool hasFixed = false;
  /// The lowest offset >= `from`, aligned, where buffer b meets no fixed
  /// buffer.
  int64_t clearOfFixed(int b, int64_t from) const;

  std::vector<int64_t> offset, minOffset, solution;
  /// Per section: the highest top of a placed buffer, and the bytes of its
  /// unplaced buffers.
  std::vector<int64_t> floor, total;
  std::vector<int> crossing; // unplaced buffers crossing boundary s | s+1

  /// Old values of every floor and earliest offset that place() changed,
  /// undone in reverse by unplace(): no allocation per node.
  std::vector<std::pair<int64_t *, int64_t>> trail;
  /// The sections whose floor, load or release dates the last place()
  /// changed: one contiguous range, since every buffer whose earliest
  /// offset rose overlaps the placed one in time.
  int touchedBegin = 0, touchedEnd = 0;
  /// Candidate lists, one per depth, reused across nodes.
  std::vector<std::vector<int>> scratch;
  std::vector<std::pair<int64_t, int64_t>> releases;
  int64_t nodes = 0, nodesLeft = 0;
  bool timedOut = false;
  Preordering preordering = "WAT";

  // Where step() is in the restart sequence.
  bool started = false, finished = false;
  std::vector<Partition> parts;
  size_t partIndex = 0;
  int64_t limit = 0;
  size_t preorderingIndex = 0;
  ExactResult outcome;
};

// Measured one at a time on the challenging set (nodes to a packing at
// 1048576): TLZ packs A, D, E, I, J and K, TAW packs B and C, TWA (one of
// MiniMalloc's three) A and E; WAT and AWT pack nothing the others miss.
// Each restart level tries them in this order.
const Preordering preorderings[] = {"TLZ", "TAW", "TWA"};
constexpr size_t numPreorderings = std::size(preorderings);

Search::Search(const BufferProblem &problem, std::vector<int> ids,
               int64_t capacity, const ExactOptions &options)
    : problem(problem), ids(std::move(ids)), capacity(capacity),
      options(options) {
  int n = int(this->ids.size());
  TimeAxis axis(problem, this->ids);
  numSections = axis.numSegments();
  sectionBuffers.resize(numSections);
  floor.assign(numSections, 0);
  total.assign(numSections, 0);
  crossing.assign(std::max(0, numSections - 1), 0);
  for (int id : this->ids) {
    const Buffer &b = problem.buffers[id];
    int i = int(size.size());
    size.push_back(b.size);
    alignment.push_back(b.alignment);
    lifetime.push_back(b.end - b.start);
    sectionBegin.push_back(axis.indexOf(b.start));
    sectionEnd.push_back(axis.indexOf(b.end));
    for (int s = sectionBegin[i]; s < sectionEnd[i]; ++s) {
      sectionBuffers[s].push_back(i);
      total[s] += b.size;
      if (s + 1 < sectionEnd[i])
        ++crossing[s];
    }
  }
  // Overlap lists from a sweep over starts: a buffer overlaps exactly the
  // buffers live in its first section that started earlier, plus those that
  // start later inside its lifetime.
  overlaps.resize(n);
  for (int s = 0; s < numSections; ++s) {
    // Millions of pairs take a while: the budget holds here too (a search
    // that ran out of time before it began finds nothing, proves nothing).
    if (s % 64 == 63 && Clock::now() >= options.deadline) {
      timedOut = true;
      break;
    }
    for (int i : sectionBuffers[s])
      if (sectionBegin[i] == s)
        for (int j : sectionBuffers[s])
          if (j != i && (sectionBegin[j] < s || j < i)) {
            overlaps[i].push_back(j);
            overlaps[j].push_back(i);
          }
  }
  offset.assign(n, -1);
  minOffset.assign(n, 0);
  solution.assign(n, -1);
  if (!options.fixedOffsets.empty()) {
    blocked.resize(n);
    for (size_t j = 0; j < problem.buffers.size(); ++j) {
      const Buffer &fixed = problem.buffers[j];
      if (options.fixedOffsets[j] < 0 || fixed.size == 0 ||
          fixed.start >= fixed.end)
        continue;
      for (int i = 0; i < n; ++i)
        if (problem.buffers[this->ids[i]].overlapsInTime(fixed))
          blocked[i].emplace_back(options.fixedOffsets[j],
                                  options.fixedOffsets[j] + fixed.size);
    }
    for (int i = 0; i < n; ++i) {
      hasFixed |= !blocked[i].empty();
      sortAndMergeRuns(blocked[i]);
      minOffset[i] = clearOfFixed(i, 0);
    }
  }
  unplacedCount.resize(numSections);
  maximal.assign(numSections, 0);
  std::vector<char> startsHere(numSections, 0), endsHere(numSections, 0);
  for (int i = 0; i < n; ++i) {
    startsHere[sectionBegin[i]] = 1;
    endsHere[sectionEnd[i] - 1] = 1;
  }
  for (int s = 0; s < numSections; ++s)
    maximal[s] = startsHere[s] && endsHere[s];
  spanBegin.resize(numSections);
  spanEnd.resize(numSections);
  for (int s = 0; s < numSections; ++s) {
    spanBegin[s] = s;
    spanEnd[s] = s + 1;
    for (int i : sectionBuffers[s]) {
      spanBegin[s] = std::min(spanBegin[s], sectionBegin[i]);
      spanEnd[s] = std::max(spanEnd[s], sectionEnd[i]);
    }
  }
  blockFloor.assign(numSections / blockSize + 1, 0);
  for (int64_t a : alignment)
    maxAlignment = std::max(maxAlignment, a);
  slotBase.resize(n);
  for (int i = 0; i < n; ++i) {
    slotBase[i] = int(slot.size());
    slot.resize(slot.size() + size_t(sectionEnd[i] - sectionBegin[i]));
  }
  for (int s = 0; s < numSections; ++s) {
    unplacedCount[s] = int(sectionBuffers[s].size());
    for (int k = 0; k < unplacedCount[s]; ++k) {
      int i = sectionBuffers[s][k];
      slot[slotBase[i] + s - sectionBegin[i]] = k;
    }
  }
  // A path places each buffer once, and a nested partition's search goes
  // one level deeper than the node that split it.
  scratch.resize(n + 2);
}

int64_t Search::clearOfFixed(int b, int64_t from) const {
  int64_t at = alignTo(from, alignment[b]);
  if (!hasFixed)
    return at;
  const auto &runs = blocked[b];
  auto run = std::upper_bound(
      runs.begin(), runs.end(), at,
      [](int64_t a, const std::pair<int64_t, int64_t> &r) {
        return a < r.second;
      });
  for (; run != runs.end() && run->first < at + size[b]; ++run)
    at = alignTo(run->second, alignment[b]);
  return at;
}

size_t Search::place(int b, int64_t at) {
  size_t mark = trail.size();
  offset[b] = at;
  int64_t top = at + size[b];
  for (int s = sectionBegin[b]; s < sectionEnd[b]; ++s) {
    trail.emplace_back(&floor[s], floor[s]);
    floor[s] = top;
    total[s] -= size[b];
    if (s + 1 < sectionEnd[b])
      --crossing[s];
    int &mine = slot[slotBase[b] + s - sectionBegin[b]];
    int last = --unplacedCount[s];
    int moved = sectionBuffers[s][last];
    std::swap(sectionBuffers[s][mine], sectionBuffers[s][last]);
    slot[slotBase[moved] + s - sectionBegin[moved]] = mine;
    mine = last;
  }
  // The new floor is above every old floor in these sections.
  for (int k = sectionBegin[b] / blockSize; k <= (sectionEnd[b] - 1) / blockSize;
       ++k)
    if (blockFloor[k] < top) {
      trail.emplace_back(&blockFloor[k], blockFloor[k]);
      blockFloor[k] = top;
    }
  touchedBegin = sectionBegin[b];
  touchedEnd = sectionEnd[b];
  for (int other : overlaps[b]) {
    if (offset[other] >= 0 || minOffset[other] >= top)
      continue;
    trail.emplace_back(&minOffset[other], minOffset[other]);
    minOffset[other] = clearOfFixed(other, top);
    touchedBegin = std::min(touchedBegin, sectionBegin[other]);
    touchedEnd = std::max(touchedEnd, sectionEnd[other]);
  }
  return mark;
}

void Search::unplace(int b, size_t mark) {
  while (trail.size() > mark) {
    *trail.back().first = trail.back().second;
    trail.pop_back();
  }
  for (int s = sectionBegin[b]; s < sectionEnd[b]; ++s) {
    total[s] += size[b];
    if (s + 1 < sectionEnd[b])
      ++crossing[s];
    ++unplacedCount[s];
  }
  offset[b] = -1;
}

/// The unplaced buffers of a section are pairwise disjoint in address and
/// each goes at or above its earliest offset and above the section's floor
/// (in canonical order, also at or above the last offset placed). So they
/// need at least the makespan of one machine with release dates: the
/// largest r + (bytes released at r or later) over release dates r, the
/// floor counting as the release of every buffer below it. Three of those
/// thresholds are checked: the floor, the lowest release above it and the
/// highest. (Checking every threshold needs a sort and, measured on the
/// challenging set, prunes in about one call in three thousand.)
bool Search::releaseBoundFits(int s, int64_t lastOffset) {
  int64_t level = floor[s];
  if (options.canonicalOrder)
    level = std::max(level, lastOffset);
  if (level + total[s] > capacity)
    return false;
  // Without a scan: no earliest offset in the section exceeds the span's
  // highest floor, aligned.
  // (Fixed buffers can lift an earliest offset above every floor.)
  int64_t bound = alignTo(highestFloor(spanBegin[s], spanEnd[s]), maxAlignment);
  if (!hasFixed && (bound <= level || bound + total[s] <= capacity))
    return true;
  int64_t above = 0, lowest = std::numeric_limits<int64_t>::max(),
          highest = level, atHighest = 0;
  for (int k = 0, n = unplacedCount[s]; k < n; ++k) {
    int other = sectionBuffers[s][k];
    int64_t release = minOffset[other];
    if (release <= level)
      continue;
    above += size[other];
    lowest = std::min(lowest, release);
    if (release > highest) {
      highest = release;
      atHighest = 0;
    }
    if (release == highest)
      atHighest += size[other];
  }
  return above == 0 ||
         (lowest + above <= capacity && highest + atHighest <= capacity);
}

int64_t Search::highestFloor(int begin, int end) const {
  int64_t highest = 0;
  int s = begin;
  for (; s < end && s % blockSize != 0; ++s)
    highest = std::max(highest, floor[s]);
  for (; s + blockSize <= end; s += blockSize)
    highest = std::max(highest, blockFloor[s / blockSize]);
  for (; s < end; ++s)
    highest = std::max(highest, floor[s]);
  return highest;
}

bool Search::consistent(const Partition &partition, int placed,
                        int64_t lastOffset) {
  if (!options.sectionInference && !options.releaseDates)
    return true;
  // With canonical order, searchNode's cut (offset + the largest section
  // load) already covers floor + load everywhere: sections the placed
  // buffer misses kept both, and in its own sections top + the rest equals
  // offset + the load before. Without it, check every section.
  if (!options.canonicalOrder && options.sectionInference)
    for (int s = partition.sectionBegin; s < partition.sectionEnd; ++s)
      if (maximal[s] && floor[s] + total[s] > capacity)
        return false;
  if (!options.releaseDates)
    return true;
  auto fits = [&](int begin, int end) {
    for (int s = std::max(begin, partition.sectionBegin);
         s < std::min(end, partition.sectionEnd); ++s)
      if (maximal[s] && total[s] > 0 && !releaseBoundFits(s, lastOffset))
        return false;
    return true;
  };
  return fits(touchedBegin, sectionBegin[placed]) &&
         fits(sectionEnd[placed], touchedEnd) &&
         fits(sectionBegin[placed], sectionEnd[placed]);
}

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

  // Unplaced buffers by (earliest offset, rank in the preordering).
  std::vector<int> &order = scratch[depth];
  order.clear();
  for (int rank : candidates)
    if (offset[pre[rank]] < 0)
      order.push_back(rank);
  if (order.empty())
    return Status::Found;
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    int64_t ox = minOffset[pre[x]], oy = minOffset[pre[y]];
    return ox != oy ? ox < oy : x < y;
  });
  int64_t lowestTop = std::numeric_limits<int64_t>::max();
  for (int rank : order)
    lowestTop = std::min(lowestTop, minOffset[pre[rank]] + size[pre[rank]]);
  // Every unplaced buffer goes at or above the next offset (canonical
  // order), so the busiest section's load must fit above it.
  int64_t heaviest = 0;
  bool loadCut = options.canonicalOrder && options.sectionInference;
  if (loadCut)
    for (int s = partition.sectionBegin; s < partition.sectionEnd; ++s)
      if (maximal[s])
        heaviest = std::max(heaviest, total[s]);

  for (size_t k = 0; k < order.size(); ++k) {
    int rank = order[k];
    int b = pre[rank];
    int64_t at = minOffset[b];
    if (options.canonicalOrder &&
        (at < lastOffset || (at == lastOffset && rank < lastRank)))
      continue;
    // Candidates come by increasing offset: once one is cut by an offset
    // bound, so is every later one.
    if (options.dominance && at >= lowestTop)
      break;
    if (loadCut && at + heaviest > capacity)
      break;
    if (at + size[b] > capacity)
      continue;
    size_t mark = place(b, at);
    // Every buffer on the path that succeeds is recorded last, so stale
    // entries from failed branches are always overwritten.
    solution[b] = at;
    Status status = Status::NotFound;
    if (consistent(partition, b, at))
      status = options.decomposition
                   ? decomposeAndSearch(partition, pre, order, at, rank, b,
                                        depth + 1)
                   : searchNode(partition, pre, order, at, rank, depth + 1);
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

} // namespace

struct ExactSearch::Impl {
  std::optional<Search> search;
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

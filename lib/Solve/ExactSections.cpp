//===- ExactSections.cpp - The exact search's state per section -----------===//
//
// The state ExactSearch.h's Search keeps as buffers are placed and taken
// back: time cut into sections at every endpoint, per section its floor
// (the highest top placed), its unplaced bytes and buffers, per buffer its
// earliest offset; and the bounds that prune on them (section inference,
// release dates). Exact.cpp says why each is sound.
//
//===----------------------------------------------------------------------===//
#include "ExactSearch.h"

#include <algorithm>
#include <limits>

namespace coreai::solvers::exact {

Search::Search(const BufferProblem &problem, std::vector<int> ids,
               int64_t capacity, const ExactOptions &options)
    : problem(problem), ids(std::move(ids)), capacity(capacity),
      options(options) {
  int n = int(this->ids.size());
  indexSections(TimeAxis(problem, this->ids));
  findOverlaps();
  offset.assign(n, -1);
  minOffset.assign(n, 0);
  solution.assign(n, -1);
  if (!options.fixedOffsets.empty())
    blockFixedBuffers();
  findMaximalSections();
  blockFloor.assign(numSections / blockSize + 1, 0);
  for (int64_t a : alignment)
    maxAlignment = std::max(maxAlignment, a);
  indexSlots();
  // A path places each buffer once, and a nested partition's search goes
  // one level deeper than the node that split it.
  scratch.resize(n + 2);
  branches.resize(n + 2);
}

/// Each buffer's fields and sections; each section's buffers, bytes and
/// buffers crossing into the next one.
void Search::indexSections(const TimeAxis &axis) {
  numSections = axis.numSegments();
  sectionBuffers.resize(numSections);
  floor.assign(numSections, 0);
  total.assign(numSections, 0);
  crossing.assign(std::max(0, numSections - 1), 0);
  for (int id : ids) {
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
}

/// Overlap lists from a sweep over starts: a buffer overlaps exactly the
/// buffers live in its first section that started earlier, plus those that
/// start later inside its lifetime.
void Search::findOverlaps() {
  overlaps.resize(ids.size());
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
}

/// The address runs each buffer must avoid (the fixed buffers live with
/// it) and its earliest offset clear of them.
void Search::blockFixedBuffers() {
  int n = int(ids.size());
  blocked.resize(n);
  for (size_t j = 0; j < problem.buffers.size(); ++j) {
    const Buffer &fixed = problem.buffers[j];
    if (options.fixedOffsets[j] < 0 || fixed.size == 0 ||
        fixed.start >= fixed.end)
      continue;
    for (int i = 0; i < n; ++i)
      if (problem.buffers[ids[i]].overlapsInTime(fixed))
        blocked[i].emplace_back(options.fixedOffsets[j],
                                options.fixedOffsets[j] + fixed.size);
  }
  for (int i = 0; i < n; ++i) {
    hasFixed |= !blocked[i].empty();
    sortAndMergeRuns(blocked[i]);
    minOffset[i] = clearOfFixed(i, 0);
  }
}

/// The sections that need bounds (`maximal`) and each section's span.
void Search::findMaximalSections() {
  maximal.assign(numSections, 0);
  std::vector<char> startsHere(numSections, 0), endsHere(numSections, 0);
  for (size_t i = 0; i < ids.size(); ++i) {
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
}

/// Every buffer unplaced, and where it sits in each of its sections.
void Search::indexSlots() {
  unplacedCount.resize(numSections);
  slotBase.resize(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
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
}

int64_t Search::clearOfFixed(int b, int64_t from) const {
  int64_t at = roundUp(from, alignment[b]);
  if (!hasFixed)
    return at;
  const auto &runs = blocked[b];
  auto run =
      std::upper_bound(runs.begin(), runs.end(), at,
                       [](int64_t a, const std::pair<int64_t, int64_t> &r) {
                         return a < r.second;
                       });
  for (; run != runs.end() && run->first < at + size[b]; ++run)
    at = roundUp(run->second, alignment[b]);
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
  for (int k = sectionBegin[b] / blockSize;
       k <= (sectionEnd[b] - 1) / blockSize; ++k)
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
  // highest floor, aligned. Worth it only where the span's blocks are
  // fewer than the section's unplaced buffers: a buffer living through
  // most of the trace (a decoder's rope tables, its inputs) makes every
  // span the whole axis, and the blocks cost more than the scan below,
  // which passes wherever this shortcut would (every release is at most
  // the bound), so skipping it changes no decision.
  // (Fixed buffers can lift an earliest offset above every floor.)
  // Where it rarely passes (B of the challenging set: 1 call in 100), it
  // is only tried on a sample of the calls.
  int spanBlocks = (spanEnd[s] - spanBegin[s]) / blockSize + 2;
  if (!hasFixed && spanBlocks < unplacedCount[s] && shortcutWorthTrying()) {
    ++shortcutTries;
    int64_t bound =
        roundUp(highestFloor(spanBegin[s], spanEnd[s]), maxAlignment);
    if (bound <= level || bound + total[s] <= capacity) {
      ++shortcutPasses;
      return true;
    }
  }
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

bool Search::shortcutWorthTrying() {
  constexpr int64_t warmUp = 1024, sampleEvery = 64;
  if (shortcutTries < warmUp || shortcutPasses * 8 >= shortcutTries)
    return true;
  return ++shortcutSkips % sampleEvery == 0;
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
  // Neighbouring sections with the same unplaced buffers (every one of
  // them crosses the boundary) have the same releases and loads and differ
  // only in their floors; the bounds at the highest floor imply those at
  // the others (level + load grows with the floor, a lowest release below
  // the higher level is covered by it, the highest is the same), so of each
  // such run only that section is checked: the same answers, a fraction of
  // the scans once most buffers are placed.
  auto fits = [&](int begin, int end) {
    begin = std::max(begin, partition.sectionBegin);
    end = std::min(end, partition.sectionEnd);
    for (int s = begin; s < end;) {
      int highest = -1;
      do {
        if (maximal[s] && total[s] > 0 &&
            (highest < 0 || floor[s] > floor[highest]))
          highest = s;
        ++s;
      } while (s < end && crossing[s - 1] == unplacedCount[s - 1] &&
               unplacedCount[s - 1] == unplacedCount[s]);
      if (highest >= 0 && !releaseBoundFits(highest, lastOffset)) {
        lastFailed = highest;
        return false;
      }
    }
    return true;
  };
  // The section that failed last first: the next candidates of a node
  // usually fail where the one before did (the answer is the same in any
  // order).
  int first = std::max(touchedBegin, partition.sectionBegin);
  int end = std::min(touchedEnd, partition.sectionEnd);
  if (first <= lastFailed && lastFailed < end && maximal[lastFailed] &&
      total[lastFailed] > 0 && !releaseBoundFits(lastFailed, lastOffset))
    return false;
  return fits(touchedBegin, sectionBegin[placed]) &&
         fits(sectionEnd[placed], touchedEnd) &&
         fits(sectionBegin[placed], sectionEnd[placed]);
}

} // namespace coreai::solvers::exact

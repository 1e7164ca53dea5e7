//===- ExactSearch.h - The exact search's class -----------------*- C++ -*-===//
//
// Private to lib/Solve: the branch and bound over canonical packings, split
// in two files: ExactSections.cpp keeps the state per section (floors,
// loads, earliest offsets; place, unplace and the bounds that prune on
// them), Exact.cpp searches (nodes, decomposition, restarts) and says why
// each technique is sound.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_SOLVE_EXACTSEARCH_H
#define COREAI_PLAN_LIB_SOLVE_EXACTSEARCH_H

#include "Solvers.h"

#include <vector>

namespace coreai::solvers::exact {

enum class Status { Found, NotFound, Aborted };

/// `value` rounded up to a power-of-two alignment (isValidAlignment), inline:
/// the search rounds every earliest offset it raises, and the out-of-line
/// alignTo was 4-8 % of its cycles on the challenging set.
inline int64_t roundUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) & -alignment;
}

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
  // Setting up the state (ExactSections.cpp), in the constructor's order.
  void indexSections(const TimeAxis &axis);
  void findOverlaps();
  void blockFixedBuffers();
  void findMaximalSections();
  void indexSlots();

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
  /// Whether the span shortcut of releaseBoundFits has passed often enough
  /// (an eighth of its tries) to be worth its reads; a sample of the calls
  /// keeps trying it. It only answers where the scan would answer the same,
  /// so this changes the time, not the search.
  bool shortcutWorthTrying();
  int64_t shortcutTries = 0, shortcutPasses = 0, shortcutSkips = 0;
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
  /// The section whose release bound failed last, checked first.
  int lastFailed = -1;
  /// Per depth, reused across nodes: the unplaced buffers, and those of
  /// them the node branches on.
  std::vector<std::vector<int>> scratch, branches;
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

} // namespace coreai::solvers::exact

#endif // COREAI_PLAN_LIB_SOLVE_EXACTSEARCH_H

//===- Problem.h - Buffers with sizes and live intervals --------*- C++ -*-===//
//
// The planner's core data model. Nothing here knows about MLIR: a graph
// importer produces a BufferProblem, a solver produces a Plan, and the
// verifier checks the pair independently of whoever made them.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PROBLEM_H
#define COREAI_PLAN_PROBLEM_H

#include <cstdint>
#include <string>
#include <vector>

namespace coreai {

/// Bytes needed over the half-open live interval [start, end) of op
/// positions. Two buffers conflict iff their intervals intersect; one that
/// ends at t and one that starts at t may share memory.
struct Buffer {
  std::string id;
  int64_t start = 0;
  int64_t end = 0;
  int64_t size = 0;
  /// Every offset given to this buffer is a multiple of it (power of two).
  int64_t alignment = 1;

  bool overlapsInTime(const Buffer &other) const {
    return start < other.end && other.start < end;
  }
};

/// The buffers of one function (at one chunk size). `capacity` is the heap
/// a packing must fit into, or 0 when the heap is to be minimised.
struct BufferProblem {
  std::vector<Buffer> buffers;
  int64_t capacity = 0;
};

/// An offset per buffer (same order as BufferProblem::buffers) and the heap
/// those offsets need. Always verified before it leaves a tool.
struct Plan {
  std::vector<int64_t> offsets;
  int64_t heap = 0;
  int64_t lowerBound = 0;
  /// The search proved no smaller heap exists.
  bool optimal = false;
  std::string algorithm;
  double seconds = 0;
};

/// Rounds `size` up to a multiple of `alignment` (a power of two).
int64_t alignTo(int64_t size, int64_t alignment);

/// The bytes a buffer takes in any packing: its size rounded up to its own
/// alignment, since the next aligned buffer cannot start earlier anyway.
inline int64_t paddedSize(const Buffer &buffer) {
  return alignTo(buffer.size, buffer.alignment);
}

/// Max over time of the bytes live at that time, with every buffer but the
/// topmost rounded up to the problem's smallest alignment (the padding an
/// aligned neighbour above it forces). No packing can use a smaller heap.
int64_t lowerBound(const BufferProblem &problem);

/// A buffer starting or ending. Intervals are half-open, so at equal times
/// ends come before starts; buffers with no bytes or an empty interval
/// have no events.
struct LiveEvent {
  int64_t time;
  bool starts;
  size_t index;
};
/// Every buffer's start and end, in time order: the sweep the lower bounds
/// run over.
std::vector<LiveEvent> liveEvents(const BufferProblem &problem);

/// Heap needed by `offsets`: max of offset + size over all buffers.
int64_t heapOf(const BufferProblem &problem,
               const std::vector<int64_t> &offsets);

/// heap / lowerBound (1.0 for an empty problem): the tables' "heap/LB".
double heapRatio(int64_t heap, int64_t lowerBound);
/// How far the heap is over the lower bound, heap / lowerBound - 1 (0 for
/// an empty problem): what progress lines and benchmarks call the gap.
double gap(int64_t heap, int64_t lowerBound);

} // namespace coreai

#endif // COREAI_PLAN_PROBLEM_H

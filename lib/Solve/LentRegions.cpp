//===- LentRegions.cpp - The exact search over heap and lent outputs -----===//
//
// The regions are laid out on one address axis, the bins first (each at a
// multiple of the largest alignment) and the heap above them, so that the
// heap's exact search (Exact.cpp) decides them all at once: a packing of
// the axis within heapBase + C is a packing of the bins and a heap of C.
// Two kinds of fixed buffer keep the axis honest:
//
// - a bin's *closing*: its whole range, fixed over [availableUntil, end of
//   time), since the output's own value is written then; a buffer living
//   past it cannot sit in the bin.
// - a *wall* of at least one byte after every bin, fixed over all time:
//   the regions are separate storage, so no buffer may straddle two (a
//   buffer larger than a bin meets the wall and goes higher).
//
// Why the search stays exact with fixed buffers: take any packing and move
// buffers, one at a time, to any lower free offset until none can move
// (the sum of offsets falls each time, so this ends). Listed by offset,
// each buffer then sits at the lowest aligned offset at or above the tops
// of the buffers before it that overlap it in time which no fixed buffer
// blocks: were that offset m lower than its own, the buffers after it
// start at or above its own offset, so above m + size too (they overlap it
// in time and are disjoint from it), and it could still move to m. That is
// exactly where the search places each buffer (clearOfFixed), and its
// pruning rules hold for these packings as they do for packings resting on
// 0 or on each other (docs/SOLVERS.md, "Lent outputs").
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Solve/LentRegions.h"

#include "Solvers.h"

#include <algorithm>
#include <memory>

namespace coreai {
namespace {

using solvers::ExactOptions;
using solvers::ExactSearch;

bool occupies(const Buffer &buffer) {
  return buffer.size > 0 && buffer.start < buffer.end;
}

/// The bins and the heap on one axis: the problem's buffers first (to be
/// placed), then the fixed closings and walls.
struct Axis {
  BufferProblem problem;
  std::vector<int64_t> fixed; ///< per buffer of `problem`: offset, or -1
  std::vector<int64_t> binBase;
  int64_t heapBase = 0;
  size_t count = 0;

  void addFixed(Buffer buffer, int64_t offset) {
    if (buffer.size <= 0 || buffer.start >= buffer.end)
      return;
    problem.buffers.push_back(std::move(buffer));
    fixed.push_back(offset);
  }
};

Axis layOut(const BufferProblem &problem, const std::vector<OutputBin> &bins) {
  Axis axis;
  axis.count = problem.buffers.size();
  axis.problem.buffers = problem.buffers;
  axis.fixed.assign(axis.count, -1);
  int64_t first = 0, last = 0, alignment = 1;
  bool any = false;
  for (const Buffer &b : problem.buffers) {
    alignment = std::max(alignment, b.alignment);
    if (!occupies(b))
      continue;
    first = any ? std::min(first, b.start) : b.start;
    last = any ? std::max(last, b.end) : b.end;
    any = true;
  }
  int64_t base = 0;
  for (size_t k = 0; k < bins.size(); ++k) {
    const OutputBin &bin = bins[k];
    axis.binBase.push_back(base);
    int64_t closes = std::max(bin.availableUntil, first);
    axis.addFixed({"closed bin " + std::to_string(k), closes, last,
                   bin.capacity, 1},
                  base);
    int64_t wall = base + bin.capacity;
    int64_t next = alignTo(wall + 1, alignment);
    axis.addFixed({"wall " + std::to_string(k), first, last, next - wall, 1},
                  wall);
    base = next;
  }
  axis.heapBase = base;
  return axis;
}

/// The heap a packing of the axis needs: the tops above the heap's base.
/// Buffers that occupy no byte at no time stay at the heap's offset 0.
int64_t heapOnAxis(const Axis &axis, const std::vector<int64_t> &offsets) {
  int64_t heap = 0;
  for (size_t i = 0; i < axis.count; ++i) {
    const Buffer &b = axis.problem.buffers[i];
    if (!occupies(b))
      heap = std::max(heap, b.size);
    else if (offsets[i] >= axis.heapBase)
      heap = std::max(heap, offsets[i] - axis.heapBase + b.size);
  }
  return heap;
}

int64_t heapOfBorrowed(const BufferProblem &problem, const BinAssignment &binOf,
                       const std::vector<int64_t> &offsets) {
  int64_t heap = 0;
  for (size_t i = 0; i < problem.buffers.size(); ++i)
    if (binOf.empty() || binOf[i] < 0)
      heap = std::max(heap, offsets[i] + problem.buffers[i].size);
  return heap;
}

/// A packing of the axis as regions and offsets within them.
void readBack(const Axis &axis, const std::vector<int64_t> &onAxis,
              BinAssignment &binOf, std::vector<int64_t> &offsets) {
  binOf.assign(axis.count, -1);
  offsets.assign(axis.count, 0);
  for (size_t i = 0; i < axis.count; ++i) {
    if (!occupies(axis.problem.buffers[i]))
      continue;
    int64_t at = onAxis[i];
    if (at >= axis.heapBase) {
      offsets[i] = at - axis.heapBase;
      continue;
    }
    auto above = std::upper_bound(axis.binBase.begin(), axis.binBase.end(), at);
    size_t k = size_t(above - axis.binBase.begin()) - 1;
    binOf[i] = int32_t(k);
    offsets[i] = at - axis.binBase[k];
  }
}

/// The exact search at one heap capacity.
class AxisProbe final : public solvers::CapacityProbe {
public:
  AxisProbe(const Axis &axis, int64_t heapCapacity,
            const ExactOptions &options)
      : axis(axis), search(axis.problem, axis.heapBase + heapCapacity,
                           options) {}
  bool step() override { return search.step(); }
  int64_t nodes() const override { return search.result().nodes; }
  std::optional<int64_t> foundHeap() const override {
    if (!search.result().offsets)
      return std::nullopt;
    return heapOnAxis(axis, *search.result().offsets);
  }
  bool exhausted() const override { return search.result().exhausted; }
  const std::vector<int64_t> &offsets() const {
    return *search.result().offsets;
  }

private:
  const Axis &axis;
  ExactSearch search;
};

} // namespace

LentRegionsResult minimiseWithLentOutputs(const BufferProblem &problem,
                                          const std::vector<OutputBin> &bins,
                                          const BinAssignment &binOf,
                                          const std::vector<int64_t> &offsets,
                                          int64_t lowerBound,
                                          const LentRegionsOptions &options) {
  LentRegionsResult result;
  result.binOf = binOf.empty() ? BinAssignment(problem.buffers.size(), -1)
                               : binOf;
  result.offsets = offsets;
  result.heap = heapOfBorrowed(problem, binOf, offsets);
  int64_t grain = std::max<int64_t>(1, solvers::heapGrain(problem));
  result.low = (std::max<int64_t>(0, lowerBound) + grain - 1) / grain * grain;

  Axis axis = layOut(problem, bins);
  solvers::ProbeScheduleOptions schedule;
  schedule.deadline = options.deadline;
  schedule.nodeLimit = options.nodeLimit;
  schedule.window = std::clamp<int64_t>(
      solvers::maxExactOverlaps /
          std::max<int64_t>(1, solvers::countTimeOverlaps(axis.problem)),
      1, schedule.window);
  schedule.jumpBudget = 6 * int64_t(axis.problem.buffers.size()) + 48;
  ExactOptions exact;
  exact.deadline = options.deadline;
  exact.nodeLimit = options.nodeLimit;
  exact.fixedOffsets = axis.fixed;
  solvers::ProbeScheduleResult outcome = solvers::scheduleProbes(
      result.heap, result.low, grain, schedule,
      [&](int64_t capacity) {
        return std::make_unique<AxisProbe>(axis, capacity, exact);
      },
      [&](solvers::CapacityProbe *found, int64_t, int64_t) {
        if (found)
          readBack(axis, static_cast<AxisProbe *>(found)->offsets(),
                   result.binOf, result.offsets);
      });
  result.heap = heapOfBorrowed(problem, result.binOf, result.offsets);
  result.low = std::max(result.low, outcome.low);
  result.nodes = outcome.nodes;
  result.optimal = result.low >= result.heap;
  return result;
}

} // namespace coreai

//===- Regions.h - Where an entry's bytes are, region by region -*- C++ -*-===//
//
// An entry's bytes live in several regions: the scratch heap, the outputs
// whose storage the plan borrows (and the chains built in an output), and
// the states written in place. The pictures draw each region at the scale
// of the bytes the plan uses in it, all on one time axis; `explain` says
// what is live in each at the peak. This is the one place that decides
// which regions an entry has and what each holds. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_REPORT_REGIONS_H
#define COREAI_PLAN_REPORT_REGIONS_H

#include "coreai-plan/Entry.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace coreai {

struct Region {
  enum class Kind { Heap, Output, State };
  Kind kind = Kind::Heap;
  /// The output's result position or the state's argument number; -1 for
  /// the heap.
  int64_t index = -1;
  /// The output bin lent to the plan (index into entry.outputBins), or -1.
  int64_t bin = -1;
  /// The region's bytes: the heap's size, the output's bytes, the state's
  /// (the largest value written into it).
  int64_t capacity = 0;
  /// The bytes the plan uses in it, the scale it is drawn at: the heap (or
  /// its lower bound, when larger), the highest byte a borrowed buffer
  /// reaches in an output, the values written in place otherwise.
  int64_t used = 0;
  /// For a lent output: the op that writes the output's own value (nothing
  /// is borrowed from then on); -1 otherwise.
  int64_t availableUntil = -1;
  /// Indices into entry.problem.buffers (heap or borrowed) and into
  /// entry.placed (written in place at offset 0), in program order.
  std::vector<size_t> buffers;
  std::vector<size_t> placed;

  /// "heap", "output 45", "state 506".
  std::string name() const;
  /// Buffers borrowed in an output (not the output's own value).
  bool borrows() const { return kind == Kind::Output && !buffers.empty(); }
};

/// The regions of `entry`, in drawing order: the heap, the outputs holding
/// borrowed buffers, the outputs holding only values built in place, the
/// states written in place. Outputs lent but unused are left out.
std::vector<Region> regionsOf(const PlannedEntry &entry);

/// One past the last op any buffer, lent output or placed value reaches.
int64_t timeSpanOf(const PlannedEntry &entry);

/// Where placed value `p` is drawn on the time axis: from the op writing it
/// to the next value written into the same storage (or its end). Older
/// manifests recorded no times: a lent output's value from the op writing
/// it, any other from 0, to `timeSpan`.
std::pair<int64_t, int64_t> placedInterval(const PlannedEntry &entry,
                                           const Region &region, size_t p,
                                           int64_t timeSpan);

/// Bytes the plan places, by where they are: the heap, the high-water mark
/// of the borrowed buffers in each lent output (summed), and the states
/// written in place. `total` is their sum.
struct PlannedBytes {
  int64_t heap = 0;
  int64_t lent = 0;
  int64_t state = 0;
  int64_t total = 0;
};
PlannedBytes plannedBytesOf(const PlannedEntry &entry);

/// What is live at op `time` in one region: its buffers and placed values
/// and their bytes.
struct LiveInRegion {
  size_t region = 0; ///< index into the regions given
  int64_t bytes = 0;
  std::vector<size_t> buffers; ///< largest first
  std::vector<size_t> placed;
};
/// Per region with anything live at `time` (regions with nothing are left
/// out), in the regions' order.
std::vector<LiveInRegion> liveAt(const PlannedEntry &entry,
                                 const std::vector<Region> &regions,
                                 int64_t time);

/// What is live at op `time`, in words: one line per region holding
/// planned buffers (the heap, each output borrowed in: bytes, count, the
/// largest three values) and one per kind of storage written in place
/// (outputs built in place, states): `explain` prints the lines the
/// pictures show at the peak.
std::vector<std::string> describeLiveAt(const PlannedEntry &entry,
                                        const std::vector<Region> &regions,
                                        int64_t time);

/// The bytes each op kind writes (the sizes of its values summed), by
/// where they go: the heap, outputs' storage borrowed by the plan, storage
/// written in place (chains built in an output, state updates). Largest
/// total first, ties by name.
struct OpBytes {
  std::string op;
  int64_t values = 0;
  int64_t heap = 0;
  int64_t borrowed = 0;
  int64_t inPlace = 0;
  int64_t total() const { return heap + borrowed + inPlace; }
};
std::vector<OpBytes> bytesByOp(const PlannedEntry &entry);

} // namespace coreai

#endif // COREAI_PLAN_REPORT_REGIONS_H

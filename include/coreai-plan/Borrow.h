//===- Borrow.h - Scratch in the outputs' storage ---------------*- C++ -*-===//
//
// Where the runtime binds each output's storage before the call and reads
// it only after, the bytes of an output are free until the output's own
// value is first written there. Each such output is a bin of fixed size
// available over [0, availableUntil) of op positions: buffers that die by
// then may be packed into it instead of the heap. No MLIR here; the rules
// (which outputs are bins, their time limits) are in docs/LIVENESS.md.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_BORROW_H
#define COREAI_PLAN_BORROW_H

#include "coreai-plan/Problem.h"
#include "coreai-plan/Solve.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coreai {

/// An output's storage lent to the plan until its own value is written.
struct OutputBin {
  int64_t output = 0;   ///< result position of the function
  int64_t capacity = 0; ///< the output's bytes
  /// The op position that first writes the output's own value (or the
  /// chain placed there): buffers in the bin must end at or before it.
  int64_t availableUntil = 0;

  bool operator==(const OutputBin &other) const {
    return output == other.output && capacity == other.capacity &&
           availableUntil == other.availableUntil;
  }
  bool operator!=(const OutputBin &other) const { return !(*this == other); }
};

/// Which region holds each buffer: -1 the heap, else an index into the
/// bins. Parallel to BufferProblem::buffers; empty when nothing is
/// borrowed. A plan's offsets are relative to each buffer's region.
using BinAssignment = std::vector<int32_t>;

/// Whether `buffer` may live in `bin` at all: it dies before the bin's
/// output is written and fits in it.
bool fitsBin(const Buffer &buffer, const OutputBin &bin);

/// A sound lower bound on the heap of any plan that may borrow the bins:
/// at each time t, the bytes of the buffers live at t that no bin can take
/// (they outlive every bin or fit none), plus the rest of the live bytes
/// beyond what the bins can absorb at t (each bin holds at most its
/// capacity and at most the bytes of the live buffers it may take).
/// Sizes are not rounded. Equals lowerBound() when there are no bins.
int64_t borrowingLowerBound(const BufferProblem &problem,
                            const std::vector<OutputBin> &bins);

struct BorrowResult {
  std::optional<Plan> plan; ///< offsets in each buffer's region; verified
  BinAssignment binOf;
  std::string internalError;
};

/// First decides which buffers go into the bins (largest first, each at the
/// lowest aligned offset of the earliest-closing bin where it fits beside
/// the buffers already there; ties once by start, once by latest end),
/// then packs the rest into the heap with solve(), keeping the smaller
/// heap. The plan's lower bound is borrowingLowerBound(), raised to the
/// heap problem's own bound when every buffer a bin could take was
/// borrowed (the rest must be in the heap in any plan); `optimal` only
/// when the heap is proven minimal that way.
BorrowResult solveWithBorrowing(const BufferProblem &problem,
                                const std::vector<OutputBin> &bins,
                                const SolveOptions &options);

/// The independent check of a borrowed plan: the heap buffers with
/// verifyPlan() against plan.heap, and each bin's buffers with
/// verifyPlan() against its capacity, every one ending by the bin's time
/// limit. std::nullopt when sound.
std::optional<std::string> verifyBorrowedPlan(const BufferProblem &problem,
                                              const std::vector<OutputBin> &bins,
                                              const BinAssignment &binOf,
                                              const Plan &plan);

} // namespace coreai

#endif // COREAI_PLAN_BORROW_H

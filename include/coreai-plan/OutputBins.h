//===- OutputBins.h - Outputs' storage as regions of a plan -----*- C++ -*-===//
//
// The types and checks of borrowing that need no solver (the packing itself,
// solveWithBorrowing, is in Borrow.h): an output's storage as a bin of fixed
// size available until the output's own value is written, which region holds
// each buffer, the lower bound under borrowing and the region-by-region
// verifier. No MLIR; the rules are in docs/LIVENESS.md.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_OUTPUTBINS_H
#define COREAI_PLAN_OUTPUTBINS_H

#include "coreai-plan/Problem.h"

#include "llvm/Support/Error.h"

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

/// A sound lower bound on the heap of any plan that may borrow the bins,
/// as if buffers could be split across regions: at each time t, the bytes
/// of the buffers live at t that no bin can take (they outlive every bin
/// or fit none), plus the rest of the live bytes beyond what the bins can
/// absorb at t (each bin holds at most its capacity and at most the bytes
/// of the live buffers it may take). Sizes are not rounded.
int64_t splittableBorrowingLowerBound(const BufferProblem &problem,
                                      const std::vector<OutputBin> &bins);

/// The two bounds under borrowing (docs/SOLVERS.md, "Bounds").
struct BorrowingBounds {
  /// splittableBorrowingLowerBound().
  int64_t splittable = 0;
  /// At least `splittable`: buffers are indivisible, so at each time a bin
  /// absorbs at most the best subset-sum of its eligible live buffers
  /// (sizes and capacities in units of the smallest alignment) within its
  /// capacity; the heap holds the rest. Max over time.
  int64_t indivisible = 0;
  /// False when a subset-sum was over the work budget and its step fell
  /// back to the splittable figure (still a lower bound, maybe a weaker one).
  bool complete = true;
};
BorrowingBounds borrowingBounds(const BufferProblem &problem,
                                const std::vector<OutputBin> &bins);

/// The plan's lower bound under borrowing: borrowingBounds().indivisible,
/// or lowerBound() when there are no bins. No plan that borrows the bins
/// (with the op order of `problem`) has a smaller heap.
int64_t borrowingLowerBound(const BufferProblem &problem,
                            const std::vector<OutputBin> &bins);

/// The independent check of a borrowed plan: the heap buffers with
/// verifyPlan() against plan.heap, and each bin's buffers with
/// verifyPlan() against its capacity, every one ending by the bin's time
/// limit. Success when sound.
llvm::Error verifyBorrowedPlan(const BufferProblem &problem,
                               const std::vector<OutputBin> &bins,
                               const BinAssignment &binOf, const Plan &plan);

} // namespace coreai

#endif // COREAI_PLAN_OUTPUTBINS_H

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

#include "coreai-plan/OutputBins.h"
#include "coreai-plan/Problem.h"
#include "coreai-plan/Solve/Solve.h"

#include <optional>
#include <string>

namespace coreai {

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

} // namespace coreai

#endif // COREAI_PLAN_BORROW_H

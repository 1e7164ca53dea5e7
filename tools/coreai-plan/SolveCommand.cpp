//===- SolveCommand.cpp - coreai-plan solve -------------------------------===//
//
// Packs a MiniMalloc CSV problem: minimises the heap, or with --capacity
// looks for a packing that fits. The command itself is runSolveCsv, shared
// with coreai-solve.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "coreai-plan/SolveCsv.h"

namespace coreai::cli {

llvm::cl::SubCommand solveCommand(
    "solve", "Pack the buffers of a MiniMalloc CSV problem into one heap");

namespace {
SolveCsvFlags flags(solveCommand);
} // namespace

int runSolve() {
  SolveCsvOutcome outcome = runSolveCsv(flags, llvm::outs());
  switch (outcome.status) {
  case SolveCsvStatus::Solved:
    return Success;
  case SolveCsvStatus::NoPacking:
    return AnswerNo;
  case SolveCsvStatus::BadInput:
    return fail(InputError, outcome.error);
  case SolveCsvStatus::Internal:
    return fail(InternalError, outcome.error);
  }
  return fail(InternalError, "unknown solve outcome");
}

} // namespace coreai::cli

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
  return reportSolveCsv(runSolveCsv(flags, llvm::outs()), "coreai-plan");
}

} // namespace coreai::cli

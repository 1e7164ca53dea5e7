//===- SolveCommand.cpp - coreai-plan solve -------------------------------===//
//
// Packs a MiniMalloc CSV problem: minimises the heap, or with --capacity
// looks for a packing that fits. The command and its flags are shared
// with coreai-solve (tools/common/SolveCsvFlags.h).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "SolveCsvFlags.h"

namespace coreai::cli {

int runSolve();
Command
    solveCommand("solve",
                 "Pack the buffers of a MiniMalloc CSV problem into one heap",
                 runSolve);

namespace {
SolveCsvFlags flags(solveCommand);
} // namespace

int runSolve() { return runSolveCsvCommand(flags, "coreai-plan"); }

} // namespace coreai::cli

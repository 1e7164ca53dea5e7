//===- SolveCommand.cpp - coreai-plan solve -------------------------------===//
//
// Packs a MiniMalloc CSV problem: minimises the heap, or with --capacity
// looks for a packing that fits. The command and its flags are shared
// with coreai-solve (tools/common/SolveCsvFlags.h).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "InputCheck.h"
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

int runSolve() {
  if (llvm::Error error = refuseProgramInput(
          flags.request.inputPath, "coreai-plan solve", "CSV problems",
          "`coreai-plan plan PROGRAM.pte -o OUT.pte` packs a program's "
          "arenas"))
    return fail(InputError, std::move(error));
  return runSolveCsvCommand(flags, "coreai-plan");
}

} // namespace coreai::cli

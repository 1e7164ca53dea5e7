//===- coreai-solve.cpp - The solver without the MLIR front end -----------===//
//
//   coreai-solve --input P.csv [--capacity N] [--algorithm A]
//                [--time-limit-ms T] [--alignment A] [--output OUT.csv]
//
// The same command as `coreai-plan solve` (runSolveCsv and the flags of
// tools/common/SolveCsvFlags.h: same options, output and exit codes), linked
// only against the IR-independent core, the solvers and a static LLVMSupport:
// no libMLIR/libLLVM to load, so a small problem is solved in about a
// millisecond.
//
//===----------------------------------------------------------------------===//
#include "ExitCode.h"
#include "SolveCsvFlags.h"

#include "coreai-plan/Version.h"

#include "llvm/Support/raw_ostream.h"

using namespace coreai;
using namespace coreai::cli;

int main(int argc, char **argv) {
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "coreai-solve " << versionDescription() << "\n";
  });
  SolveCsvFlags flags(llvm::cl::SubCommand::getTopLevel());
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "Pack the buffers of a MiniMalloc CSV problem into one heap\n",
          &llvm::errs()))
    return InputError;
  return runSolveCsvCommand(flags, "coreai-solve");
}

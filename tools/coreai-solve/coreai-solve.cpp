//===- coreai-solve.cpp - The solver without the MLIR front end -----------===//
//
//   coreai-solve --input P.csv [--capacity N] [--algorithm A]
//                [--time-limit-ms T] [--alignment A] [--output OUT.csv]
//
// The same command as `coreai-plan solve` (runSolveCsv: same options,
// output and exit codes), linked only against the IR-independent core, the
// solvers and a static LLVMSupport: no libMLIR/libLLVM to load, so a small
// problem is solved in about a millisecond.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/SolveCsv.h"

#include "llvm/Support/raw_ostream.h"

using namespace coreai;

namespace {

/// The exit codes of coreai-plan (docs/CLI.md).
enum ExitCode : int { Success = 0, InputError = 1, AnswerNo = 2, InternalError = 3 };

int fail(ExitCode code, const std::string &message) {
  llvm::errs() << "coreai-solve: error: " << message << "\n";
  return code;
}

} // namespace

int main(int argc, char **argv) {
  SolveCsvFlags flags(llvm::cl::SubCommand::getTopLevel());
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "Pack the buffers of a MiniMalloc CSV problem into one heap\n",
          &llvm::errs()))
    return InputError;
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

//===- Commands.h - Subcommands of the coreai-plan CLI ----------*- C++ -*-===//
//
// Each subcommand lives in its own file: an llvm::cl::SubCommand with its
// options, and a run function returning the process exit code.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TOOLS_COMMANDS_H
#define COREAI_PLAN_TOOLS_COMMANDS_H

#include "coreai-plan/Solve.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace coreai::cli {

/// Documented in docs/CLI.md; scripts rely on them.
enum ExitCode : int {
  Success = 0,
  InputError = 1,  ///< Bad input or usage: nothing was written.
  AnswerNo = 2,    ///< Well-formed question, answer "no": no packing within
                   ///< the capacity, heap overflow in check-heap, ...
  InternalError = 3, ///< A plan failed verification: a bug, never output.
};

struct Command {
  llvm::cl::SubCommand &subcommand;
  int (*run)();
};

extern llvm::cl::SubCommand solveCommand;
int runSolve();
extern llvm::cl::SubCommand buffersCommand;
int runBuffers();
extern llvm::cl::SubCommand planCommand;
int runPlan();
extern llvm::cl::SubCommand inspectCommand;
int runInspect();
extern llvm::cl::SubCommand checkHeapCommand;
int runCheckHeap();
extern llvm::cl::SubCommand explainCommand;
int runExplain();
extern llvm::cl::SubCommand fitCommand;
int runFit();
extern llvm::cl::SubCommand importCommand;
int runImport();

/// Prints `coreai-plan: error: <message>` to stderr and returns `code`.
int fail(ExitCode code, const llvm::Twine &message);
/// The same for an llvm::Error (consumed).
int fail(ExitCode code, llvm::Error error);
/// Prints an error of the bundle planner (unless MLIR already printed it)
/// and returns its exit code; errors that are not BundleErrors are bad
/// input.
int reportError(llvm::Error error);

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_COMMANDS_H

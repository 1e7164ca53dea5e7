//===- Commands.h - Subcommands of the coreai-plan CLI ----------*- C++ -*-===//
//
// Each subcommand lives in its own file: an llvm::cl::SubCommand with its
// options, and a run function returning the process exit code.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TOOLS_COMMANDS_H
#define COREAI_PLAN_TOOLS_COMMANDS_H

#include "ExitCode.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace coreai::cli {

/// A subcommand and the function that runs it. Each file defines its one
/// Command (constructing it registers it) before the options registered
/// under it; main runs the one the command line names.
class Command : public llvm::cl::SubCommand {
public:
  Command(llvm::StringRef name, llvm::StringRef description, int (*run)());
  int (*const run)();
  /// Every Command, in no particular order.
  static llvm::ArrayRef<const Command *> all();
};

/// The file a subcommand reads: its one positional argument, `<what>`.
class InputArgument : public llvm::cl::opt<std::string> {
public:
  InputArgument(llvm::cl::SubCommand &command, llvm::StringRef what);
};

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

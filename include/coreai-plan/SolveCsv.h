//===- SolveCsv.h - The `solve` command over a MiniMalloc CSV ---*- C++ -*-===//
//
// One implementation of `solve` for the two binaries that offer it:
// `coreai-plan solve` (a subcommand) and `coreai-solve` (linked without
// MLIR). Each declares the flags under its own command; both report the
// outcome with the same exit codes.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_SOLVECSV_H
#define COREAI_PLAN_SOLVECSV_H

#include "coreai-plan/Solve.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace coreai {

/// The flags of `solve`, registered under `command` (the top level for a
/// binary of its own).
struct SolveCsvFlags {
  explicit SolveCsvFlags(llvm::cl::SubCommand &command);
  llvm::cl::opt<std::string> inputPath;
  llvm::cl::opt<int64_t> capacity;
  llvm::cl::opt<Algorithm> algorithm;
  llvm::cl::opt<int64_t> timeLimitMs;
  llvm::cl::opt<int64_t> alignment;
  llvm::cl::opt<std::string> outputPath;
};

enum class SolveCsvStatus { Solved, BadInput, NoPacking, Internal };

struct SolveCsvOutcome {
  SolveCsvStatus status = SolveCsvStatus::Solved;
  /// Set for BadInput and Internal.
  std::string error;
};

/// Reads the problem, packs it, verifies the plan, prints the summary on
/// `out` and writes the offset CSV when asked.
SolveCsvOutcome runSolveCsv(const SolveCsvFlags &flags, llvm::raw_ostream &out);

/// The exit code of docs/CLI.md for `outcome` (0 solved, 1 bad input, 2 no
/// packing within the capacity, 3 internal error), printing its error as
/// `tool: error: ...` on stderr first.
int reportSolveCsv(const SolveCsvOutcome &outcome, llvm::StringRef tool);

} // namespace coreai

#endif // COREAI_PLAN_SOLVECSV_H

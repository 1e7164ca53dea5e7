//===- SolveCsvFlags.h - The flags of `solve` -------------------*- C++ -*-===//
//
// `coreai-plan solve` and `coreai-solve` are one command (runSolveCsv,
// coreai-plan/Solve/SolveCsv.h) with one set of flags and exit codes, declared
// here. No MLIR: coreai-solve links only the core, lib/Solve and a static
// LLVMSupport.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TOOLS_SOLVECSVFLAGS_H
#define COREAI_PLAN_TOOLS_SOLVECSVFLAGS_H

#include "coreai-plan/Solve/SolveCsv.h"

#include "llvm/Support/CommandLine.h"

namespace coreai::cli {

/// The flags of `solve`, registered under `command` (the top level for a
/// binary of its own), stored into `request` (not copyable: the flags
/// point into it).
class SolveCsvFlags {
public:
  explicit SolveCsvFlags(llvm::cl::SubCommand &command);
  SolveCsvFlags(const SolveCsvFlags &) = delete;
  SolveCsvFlags &operator=(const SolveCsvFlags &) = delete;

  SolveCsvRequest request;

private:
  llvm::cl::opt<std::string, true> inputPath;
  llvm::cl::opt<int64_t, true> capacity;
  llvm::cl::opt<Algorithm, true> algorithm;
  llvm::cl::opt<int64_t, true> timeLimitMs;
  llvm::cl::opt<int64_t, true> alignment;
  llvm::cl::opt<std::string, true> outputPath;
  llvm::cl::opt<bool, true> json;
};

/// Runs `solve` with `flags` and returns its exit code (docs/CLI.md: 0
/// packed, 1 bad input, 2 no packing within the capacity, 3 internal
/// error), printing an error as `tool: error: ...` on stderr.
int runSolveCsvCommand(const SolveCsvFlags &flags, llvm::StringRef tool);

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_SOLVECSVFLAGS_H

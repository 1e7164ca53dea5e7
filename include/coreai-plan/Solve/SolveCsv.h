//===- SolveCsv.h - The `solve` command over a MiniMalloc CSV ---*- C++ -*-===//
//
// One implementation of `solve` for the two binaries that offer it:
// `coreai-plan solve` (a subcommand) and `coreai-solve` (linked without
// MLIR). The flags and the exit codes are the tools' (tools/common/); this
// takes the request as plain values and answers with llvm::Error.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_SOLVECSV_H
#define COREAI_PLAN_SOLVECSV_H

#include "coreai-plan/Options.h"
#include "coreai-plan/Solve/Solve.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace coreai {

struct SolveCsvRequest {
  std::string inputPath;
  /// Look for a packing within this many bytes (0: minimise the heap).
  int64_t capacity = 0;
  Algorithm algorithm = Algorithm::Best;
  int64_t timeLimitMs = defaultSolveTimeLimitMs;
  /// MiniMalloc's problems are byte-exact: no alignment unless asked for.
  int64_t alignment = 1;
  /// Where to write the problem with an offset column (empty: nowhere).
  std::string outputPath;
  /// Print the summary as one JSON object (with every offset) instead of
  /// the table: for programs that call `solve` (python/).
  bool json = false;
};

/// The solver's plan failed the independent verifier: a bug, never output.
/// Every other error of runSolveCsv is bad input.
class SolveInternalError : public llvm::ErrorInfo<SolveInternalError> {
public:
  static char ID;
  explicit SolveInternalError(std::string message)
      : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string message;
};

enum class SolveCsvAnswer { Packed, NoPacking };

/// Reads the problem, packs it, verifies the plan, prints the summary on
/// `out` and writes the offset CSV when asked. NoPacking: nothing fits
/// within the capacity (the summary says whether that is proven).
llvm::Expected<SolveCsvAnswer> runSolveCsv(const SolveCsvRequest &request,
                                           llvm::raw_ostream &out);

} // namespace coreai

#endif // COREAI_PLAN_SOLVECSV_H

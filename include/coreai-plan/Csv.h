//===- Csv.h - MiniMalloc's CSV problem format ------------------*- C++ -*-===//
//
// `id,lower,upper,size[,offset]`, one buffer per row, live on [lower, upper).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_CSV_H
#define COREAI_PLAN_CSV_H

#include "coreai-plan/Problem.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace coreai {

/// Parses a problem. Errors name the source and line
/// (`P.csv:7: size must be positive`). Every buffer gets `alignment`.
/// An `offset` column, if present, is returned in `offsets`.
llvm::Expected<BufferProblem>
readProblemCsv(llvm::StringRef text, llvm::StringRef sourceName,
               int64_t alignment = 1,
               std::vector<int64_t> *offsets = nullptr);

/// Writes `id,lower,upper,size` and, with a plan, an `offset` column.
std::string writeProblemCsv(const BufferProblem &problem,
                            const Plan *plan = nullptr);

} // namespace coreai

#endif // COREAI_PLAN_CSV_H

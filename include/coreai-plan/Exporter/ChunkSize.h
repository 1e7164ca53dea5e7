//===- ChunkSize.h - The chunk size a static graph was exported at -*- C++ -*-===//
//
// A static graph does not say which chunk size S it is the program for;
// the exporter does, by convention (docs/LIVENESS.md, "the chunk size of a
// static function"). The generic planner asks here instead of knowing the
// conventions itself. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_EXPORTER_CHUNKSIZE_H
#define COREAI_PLAN_EXPORTER_CHUNKSIZE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace coreai {

/// What the conventions read of one function argument: its `coreai.name`
/// and, when the type is a static tensor, its shape.
struct ExportedArgument {
  llvm::StringRef name;
  std::optional<llvm::ArrayRef<int64_t>> staticShape;
};

/// The exporter's name of the token ids a language model's forward takes,
/// shaped [batch, S] (Hugging Face's `input_ids`).
inline constexpr llvm::StringLiteral tokenIdsArgument = "input_ids";

/// S of a static function, by the exporter's conventions in order: the
/// function's `coreai.seq_len` (`seqLen`), else dim 1 of its token ids
/// argument, else 0 (the graph has no chunk dimension).
int64_t exportedChunkSize(std::optional<int64_t> seqLen,
                          llvm::ArrayRef<ExportedArgument> arguments);

} // namespace coreai

#endif // COREAI_PLAN_EXPORTER_CHUNKSIZE_H

//===- AtenArgs.h - Reading an exported op's `coreai.args` ------*- C++ -*-===//
//
// The op's side of coreai-plan/Exporter/AtenArgs.h: the attribute, parsed.
// Anything the reader does not understand is reported as such and the
// callers assume the worst (a file from disk cannot get here: the dialect
// refuses a malformed `coreai.args` when it is parsed).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_ATENARGS_H
#define COREAI_PLAN_PASSES_ATENARGS_H

#include "coreai-plan/Aten/OpFacts.h"
#include "coreai-plan/Exporter/AtenArgs.h"

#include "mlir/IR/Operation.h"

namespace coreai {

/// The op's `coreai.args`, parsed. std::nullopt when the op has none, or
/// has one this reader cannot split; `present` says which.
std::optional<AtenArgs> atenArgsOf(mlir::Operation *op,
                                   bool *present = nullptr);

/// The literal value the call gives the argument a condition of the ATen
/// op facts names (as a keyword, or at its position unless keyword-only);
/// std::nullopt when the call does not give it.
std::optional<llvm::StringRef>
conditionArgument(const aten::ArgumentCondition &condition,
                  const AtenArgs &args);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_ATENARGS_H

//===- Printing.h - How the passes name IR in their output ------*- C++ -*-===//
#ifndef COREAI_PLAN_PASSES_PRINTING_H
#define COREAI_PLAN_PASSES_PRINTING_H

#include "mlir/IR/Location.h"

#include <string>

namespace coreai {

/// `file:line:col` for a file location, else the printed Location: what
/// manifests and messages show as an op's place in the source.
std::string locationString(mlir::Location loc);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_PRINTING_H

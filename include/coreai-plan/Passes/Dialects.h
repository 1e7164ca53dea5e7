//===- Dialects.h - The dialects coreai-plan reads --------------*- C++ -*-===//
#ifndef COREAI_PLAN_PASSES_DIALECTS_H
#define COREAI_PLAN_PASSES_DIALECTS_H

#include "mlir/IR/DialectRegistry.h"

namespace coreai {

/// The coreai dialect (the planned IR's attributes) and the upstream
/// dialects a user's graph may bring: func, arith, math,
/// tensor, tosa, linalg, scf, memref, bufferization. Exported torch graphs
/// are generic-form ops of unregistered dialects on top of these.
void registerInputDialects(mlir::DialectRegistry &registry);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_DIALECTS_H

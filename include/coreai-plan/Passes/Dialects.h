//===- Dialects.h - The dialects coreai-plan reads --------------*- C++ -*-===//
#ifndef COREAI_PLAN_PASSES_DIALECTS_H
#define COREAI_PLAN_PASSES_DIALECTS_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>

namespace coreai {

/// The coreai dialect (the planned IR's attributes) and the upstream
/// dialects a user's graph may bring: func, arith, math,
/// tensor, tosa, linalg, scf, memref, bufferization. Exported torch graphs
/// are generic-form ops of unregistered dialects on top of these.
void registerInputDialects(mlir::DialectRegistry &registry);

/// How a context differs between its users (the planner, the CLI's
/// commands, the importer, the fuzzers).
struct ContextOptions {
  /// MLIR's thread pool; off where planning is sequential and threads
  /// would only cost startup.
  bool threading = true;
  /// Print the op with a diagnostic at it (off where the op is a whole,
  /// possibly huge, function).
  bool printOpOnDiagnostic = true;
  /// Drop every diagnostic (the fuzzers: bad input is expected).
  bool quietDiagnostics = false;
  /// Load every registered dialect now rather than when a parse needs it.
  bool loadAllDialects = false;
};

/// The one way coreai-plan makes a context: registerInputDialects, the
/// unregistered dialects exported graphs are made of allowed, then
/// `options`. coreai-plan-opt's MlirOptMain makes its own context from a
/// registry filled by registerInputDialects.
std::unique_ptr<mlir::MLIRContext> makeContext(const ContextOptions &options = {});

} // namespace coreai

#endif // COREAI_PLAN_PASSES_DIALECTS_H

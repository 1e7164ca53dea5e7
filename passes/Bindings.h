//===- Bindings.h - The function's state bindings, checked ------*- C++ -*-===//
//
// A runtime writes each `state_update` result back into the `state`
// argument with the same `coreai.name`. That binding must be a function:
// one state per update, one update per state, unique state names, and
// never an input, weight or constant (docs/LIVENESS.md, "Input").
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_BINDINGS_H
#define COREAI_PLAN_PASSES_BINDINGS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

namespace coreai {

/// Emits an error at the function naming the result or argument and fails
/// when a `state_update` result names no `state` argument (or names an
/// argument of another kind), when two updates name the same state, or
/// when two `state` arguments share a name (or have none).
mlir::LogicalResult checkStateBindings(mlir::func::FuncOp func);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_BINDINGS_H

//===- Functionalize.h - In-place ATen ops as their functional twins -*- C++ -*-===//
//
// The one functionalisation (docs/IMPORT.md, "Non-functional programs"):
// the `.pt2` importer builds the program as written and runs it, and
// readModel runs it on every `.mlir` function, so the planner, the replay
// and the effect model only ever see values.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_FUNCTIONALIZE_H
#define COREAI_PLAN_PASSES_FUNCTIONALIZE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace coreai {

/// Whether the function's body holds an in-place ATen op with a functional
/// twin (or `detach_`): what `functionalize` rewrites.
bool hasInPlaceOps(mlir::func::FuncOp func);

/// Rewrites every in-place ATen op of the body into its functional twin,
/// writes through views back into their sources (`slice_scatter`,
/// `select_scatter`, reshapes, the inverse permutation), makes a view read
/// after its storage was written again from the new value, and returns the
/// final value of every written `state` argument as its `state_update`
/// (before the other results). A write into any other argument, or through
/// a view that cannot be written back, is an error at the writer. A function
/// without in-place ops is left as it is.
mlir::LogicalResult functionalize(mlir::func::FuncOp func);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_FUNCTIONALIZE_H

//===- Reorder.h - A memory-aware order of a function's ops -----*- C++ -*-===//
//
// The IR side of coreai-plan/Schedule.h: which top-level ops must stay
// ordered (data dependencies, including uses inside regions, and the order
// of ops with side effects), what each produces, and moving the ops.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_REORDER_H
#define COREAI_PLAN_PASSES_REORDER_H

#include "coreai-plan/Passes/PlanFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include <vector>

namespace coreai {

/// The ops of the function's single block in a topological order chosen to
/// keep live bytes low (coreai::memoryAwareOrder), the terminator last. The
/// bytes are those of `buffers`, the function's heap buffers planned in the
/// current order (in-place chains as one buffer, nothing outside the heap).
/// Ops with side effects keep their relative order; ops of the exported
/// ATen graph (`torch.aten.*` with results, no trailing `_`) are pure, as
/// torch.export's functional graphs guarantee.
std::vector<mlir::Operation *>
memoryAwareOrder(mlir::func::FuncOp func, const FunctionBuffers &buffers);

/// The ops of the function's single block as they are now.
std::vector<mlir::Operation *> currentOrder(mlir::func::FuncOp func);

/// Moves the block's ops into `order` (every op of the block once).
void applyOrder(mlir::func::FuncOp func,
                llvm::ArrayRef<mlir::Operation *> order);

/// The order change without a solve, for pipelines that plan later (after
/// bufferization): applies memoryAwareOrder when it lowers the lower bound
/// of the function's buffer problem, else leaves the order. Returns the
/// bounds before and after (equal when nothing moved); fails where
/// liveness does (the diagnostic was emitted).
mlir::FailureOr<std::pair<int64_t, int64_t>>
reorderForLowerBound(mlir::func::FuncOp func, const LivenessOptions &options);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_REORDER_H

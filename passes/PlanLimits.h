//===- PlanLimits.h - A plan against its limits -----------------*- C++ -*-===//
//
// What planFunction checks of a packed plan before it leaves: the
// target's limits (max-buffer, max-heap), a heap budget the least
// workspace cannot meet, and the plan once the kernel variants grew its
// workspaces. Each failure is an error naming the entry, S, and the op and
// value (or workspace) that hold the bytes.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_PLANLIMITS_H
#define COREAI_PLAN_PASSES_PLANLIMITS_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/OutputBins.h"
#include "coreai-plan/Passes/PlanFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace coreai {

/// The heap with the least-workspace variants is above `budget`.
void reportOverBudget(mlir::func::FuncOp func, const PlannedEntry &entry,
                      int64_t budget);

/// The plan once the variants grew its workspaces, checked again by the
/// interval verifier (heap and lent outputs).
mlir::LogicalResult verifyChosen(mlir::func::FuncOp func,
                                 const FunctionBuffers &buffers,
                                 const Plan &plan, const BinAssignment &binOf);

/// The target's limits (max-buffer, max-heap).
mlir::LogicalResult checkLimits(mlir::func::FuncOp func,
                                const PlannedEntry &entry,
                                const FunctionPlanOptions &options);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_PLANLIMITS_H

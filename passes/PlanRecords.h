//===- PlanRecords.h - What a plan records for the manifest -----*- C++ -*-===//
//
// The parts of a PlannedEntry that describe a planned function beyond its
// buffers: its fused kernels (ops, inner values, the buffers they write)
// and the values placed straight into outputs' and states' storage.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_PLANRECORDS_H
#define COREAI_PLAN_PASSES_PLANRECORDS_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/Passes/PlanFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace coreai {

std::vector<PlannedEntry::Kernel> kernelRecords(mlir::func::FuncOp func,
                                               const FunctionBuffers &buffers);

std::vector<PlannedEntry::Placed> placedValues(mlir::func::FuncOp func,
                                               const FunctionBuffers &buffers);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_PLANRECORDS_H

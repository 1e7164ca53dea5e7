//===- ResultDtypes.h - Results sized by the target's kernel's dtype -*- C++ -*-===//
//
// Where a target's kernel writes a result in another dtype than the graph
// says (coreai-plan/Target/ResultDtypes.h), the plan sizes the result by
// the kernel's dtype and writes `coreai.result_dtypes` on its op
// (docs/LIVENESS.md); the replay asks the target the same question on its
// own, so a plan sized by the graph's type fails there.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_RESULTDTYPES_H
#define COREAI_PLAN_PASSES_RESULTDTYPES_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/Target/ResultDtypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"

#include <vector>

namespace coreai {

/// The element type the target's kernel writes result `index` of `op` in
/// (a torch.aten op's tensor result), where `rules` name another than the
/// graph's; null otherwise.
mlir::Type kernelElementType(mlir::Operation *op, unsigned index,
                             const ResultDtypeRules &rules);

/// The result's type as the target's kernel writes it: its own, with
/// kernelElementType's element type where there is one.
mlir::Type kernelTypeOf(mlir::Operation *op, unsigned index,
                        const ResultDtypeRules &rules);

/// Writes `coreai.result_dtypes` (one type per result: the kernel's
/// element type, else the graph's) on every op of `func` with a result the
/// target's kernel writes in another dtype; removes it from the others.
void annotateResultDtypes(mlir::func::FuncOp func,
                          const ResultDtypeRules *rules);

/// Where the plan's sizes follow the target's dtypes rather than the
/// graph's (results with a planned slot: `#coreai.heap` or `#coreai.lent`
/// in the function's annotations): per op name and pair of dtypes, the
/// results and the bytes the kernel's dtype adds (for explain), in order
/// of first appearance.
std::vector<PlannedEntry::KernelDtype>
kernelDtypeRecords(mlir::func::FuncOp func, const ResultDtypeRules *rules);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_RESULTDTYPES_H

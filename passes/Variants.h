//===- Variants.h - Which kernel variant each op runs -----------*- C++ -*-===//
//
// A target may offer several kernels for one op, each with its workspace
// and its relative cost (docs/WORKSPACE.md, "Kernel variants"): split-K
// with four f32 partial outputs, or a direct GEMM with none. Liveness
// plans every op with its least-workspace variant, so the heap is the
// smallest the variants allow. Then, on the packed plan, each step gets
// the cheapest variants whose workspace fits in bytes free during that
// step, in the heap below its size (or below `--heap-budget`) or in a lent
// output: a faster kernel where it costs no heap, the slower one where the
// bytes are needed. A workspace lives only during its step, so each step
// is decided on its own, and the plan's other buffers do not move.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_VARIANTS_H
#define COREAI_PLAN_PASSES_VARIANTS_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/OutputBins.h"
#include "coreai-plan/Passes/PlanFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace coreai {

/// Picks a variant for every op of `func` whose workspace rule has several,
/// writes it as the op's `coreai.variant`, and grows or adds the steps'
/// workspace buffers of `buffers` (placed in `plan` and `binOf`) to match.
/// `heapLimit` is the heap the choice may use (at least `plan.heap`),
/// `maxBuffer` the target's largest buffer (0: unlimited), which no step's
/// workspace may pass. A step with no room for any choice beside the plan
/// keeps its least-workspace variants where the plan packed them. The
/// choices, in body order.
mlir::FailureOr<std::vector<PlannedEntry::VariantChoice>>
chooseVariants(mlir::func::FuncOp func, FunctionBuffers &buffers, Plan &plan,
               BinAssignment &binOf, const LivenessOptions &options,
               int64_t heapLimit, int64_t maxBuffer);

/// Names, on every top-level op whose variants need different workspace
/// and that names none, its least-workspace variant: the one liveness
/// sized its step with (docs/WORKSPACE.md, "Kernel variants": a plan names
/// every such op's variant). Failure with an error at an op whose rule
/// cannot be evaluated.
mlir::LogicalResult nameLeastWorkspaceVariants(mlir::func::FuncOp func,
                                               const WorkspaceRules &rules);

/// The variant each top-level op of `func` whose variants need different
/// workspace names (`coreai.variant`), as the manifest lists them: in body
/// order, with the bytes it needs and the cheapest's.
std::vector<PlannedEntry::VariantChoice>
namedVariants(mlir::func::FuncOp func, const WorkspaceRules &rules);

/// Whether some op of `func` has a workspace rule with several variants.
bool hasVariantChoices(mlir::func::FuncOp func, const WorkspaceRules &rules);

/// Names every op whose variants need different workspace its rule's
/// cheapest (`coreai.variant`), or, with `cheapest` false, removes the
/// names (each op then runs its least-workspace variant).
mlir::LogicalResult nameCheapestVariants(mlir::func::FuncOp func,
                                         const WorkspaceRules &rules,
                                         bool cheapest);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_VARIANTS_H

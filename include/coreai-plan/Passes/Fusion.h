//===- Fusion.h - Fused kernels from the input or the target's rules -*- C++ -*-===//
//
// Where a function's kernels come from, in order of authority: the input
// (a compiler upstream marked them with `coreai.kernel`), else the
// target's fusion rules (LivenessOptions::fuse*), else none. docs/FUSION.md
// has the rules and why each is sound.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_FUSION_H
#define COREAI_PLAN_PASSES_FUSION_H

#include "coreai-plan/Passes/PlanFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

namespace coreai {

/// Where a function's kernels came from.
enum class KernelSource {
  None,   ///< no kernels: every op's result is planned
  Input,  ///< the input marked them; the planner honours them as given
  Target, ///< the target's fusion rules formed them
};

llvm::StringRef kernelSourceName(KernelSource source);

/// Whether any fusion rule is on.
bool fusesAnything(const LivenessOptions &options);

/// Makes `func`'s kernels explicit before liveness: when the input marks
/// kernels (any op with `coreai.kernel`) they are checked and kept, the
/// rules not applied; otherwise, with a rule on, ops the rules fuse get
/// `coreai.kernel` ids and each kernel's ops are moved next to its last
/// op (data order and effect order kept). Idempotent. Fails, with an
/// error at the op, on a malformed input kernel. With `reportConflicts`,
/// input kernels the rules would have formed otherwise get a remark (once
/// per plan: planHeap's side measurements pass false).
mlir::FailureOr<KernelSource> formKernels(mlir::func::FuncOp func,
                                          const LivenessOptions &options,
                                          bool reportConflicts = true);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_FUSION_H

//===- Workspace.h - The kernels' workspace of a function -------*- C++ -*-===//
//
// The target's workspace rules (coreai-plan/Target/Workspace.h) applied to
// a function body: for each step (an op, or a fused kernel) the bytes of
// scratch its kernel needs while it runs. Liveness adds one buffer per step
// with workspace, live over exactly that step (docs/WORKSPACE.md).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_WORKSPACE_H
#define COREAI_PLAN_PASSES_WORKSPACE_H

#include "Kernels.h"

#include "coreai-plan/Target/Workspace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace coreai {

/// One step's workspace.
struct StepWorkspace {
  unsigned first = 0; ///< position of the step's first op
  unsigned last = 0;  ///< position of its last op (which carries the attr)
  int64_t bytes = 0;
  int64_t alignment = 1; ///< the largest its ops' rules ask for
  mlir::Operation *op = nullptr; ///< the step's last op
};

/// The workspace of every step of `func` with one (in body order). A fused
/// kernel's is the sum of its ops': its ops run as one launch whose
/// threadgroups may hold every op's scratch at once, so none can reuse
/// another's. Fails (an error at the op) when a rule cannot be evaluated
/// for an op it covers (a missing operand or dim argument, a negative
/// result, an overflow).
mlir::FailureOr<std::vector<StepWorkspace>>
stepWorkspaces(mlir::func::FuncOp func, const FunctionKernels &kernels,
               const WorkspaceRules &rules);

/// The target's rule for `op`, or null.
const WorkspaceRule *workspaceRuleOf(mlir::Operation *op,
                                     const WorkspaceRules &rules);

/// One kernel variant of an op with the workspace it needs there.
struct OpVariant {
  const WorkspaceVariant *variant;
  int64_t bytes;
};

/// Every variant of `rule` with its bytes for `op`, in the rule's order;
/// failure with an error at the op when one cannot be evaluated.
mlir::FailureOr<llvm::SmallVector<OpVariant, 2>>
opVariants(mlir::Operation *op, const WorkspaceRule &rule, int64_t splitK);

/// The bytes the rules give one op (0: none applies) for the variant it
/// runs: the one its `coreai.variant` names, else the one with the least
/// workspace. Failure with an error at the op.
mlir::FailureOr<int64_t> opWorkspace(mlir::Operation *op,
                                     const WorkspaceRules &rules,
                                     int64_t *alignment = nullptr);

/// Why `op` breaks the variant contract (docs/WORKSPACE.md, "Kernel
/// variants"): its rule offers variants needing different workspace at
/// its shapes and it names none. std::nullopt where it keeps it.
std::optional<std::string> unnamedVariant(mlir::Operation *op,
                                          const WorkspaceRules &rules);

/// The bytes the rules give the ops of one step together (a kernel's is
/// the sum of its ops'), or the first rule's error (an op naming a variant
/// its rule lacks, a rule its shapes do not fit), without a diagnostic.
llvm::Expected<int64_t> stepWorkspaceBytes(llvm::ArrayRef<mlir::Operation *> ops,
                                           const WorkspaceRules &rules);

/// A static shaped type as a rule's tensor (its shape and element bytes);
/// none for a dynamic or unshaped one.
std::optional<WorkspaceTensor> tensorOf(mlir::Type type);

/// A fused kernel of fusion's attention pattern (two products with a
/// normalisation between them) as the target's class `attention_kernel` rule
/// sees it: in0, in1, in2 = q, k, v as the kernel reads them from outside
/// (through its own views and copies), in3 = the mask where the kernel
/// computes it itself (a recomputed chain; an empty tensor where it reads
/// its mask or has none), out = the second product's result
/// (passes/AttentionWorkspace.cpp). None for any other step.
std::optional<WorkspaceOp> attentionKernelOf(llvm::ArrayRef<mlir::Operation *> ops);

/// The workspace the class `attention_kernel` rule gives a step that is such a
/// kernel (its least variant; 0 for any other step or without a rule):
/// the runtime runs the kernel as one attention call, whose scratch this
/// is, on top of its ops' own rules.
mlir::FailureOr<int64_t>
attentionKernelWorkspace(llvm::ArrayRef<mlir::Operation *> ops,
                         const WorkspaceRules &rules,
                         int64_t *alignment = nullptr);

struct FunctionBuffers;

/// Appends a buffer per step workspace of `func` to `buffers` (live over
/// [first, last + 1), aligned to `alignment` or its rule's, named `ws@N`
/// after its step's last op position N), recorded in
/// `buffers.workspaces`.
mlir::LogicalResult addWorkspaces(mlir::func::FuncOp func,
                                  const FunctionKernels &kernels,
                                  const WorkspaceRules &rules,
                                  int64_t alignment, FunctionBuffers &buffers);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_WORKSPACE_H

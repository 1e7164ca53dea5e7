//===- Kernels.h - The fused kernels of a function --------------*- C++ -*-===//
//
// A kernel is a run of top-level ops that carry the same `coreai.kernel`
// id: the runtime runs them as one, so a value no op outside the kernel
// reads needs no memory, and for liveness and placement the kernel is one
// step (its operands are read across all of it, its results are written
// during it). The rules and why they are sound are in docs/FUSION.md.
// Liveness, the replay, the reorder and the fusion pass read kernels
// through this file.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_KERNELS_H
#define COREAI_PLAN_PASSES_KERNELS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace coreai {

/// The kernel id `op` carries, if any.
std::optional<int64_t> kernelOf(mlir::Operation *op);

/// The kernels of a function body, by op position.
struct FunctionKernels {
  struct Kernel {
    int64_t id = 0;
    unsigned first = 0; ///< position of its first op in the body
    unsigned last = 0;  ///< position of its last op
  };
  std::vector<Kernel> kernels; ///< in body order
  /// Per op position: the index into `kernels` of its kernel, or -1.
  std::vector<int> kernelAt;

  /// The first and last position of the step the op at `position` is part
  /// of: its kernel, or the op alone.
  unsigned stepStart(unsigned position) const;
  unsigned stepEnd(unsigned position) const;
  bool empty() const { return kernels.empty(); }
};

/// Reads the kernels of `func`'s body. A kernel whose ops are not
/// contiguous, that holds an op with effects (Effects.h), an op with
/// regions or the terminator, or whose id is used twice, is an error at
/// the offending op.
mlir::FailureOr<FunctionKernels> readKernels(mlir::func::FuncOp func);

/// The operands of kernel `ops` (in body order) that its result `result`
/// may be written over: the kernel in-place rule. Every op of the kernel
/// is elementwise (or a layout-keeping view) over `result`'s elements, so
/// element i of every value the kernel computes depends on element i of
/// each such operand only; the operand has `result`'s exact type, is read
/// at the result's own index (not through a view, not as a broadcast
/// term), and every op reading it has read it before `result` is written:
/// with `runsInIrOrder` (the target promises its kernels run their ops in
/// IR order) the ops up to `result`'s; otherwise the ops `result`'s op
/// depends on, so that it holds in every order a runtime may choose.
/// Empty for a kernel of one op: the op's own rule applies.
llvm::SmallVector<mlir::Value, 2>
kernelInPlaceOperands(llvm::ArrayRef<mlir::Operation *> ops,
                      mlir::Value result, bool runsInIrOrder);

/// kernelInPlaceOperands for every result of one kernel, with what does
/// not depend on the result worked out once: asked result by result, the
/// rule looked at every op of the kernel for each (a tenth of a parametric
/// plan's replays).
class KernelInPlaceRule {
public:
  KernelInPlaceRule(llvm::ArrayRef<mlir::Operation *> ops, bool runsInIrOrder);
  llvm::SmallVector<mlir::Value, 2> operandsFor(mlir::Value result) const;

private:
  struct Read {
    llvm::SmallVector<mlir::Operation *, 2> readers; ///< ops reading it
    bool notAtIndex = false; ///< a view or a broadcast term reads it
  };
  llvm::DenseSet<mlir::Operation *> ancestors(mlir::Operation *definer) const;

  llvm::SmallVector<mlir::Operation *, 4> ops;
  llvm::DenseSet<mlir::Operation *> inKernel;
  bool runsInIrOrder;
  /// Every op elementwise over this many elements (unset: the rule
  /// allows nothing).
  std::optional<int64_t> elements;
  llvm::SmallVector<mlir::Value, 4> readOrder;
  llvm::DenseMap<mlir::Value, Read> external;
};

/// The ops of each kernel of `func`, in body order (a kernel per entry).
std::vector<llvm::SmallVector<mlir::Operation *, 4>>
kernelOps(mlir::func::FuncOp func, const FunctionKernels &kernels);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_KERNELS_H

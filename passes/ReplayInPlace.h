//===- ReplayInPlace.h - What the replay lets a result overwrite -*- C++ -*-===//
//
// The replay's own source of truth for reuse: a short list, reviewed by
// hand, of the ops whose result it accepts on the bytes of an operand, and
// of the views that keep their source's element order. It shares nothing
// with the planner's judgement (the ATen op facts' `elementwise` tags,
// OpClasses, ElementAccess, the kernel in-place rule of Kernels.h), so a
// wrong fact there gives a plan this list refuses: the replay fails
// instead of passing the planner's mistake. It is deliberately smaller
// than the planner's table; an op the planner writes in place that is not
// here fails the replay, and joins the list only by review
// (docs/LIVENESS.md, "The replay's own list").
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_REPLAYINPLACE_H
#define COREAI_PLAN_PASSES_REPLAYINPLACE_H

#include "mlir/IR/Operation.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace coreai::replaylist {

/// Operands of `op`, run alone, whose bytes its result 0 may take: an
/// elementwise op or copy of the list over an operand of the result's exact
/// type, a softmax over its input, an update of operand 0 that replaces
/// some of its elements (`index_put`), inference batch norm.
llvm::SmallVector<unsigned, 2> overwritableOperands(mlir::Operation *op);

/// Whether the view `op` (a reshape, a squeeze) keeps the element order of
/// its source: element i of the view is element i of the source's bytes.
bool viewKeepsOrder(mlir::Operation *op);

/// A fused kernel's results and the operands each may lie on: every op of
/// the kernel is in the list's elementwise ops, copies, fills or
/// order-keeping views over one count of elements; the operand has the
/// result's type, no view reads it, and every op reading it is the
/// result's op or one it depends on (with `irOrder`, one before it).
class KernelOverwrites {
public:
  KernelOverwrites(llvm::ArrayRef<mlir::Operation *> ops, bool irOrder);
  llvm::SmallVector<mlir::Value, 2> operandsFor(mlir::Value result) const;

private:
  llvm::SmallVector<mlir::Operation *, 4> ops;
  llvm::DenseSet<mlir::Operation *> inKernel;
  bool irOrder;
  bool allElementwise = false;
  /// Operands from outside, in the order first read: the ops reading
  /// each; null for a view's read.
  llvm::MapVector<mlir::Value, llvm::SmallVector<mlir::Operation *, 2>>
      readers;
};

} // namespace coreai::replaylist

#endif // COREAI_PLAN_PASSES_REPLAYINPLACE_H

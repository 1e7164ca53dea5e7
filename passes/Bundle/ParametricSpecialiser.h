//===- ParametricSpecialiser.h - A function at one S, in one op order -----===//
//
// Private to passes/Bundle: the clones the parametric planner makes of a
// dynamic function, each specialised at one S and put in the op order of
// the part of the range being planned.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_BUNDLE_PARAMETRICSPECIALISER_H
#define COREAI_PLAN_LIB_BUNDLE_PARAMETRICSPECIALISER_H

#include "coreai-plan/Bundle/Planner.h"
#include "coreai-plan/Passes/Reorder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <string>
#include <vector>

namespace coreai {

/// Clones of the source function specialised at one S and put in the op
/// order chosen for the range (positions in the source's order).
class Specialiser {
public:
  Specialiser(const PlanJob &job, mlir::ModuleOp planned)
      : job(job), source(job.source), planned(planned) {}

  /// A clone in `planned` at S, in the source's own order; the caller
  /// erases it or keeps it.
  mlir::FailureOr<mlir::func::FuncOp> cloneAt(int64_t s,
                                              llvm::StringRef name) const;

  /// A clone in the range's order kept to check many S (the replay at
  /// every S of a piece): made once, then moved to each S by rebind(),
  /// which costs a fraction of a fresh clone.
  struct Rebindable {
    mlir::func::FuncOp func;
    /// Every value's type in the source (dynamic where S is).
    std::vector<std::pair<mlir::Value, mlir::Type>> types;
    mlir::FunctionType type;
  };

  /// cloneAt's clone in the range's order (order()), at no S yet.
  Rebindable rebindable(llvm::StringRef name) const;

  /// `clone` specialised at S: what cloneAt and order() make there. Only
  /// the types depend on S (specializeShapes), so they are put back to the
  /// source's and bound again.
  mlir::LogicalResult rebind(Rebindable &clone, int64_t s) const;

  /// `clone` (in the source's order) moved into the range's order, with
  /// the reference's fused kernels: every S runs the same kernels (the
  /// rules, which weigh bytes, could group a small S otherwise).
  void order(mlir::func::FuncOp clone) const {
    std::vector<mlir::Operation *> ops = currentOrder(clone);
    if (!order_.empty()) {
      std::vector<mlir::Operation *> moved;
      moved.reserve(ops.size());
      for (unsigned position : order_)
        moved.push_back(ops[position]);
      applyOrder(clone, moved);
      ops = std::move(moved);
    }
    mlir::Builder builder(clone.getContext());
    for (auto [op, kernel] : llvm::zip(ops, kernels_))
      if (kernel >= 0)
        op->setAttr("coreai.kernel", builder.getI64IntegerAttr(kernel));
  }

  /// Records the order planFunction left `clone` in; `before` is its order
  /// when it was cloned.
  void recordOrder(llvm::ArrayRef<mlir::Operation *> before,
                   mlir::func::FuncOp clone) {
    llvm::DenseMap<mlir::Operation *, unsigned> position;
    for (unsigned i = 0; i < before.size(); ++i)
      position[before[i]] = i;
    order_.clear();
    kernels_.clear();
    bool moved = false, fused = false;
    for (mlir::Operation *op : currentOrder(clone)) {
      moved |= position.lookup(op) != order_.size();
      order_.push_back(position.lookup(op));
      auto kernel = op->getAttrOfType<mlir::IntegerAttr>("coreai.kernel");
      kernels_.push_back(kernel ? kernel.getInt() : -1);
      fused |= bool(kernel);
    }
    if (!moved)
      order_.clear();
    if (!fused)
      kernels_.clear();
  }

  /// The order clones are put in (empty: the source's), and the kernel of
  /// each op in that order (empty: none).
  const std::vector<unsigned> &positions() const { return order_; }
  const std::vector<int64_t> &kernels() const { return kernels_; }
  void setLayout(std::vector<unsigned> order, std::vector<int64_t> kernels) {
    order_ = std::move(order);
    kernels_ = std::move(kernels);
  }

  std::string symbol;

private:
  /// The source cloned into `planned` under `name`, not specialised.
  mlir::func::FuncOp unboundClone(llvm::StringRef name) const;
  /// `clone`'s types bound at S (its types the source's).
  mlir::LogicalResult bind(mlir::func::FuncOp clone, int64_t s) const;

  const PlanJob &job;
  // Copies: MLIR's op handles are not const-correct.
  mutable mlir::func::FuncOp source;
  mutable mlir::ModuleOp planned;
  std::vector<unsigned> order_; ///< empty: the exported order
  std::vector<int64_t> kernels_; ///< per op in order_'s order; -1: none
};

/// Why the buffers at S are not the reference's buffers, if they are not.
/// The outputs lent (with borrowing) must be the same outputs available
/// until the same op; only their capacities may depend on S.
llvm::Error sameBuffers(const FunctionBuffers &reference,
                        const FunctionBuffers &other);

} // namespace coreai

#endif // COREAI_PLAN_LIB_BUNDLE_PARAMETRICSPECIALISER_H

//===- BufferPositions.h - A function's buffers, by position --------------===//
//
// Private to passes/Bundle. Every clone of a piece of a parametric range
// has the same ops in the same order; only the types differ. The buffers
// liveness found on one of them are recorded by position (op, result), so
// the clone at another S gets them without liveness running again: that
// was a third of checking a range S by S.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_BUNDLE_BUFFERPOSITIONS_H
#define COREAI_PLAN_LIB_BUNDLE_BUFFERPOSITIONS_H

#include "coreai-plan/Passes/PlanFunction.h"

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace coreai {

class BufferPositions {
public:
  BufferPositions() = default;
  /// `buffers`, found by liveness on `clone`, by position.
  BufferPositions(mlir::func::FuncOp clone, const FunctionBuffers &buffers);

  /// The recorded buffers on `clone` (the same ops in the same order),
  /// sized by `problem` and `bins` (the plan's at the clone's S). Nothing
  /// here is checked against the clone's types: the replay does that
  /// (every placed value's size against its type).
  FunctionBuffers on(mlir::func::FuncOp clone, BufferProblem problem,
                     std::vector<OutputBin> bins) const;

private:
  /// An op's result (`op` its position), or with op < 0 an argument.
  struct Position {
    int64_t op;
    unsigned index;
  };
  FunctionBuffers layout; ///< the buffers with every value and op cleared
  std::vector<llvm::SmallVector<Position, 1>> values;
  std::vector<Position> external, fused;
  std::vector<int64_t> workspaceOps;
};

} // namespace coreai

#endif // COREAI_PLAN_LIB_BUNDLE_BUFFERPOSITIONS_H

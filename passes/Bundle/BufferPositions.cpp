//===- BufferPositions.cpp - A function's buffers, by position ------------===//
#include "BufferPositions.h"

#include "coreai-plan/Passes/Reorder.h"

#include "llvm/ADT/DenseMap.h"

namespace coreai {

BufferPositions::BufferPositions(mlir::func::FuncOp clone,
                                 const FunctionBuffers &buffers)
    : layout(buffers) {
  llvm::DenseMap<mlir::Operation *, int64_t> position;
  for (mlir::Operation *op : currentOrder(clone))
    position.try_emplace(op, int64_t(position.size()));
  auto positionOf = [&](mlir::Value value) -> Position {
    if (auto result = llvm::dyn_cast<mlir::OpResult>(value))
      return {position.lookup(result.getOwner()), result.getResultNumber()};
    return {-1, llvm::cast<mlir::BlockArgument>(value).getArgNumber()};
  };
  for (const auto &bufferValues : buffers.values) {
    values.emplace_back();
    for (mlir::Value value : bufferValues)
      values.back().push_back(positionOf(value));
  }
  for (const FunctionBuffers::External &placed : buffers.external)
    external.push_back(positionOf(placed.value));
  for (const FunctionBuffers::Fused &kept : buffers.fused)
    fused.push_back(positionOf(kept.value));
  for (const FunctionBuffers::Workspace &workspace : buffers.workspaces)
    workspaceOps.push_back(position.lookup(workspace.op));
  for (auto &bufferValues : layout.values)
    bufferValues.clear();
  for (auto &placed : layout.external)
    placed.value = nullptr;
  for (auto &kept : layout.fused)
    kept.value = nullptr;
  for (auto &workspace : layout.workspaces)
    workspace.op = nullptr;
}

FunctionBuffers BufferPositions::on(mlir::func::FuncOp clone,
                                    BufferProblem problem,
                                    std::vector<OutputBin> bins) const {
  std::vector<mlir::Operation *> ops = currentOrder(clone);
  auto valueAt = [&](Position at) -> mlir::Value {
    if (at.op < 0)
      return clone.getArgument(at.index);
    return ops[at.op]->getResult(at.index);
  };
  FunctionBuffers buffers = layout;
  buffers.problem = std::move(problem);
  buffers.bins = std::move(bins);
  for (size_t b = 0; b < values.size(); ++b)
    for (Position at : values[b])
      buffers.values[b].push_back(valueAt(at));
  for (size_t i = 0; i < external.size(); ++i)
    buffers.external[i].value = valueAt(external[i]);
  for (size_t i = 0; i < fused.size(); ++i)
    buffers.fused[i].value = valueAt(fused[i]);
  for (size_t i = 0; i < workspaceOps.size(); ++i)
    buffers.workspaces[i].op = ops[workspaceOps[i]];
  return buffers;
}

} // namespace coreai

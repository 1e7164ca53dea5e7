//===- Reorder.cpp - A memory-aware order of a function's ops -------------===//
#include "Effects.h"
#include "Kernels.h"

#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/Passes/Reorder.h"
#include "coreai-plan/Schedule.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace coreai {
namespace {

/// Whether moving `op` past ops it has no data dependency with keeps the
/// program's meaning: it has no effects (Effects.h). A write into an
/// operand is ordered too, though planning refuses such graphs before any
/// reordering (docs/LIVENESS.md, "Effects").
bool movesFreely(Operation *op) {
  return !op->hasTrait<OpTrait::IsTerminator>() && !effectsOf(op).ordered();
}

/// The schedule's nodes are steps: an op, or a fused kernel's ops, which
/// stay together and in their order (a kernel is one step).
class GraphBuilder {
public:
  GraphBuilder(Block &body, const FunctionBuffers &buffers) {
    std::optional<int64_t> previous;
    for (Operation &op : body) {
      std::optional<int64_t> kernel = kernelOf(&op);
      if (!kernel || kernel != previous)
        ops.emplace_back();
      previous = kernel;
      nodeOf[&op] = ops.size() - 1;
      ops.back().push_back(&op);
    }
    graph.predecessors.resize(ops.size());
    // The heap buffers as planned: an in-place chain is one tensor, and
    // values outside the heap (outputs, state) cost nothing.
    for (size_t b = 0; b < buffers.values.size(); ++b) {
      if (buffers.values[b].empty()) {
        // A workspace: bytes of its step alone (a tensor with no user).
        graph.tensors.push_back({buffers.problem.buffers[b].size, 0, {}});
        continue;
      }
      Value root = buffers.values[b].front();
      graph.tensors.push_back({buffers.problem.buffers[b].size,
                               *definer(root),
                               {}});
      for (Value value : buffers.values[b])
        bufferOf[value] = b;
    }
    for (const FunctionBuffers::Workspace &workspace : buffers.workspaces)
      graph.tensors[workspace.buffer].producer = nodeOf.lookup(workspace.op);
  }

  ScheduleGraph build() {
    int64_t lastEffect = -1;
    for (unsigned node = 0; node < ops.size(); ++node) {
      addDataDependencies(node);
      if (ops[node].front()->hasTrait<OpTrait::IsTerminator>()) {
        for (unsigned before = 0; before < node; ++before)
          graph.predecessors[node].push_back(before);
      } else if (!llvm::all_of(ops[node], movesFreely)) {
        if (lastEffect >= 0)
          graph.predecessors[node].push_back(lastEffect);
        lastEffect = node;
      }
    }
    return std::move(graph);
  }

  std::vector<llvm::SmallVector<Operation *, 1>> ops;

private:
  /// The top-level node defining `value`, if any.
  std::optional<unsigned> definer(Value value) const {
    Operation *def = value.getDefiningOp();
    if (!def) {
      auto argument = cast<BlockArgument>(value);
      def = argument.getOwner()->getParentOp();
    }
    for (; def; def = def->getParentOp()) {
      auto it = nodeOf.find(def);
      if (it != nodeOf.end())
        return it->second;
    }
    return std::nullopt; // a function argument
  }

  void addDataDependencies(unsigned node) {
    for (Operation *op : ops[node])
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (std::optional<unsigned> before = definer(operand))
            if (*before != node) {
              graph.predecessors[node].push_back(*before);
              readRoot(node, operand);
            }
      });
  }

  void readRoot(unsigned node, Value value) {
    auto buffer = bufferOf.find(value);
    if (buffer != bufferOf.end())
      graph.tensors[buffer->second].users.push_back(node);
  }

  ScheduleGraph graph;
  llvm::DenseMap<Operation *, unsigned> nodeOf;
  llvm::DenseMap<Value, unsigned> bufferOf;
};

} // namespace

std::vector<Operation *> currentOrder(func::FuncOp func) {
  std::vector<Operation *> order;
  for (Operation &op : func.getBody().front())
    order.push_back(&op);
  return order;
}

std::vector<Operation *> memoryAwareOrder(func::FuncOp func,
                                         const FunctionBuffers &buffers) {
  GraphBuilder builder(func.getBody().front(), buffers);
  ScheduleGraph graph = builder.build();
  std::vector<Operation *> order;
  for (unsigned node : coreai::memoryAwareOrder(graph))
    llvm::append_range(order, builder.ops[node]);
  return order;
}

void applyOrder(func::FuncOp func, ArrayRef<Operation *> order) {
  Block &body = func.getBody().front();
  for (Operation *op : order)
    op->moveBefore(&body, body.end());
}

FailureOr<std::pair<int64_t, int64_t>>
reorderForLowerBound(func::FuncOp func, const LivenessOptions &options) {
  FailureOr<FunctionBuffers> before = computeBuffers(func, options);
  if (failed(before))
    return failure();
  int64_t bound = lowerBound(before->problem);
  std::vector<Operation *> exported = currentOrder(func);
  std::vector<Operation *> order = memoryAwareOrder(func, *before);
  if (order == exported)
    return std::make_pair(bound, bound);
  applyOrder(func, order);
  FailureOr<FunctionBuffers> after = computeBuffers(func, options);
  if (failed(after))
    return failure();
  int64_t reordered = lowerBound(after->problem);
  if (reordered < bound)
    return std::make_pair(bound, reordered);
  applyOrder(func, exported);
  return std::make_pair(bound, bound);
}

} // namespace coreai

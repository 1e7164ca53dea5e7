//===- Schedule.h - Choosing an op order that keeps memory low --*- C++ -*-===//
//
// The exported op order is one topological order of the graph among many;
// the heap a plan needs depends on it. This is the order problem without
// MLIR: ops as nodes with the nodes they must follow, tensors as bytes a
// node produces that stay live until their last user has run.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_SCHEDULE_H
#define COREAI_PLAN_SCHEDULE_H

#include <cstdint>
#include <vector>

namespace coreai {

struct ScheduleGraph {
  /// Per node (in the given order, which must be topological): the nodes
  /// that must run before it (data dependencies and side-effect order).
  std::vector<std::vector<unsigned>> predecessors;
  struct Tensor {
    int64_t size = 0;
    unsigned producer = 0;
    /// Nodes reading the tensor (directly or through a view).
    std::vector<unsigned> users;
  };
  std::vector<Tensor> tensors;
};

/// The largest number of bytes live at once when the nodes run in `order`:
/// a tensor is live from its producer through its last user (a tensor with
/// no user only at its producer). `order` must be a permutation.
int64_t peakBytes(const ScheduleGraph &graph,
                  const std::vector<unsigned> &order);

/// A topological order with a low peak: the better of two candidates by
/// peakBytes, each improved by local moves that never raise the peak (an
/// op that makes more bytes than it frees sinks to just before its first
/// successor, one that frees more rises to just after the last node it
/// must follow): the given order, and a greedy order (of the nodes whose
/// predecessors have run, the one adding the fewest live bytes goes next;
/// ties keep the given order). Never above the given order's peak.
std::vector<unsigned> memoryAwareOrder(const ScheduleGraph &graph);

} // namespace coreai

#endif // COREAI_PLAN_SCHEDULE_H

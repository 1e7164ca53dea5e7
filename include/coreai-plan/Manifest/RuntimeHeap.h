//===- RuntimeHeap.h - A runtime's allocations simulated -------*- C++ -*-===//
//
// What a runtime does with a plan: allocate each buffer, in execution
// order, from a heap of a given size. check-heap uses it to show that the
// bundle heap suffices for every entry and why an under-sized one fails.
// (Not the replay of Replay.h, which verifies a plan on a shadow heap.)
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_RUNTIMEHEAP_H
#define COREAI_PLAN_RUNTIMEHEAP_H

#include "coreai-plan/Entry.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace coreai {

enum class AllocationPolicy {
  /// The offsets of the plan; buffers it borrowed in an output's storage
  /// are bound there, not in the heap.
  Planned,
  /// A runtime without a planner and without reuse: each buffer is placed
  /// right after the previous one (aligned), nothing is ever freed.
  Naive,
  /// A runtime without a planner that frees a buffer after its last use
  /// and places each new one at the lowest aligned offset where it fits
  /// (first fit over the free holes).
  FirstFit,
};

llvm::StringRef allocationPolicyName(AllocationPolicy mode);
std::optional<AllocationPolicy> parseAllocationPolicy(llvm::StringRef name);

/// The first allocation that does not fit.
struct HeapOverflow {
  size_t buffer = 0; ///< index into entry.problem.buffers
  int64_t offset = 0;
  int64_t size = 0;
};

struct RuntimeHeapResult {
  /// Bytes the allocations needed (max offset + size), whether or not it fit.
  int64_t heapUsed = 0;
  std::optional<HeapOverflow> overflow;
};

/// Allocates the entry's buffers in execution order (by start, ties by
/// buffer order) from a heap of `heapTotal` bytes. Buffers of size 0 or
/// with an empty live interval take no memory and are skipped.
RuntimeHeapResult simulateRuntimeHeap(const PlannedEntry &entry,
                                      AllocationPolicy mode, int64_t heapTotal);

/// The runtime's words: `allocateMTLBufferFromMTLHeap: offset O + size Z
/// exceeds heap total N`.
std::string describeOverflow(const HeapOverflow &overflow, int64_t heapTotal);

} // namespace coreai

#endif // COREAI_PLAN_RUNTIMEHEAP_H

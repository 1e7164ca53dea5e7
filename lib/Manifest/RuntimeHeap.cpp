//===- RuntimeHeap.cpp - A runtime's allocations from a fixed heap --------===//
#include "coreai-plan/Manifest/RuntimeHeap.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace coreai {

llvm::StringRef allocationPolicyName(AllocationPolicy mode) {
  switch (mode) {
  case AllocationPolicy::Planned:
    return "planned";
  case AllocationPolicy::Naive:
    return "naive";
  case AllocationPolicy::FirstFit:
    return "first-fit";
  }
  return "?";
}

std::optional<AllocationPolicy> parseAllocationPolicy(llvm::StringRef name) {
  for (AllocationPolicy mode :
       {AllocationPolicy::Planned, AllocationPolicy::Naive,
        AllocationPolicy::FirstFit})
    if (allocationPolicyName(mode) == name)
      return mode;
  return std::nullopt;
}

namespace {

constexpr int64_t kSaturated = int64_t(1) << 62;

bool takesMemory(const Buffer &b) { return b.size > 0 && b.start < b.end; }

/// Buffers in the order a runtime allocates them: by first use; buffers
/// that start together in the order the planner listed them.
std::vector<size_t> executionOrder(const BufferProblem &problem) {
  std::vector<size_t> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return problem.buffers[a].start < problem.buffers[b].start;
  });
  return order;
}

/// First fit over the free holes of a heap without an upper end: the
/// lowest aligned offset at which `b` overlaps no live block. Live blocks
/// are keyed by offset and disjoint.
int64_t firstFit(const std::multimap<int64_t, int64_t> &liveBlocks,
                 const Buffer &b) {
  int64_t candidate = 0;
  for (const auto &[offset, size] : liveBlocks) {
    if (candidate + b.size <= offset)
      break;
    candidate = std::max(candidate, alignTo(offset + size, b.alignment));
  }
  return candidate;
}

} // namespace

RuntimeHeapResult simulateRuntimeHeap(const PlannedEntry &entry,
                                      AllocationPolicy mode,
                                      int64_t heapTotal) {
  const BufferProblem &problem = entry.problem;
  RuntimeHeapResult result;
  int64_t top = 0; // Naive: the bump pointer.
  // FirstFit: live blocks by offset, and their ends to free them.
  std::multimap<int64_t, int64_t> liveBlocks;
  std::multimap<int64_t, std::multimap<int64_t, int64_t>::iterator> frees;
  for (size_t index : executionOrder(problem)) {
    const Buffer &b = problem.buffers[index];
    if (!takesMemory(b))
      continue;
    // The plan put it in an output's storage, which the runtime binds
    // apart from the heap; a runtime without the plan uses the heap.
    if (mode == AllocationPolicy::Planned && entry.borrowedOutput(index) >= 0)
      continue;
    int64_t offset = 0;
    switch (mode) {
    case AllocationPolicy::Planned:
      offset = entry.plan.offsets[index];
      break;
    case AllocationPolicy::Naive:
      offset = alignTo(top, b.alignment);
      // Manifests bound sizes by 2^53; saturating far above any real heap
      // keeps thousands of them from overflowing the bump pointer.
      top = std::min(offset + b.size, kSaturated);
      break;
    case AllocationPolicy::FirstFit:
      while (!frees.empty() && frees.begin()->first <= b.start) {
        liveBlocks.erase(frees.begin()->second);
        frees.erase(frees.begin());
      }
      offset = firstFit(liveBlocks, b);
      frees.emplace(b.end, liveBlocks.emplace(offset, b.size));
      break;
    }
    result.heapUsed = std::max(result.heapUsed, offset + b.size);
    if (!result.overflow && offset + b.size > heapTotal)
      result.overflow = HeapOverflow{index, offset, b.size};
  }
  return result;
}

std::string describeOverflow(const HeapOverflow &overflow, int64_t heapTotal) {
  return llvm::formatv("allocateMTLBufferFromMTLHeap: offset {0} + size {1} "
                       "exceeds heap total {2}",
                       overflow.offset, overflow.size, heapTotal)
      .str();
}

} // namespace coreai

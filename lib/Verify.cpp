//===- Verify.cpp - Independent check of a plan ---------------------------===//
//
// Sweeps time; at each start, the new buffer is compared against the live
// set ordered by address, so a collision is found in O(n log n) for
// well-formed plans rather than by comparing all pairs.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Verify.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <queue>

namespace coreai {
namespace {

std::string describe(const Buffer &b, int64_t offset) {
  return llvm::formatv("buffer '{0}' [{1}, {2}) at offset {3} size {4}", b.id,
                       b.start, b.end, offset, b.size)
      .str();
}

llvm::Error overlap(const Buffer &a, int64_t aOffset, const Buffer &b,
                    int64_t bOffset) {
  return llvm::createStringError(describe(a, aOffset) + " overlaps " +
                                 describe(b, bOffset));
}

llvm::Error checkEachBuffer(const BufferProblem &problem, const Plan &plan) {
  if (plan.offsets.size() != problem.buffers.size())
    return llvm::createStringError(
        llvm::formatv("plan has {0} offsets for {1} buffers",
                      plan.offsets.size(), problem.buffers.size()));
  if (problem.capacity > 0 && plan.heap > problem.capacity)
    return llvm::createStringError(llvm::formatv(
        "heap {0} exceeds capacity {1}", plan.heap, problem.capacity));
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &b = problem.buffers[i];
    int64_t offset = plan.offsets[i];
    if (offset < 0)
      return llvm::createStringError(describe(b, offset) + ": negative offset");
    if (b.alignment <= 0 || offset % b.alignment != 0)
      return llvm::createStringError(llvm::formatv(
          "{0}: not aligned to {1}", describe(b, offset), b.alignment));
    if (b.size > plan.heap || offset > plan.heap - b.size)
      return llvm::createStringError(
          llvm::formatv("{0}: outside the heap of {1} bytes",
                        describe(b, offset), plan.heap));
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error verifyPlan(const BufferProblem &problem, const Plan &plan) {
  if (llvm::Error error = checkEachBuffer(problem, plan))
    return error;

  std::vector<size_t> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return problem.buffers[a].start < problem.buffers[b].start;
  });
  // Live buffers keyed by offset (pairwise disjoint by construction), and
  // the same entries ordered by end time so expired ones leave cheaply.
  // Zero-size buffers occupy no byte and are never inserted.
  using LiveMap = std::multimap<int64_t, size_t>;
  LiveMap liveByOffset;
  using Expiry = std::pair<int64_t, LiveMap::iterator>;
  auto laterEnd = [](const Expiry &a, const Expiry &b) {
    return a.first > b.first;
  };
  std::priority_queue<Expiry, std::vector<Expiry>, decltype(laterEnd)>
      expiries(laterEnd);
  for (size_t index : order) {
    const Buffer &b = problem.buffers[index];
    while (!expiries.empty() && expiries.top().first <= b.start) {
      liveByOffset.erase(expiries.top().second);
      expiries.pop();
    }
    if (b.size == 0 || b.start >= b.end)
      continue;
    int64_t offset = plan.offsets[index];
    auto next = liveByOffset.lower_bound(offset);
    if (next != liveByOffset.end() && next->first < offset + b.size)
      return overlap(b, offset, problem.buffers[next->second], next->first);
    if (next != liveByOffset.begin()) {
      auto prev = std::prev(next);
      if (prev->first + problem.buffers[prev->second].size > offset)
        return overlap(b, offset, problem.buffers[prev->second], prev->first);
    }
    expiries.emplace(b.end, liveByOffset.emplace(offset, index));
  }
  return llvm::Error::success();
}

} // namespace coreai

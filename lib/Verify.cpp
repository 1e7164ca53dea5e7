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

std::optional<std::string> checkEachBuffer(const BufferProblem &problem,
                                           const Plan &plan) {
  if (plan.offsets.size() != problem.buffers.size())
    return llvm::formatv("plan has {0} offsets for {1} buffers",
                         plan.offsets.size(), problem.buffers.size())
        .str();
  if (problem.capacity > 0 && plan.heap > problem.capacity)
    return llvm::formatv("heap {0} exceeds capacity {1}", plan.heap,
                         problem.capacity)
        .str();
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &b = problem.buffers[i];
    int64_t offset = plan.offsets[i];
    if (offset < 0)
      return describe(b, offset) + ": negative offset";
    if (b.alignment <= 0 || offset % b.alignment != 0)
      return describe(b, offset) +
             llvm::formatv(": not aligned to {0}", b.alignment).str();
    if (b.size > plan.heap || offset > plan.heap - b.size)
      return describe(b, offset) +
             llvm::formatv(": outside the heap of {0} bytes", plan.heap).str();
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> verifyPlan(const BufferProblem &problem,
                                      const Plan &plan) {
  if (auto error = checkEachBuffer(problem, plan))
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
      return describe(b, offset) + " overlaps " +
             describe(problem.buffers[next->second], next->first);
    if (next != liveByOffset.begin()) {
      auto prev = std::prev(next);
      if (prev->first + problem.buffers[prev->second].size > offset)
        return describe(b, offset) + " overlaps " +
               describe(problem.buffers[prev->second], prev->first);
    }
    expiries.emplace(b.end, liveByOffset.emplace(offset, index));
  }
  return std::nullopt;
}

} // namespace coreai

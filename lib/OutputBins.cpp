//===- OutputBins.cpp - Outputs' storage as regions, checked ---------------===//
//
// The parts of borrowing that need no solver: which buffers a bin may take,
// the lower bound under borrowing and the region-by-region verifier.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/OutputBins.h"

#include "coreai-plan/Verify.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace coreai {

bool fitsBin(const Buffer &buffer, const OutputBin &bin) {
  return buffer.end <= bin.availableUntil && buffer.size <= bin.capacity;
}

int64_t borrowingLowerBound(const BufferProblem &problem,
                            const std::vector<OutputBin> &bins) {
  if (bins.empty())
    return lowerBound(problem);
  std::vector<LiveEvent> events = liveEvents(problem);
  // Live bytes only the heap can hold, live bytes some bin could take,
  // and per bin the live bytes it could take.
  int64_t heapOnly = 0, borrowable = 0, peak = 0;
  std::vector<int64_t> takeable(bins.size(), 0);
  for (size_t e = 0; e < events.size(); ++e) {
    const Buffer &b = problem.buffers[events[e].index];
    int64_t sign = events[e].starts ? 1 : -1;
    bool anyBin = false;
    for (size_t k = 0; k < bins.size(); ++k)
      if (fitsBin(b, bins[k])) {
        takeable[k] += sign * b.size;
        anyBin = true;
      }
    (anyBin ? borrowable : heapOnly) += sign * b.size;
    // Evaluate once all events at this time are in.
    if (e + 1 < events.size() && events[e + 1].time == events[e].time)
      continue;
    int64_t absorbed = 0;
    for (size_t k = 0; k < bins.size(); ++k)
      absorbed += std::min(bins[k].capacity, takeable[k]);
    peak = std::max(peak, heapOnly + std::max<int64_t>(0, borrowable - absorbed));
  }
  return peak;
}

llvm::Error verifyBorrowedPlan(const BufferProblem &problem,
                               const std::vector<OutputBin> &bins,
                               const BinAssignment &binOf, const Plan &plan) {
  size_t count = problem.buffers.size();
  if (plan.offsets.size() != count || binOf.size() != count)
    return llvm::createStringError(
        llvm::formatv("plan has {0} offsets and {1} regions for {2} buffers",
                      plan.offsets.size(), binOf.size(), count));
  // Region -1 is the heap; k >= 0 is bin k.
  for (int64_t region = -1; region < int64_t(bins.size()); ++region) {
    BufferProblem part;
    Plan partPlan;
    partPlan.heap = region < 0 ? plan.heap : bins[region].capacity;
    if (region < 0)
      part.capacity = problem.capacity;
    for (size_t i = 0; i < count; ++i) {
      if (binOf[i] < -1 || binOf[i] >= int64_t(bins.size()))
        return llvm::createStringError(
            llvm::formatv("buffer '{0}' names region {1}, but there are {2} "
                          "output bins",
                          problem.buffers[i].id, binOf[i], bins.size()));
      if (binOf[i] != region)
        continue;
      const Buffer &b = problem.buffers[i];
      if (region >= 0 && b.size > 0 && b.end > bins[region].availableUntil)
        return llvm::createStringError(
            llvm::formatv("buffer '{0}' [{1}, {2}) is in output {3}, whose "
                          "own value is written at {4}",
                          b.id, b.start, b.end, bins[region].output,
                          bins[region].availableUntil));
      part.buffers.push_back(b);
      partPlan.offsets.push_back(plan.offsets[i]);
    }
    if (llvm::Error violation = verifyPlan(part, partPlan)) {
      std::string where =
          region < 0 ? std::string("heap")
                     : llvm::formatv("output {0}", bins[region].output).str();
      return llvm::createStringError(where + ": " +
                                     llvm::toString(std::move(violation)));
    }
  }
  return llvm::Error::success();
}

} // namespace coreai

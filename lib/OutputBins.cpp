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
#include <optional>
#include <set>

namespace coreai {

bool fitsBin(const Buffer &buffer, const OutputBin &bin) {
  return buffer.end <= bin.availableUntil && buffer.size <= bin.capacity;
}

int64_t splittableBorrowingLowerBound(const BufferProblem &problem,
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

namespace {

/// The largest sum of a subset of `weights` that is at most `cap`, by a
/// bitset over 0..cap; std::nullopt when that would take more than
/// `budget` word operations (the budget is charged what it takes).
std::optional<int64_t> maxSubsetSum(const std::vector<int64_t> &weights,
                                    int64_t cap, int64_t &budget) {
  int64_t total = 0;
  for (int64_t w : weights)
    total += w;
  if (total <= cap)
    return total;
  size_t words = size_t(cap / 64 + 1);
  int64_t cost = int64_t(words) * int64_t(weights.size());
  if (cost > budget)
    return std::nullopt;
  budget -= cost;
  std::vector<uint64_t> reach(words, 0);
  reach[0] = 1;
  for (int64_t w : weights) {
    if (w > cap || w <= 0)
      continue;
    size_t shiftWords = size_t(w / 64), shiftBits = size_t(w % 64);
    // reach |= reach << w, from the top down so each word reads words
    // not yet updated.
    for (size_t i = words; i-- > shiftWords;) {
      size_t j = i - shiftWords;
      uint64_t moved = reach[j] << shiftBits;
      if (shiftBits != 0 && j > 0)
        moved |= reach[j - 1] >> (64 - shiftBits);
      reach[i] |= moved;
    }
    if ((reach[size_t(cap / 64)] >> (cap % 64)) & 1)
      return cap;
  }
  for (int64_t v = cap; v > 0; --v)
    if ((reach[size_t(v / 64)] >> (v % 64)) & 1)
      return v;
  return 0;
}

/// Largest first, each weight taken when it still fits: a subset within
/// `cap`, so at most maxSubsetSum().
int64_t greedyFill(const std::vector<int64_t> &descending, int64_t cap) {
  int64_t sum = 0;
  for (int64_t w : descending)
    if (sum + w <= cap)
      sum += w;
  return sum;
}

/// The sweep state of the indivisible bound, in units of the problem's
/// smallest alignment `unit` (every offset, in the heap and in a bin, is a
/// multiple of it).
struct UnitSweep {
  const BufferProblem &problem;
  const std::vector<OutputBin> &bins;
  int64_t unit = 1;
  std::vector<int64_t> units;              ///< per buffer, size rounded up
  std::vector<std::vector<size_t>> binsOf; ///< per buffer, bins it fits
  std::vector<int64_t> binUnits;           ///< per bin, capacity rounded up
  int64_t unionUnits = 0;                  ///< sum of binUnits

  // Live state.
  std::vector<size_t> live;
  std::vector<size_t> where;
  std::multiset<int64_t> slacks;
  int64_t liveUnits = 0, borrowableUnits = 0;
  std::vector<int64_t> takeUnits;

  UnitSweep(const BufferProblem &problem, const std::vector<OutputBin> &bins)
      : problem(problem), bins(bins) {
    unit = 0;
    for (const Buffer &b : problem.buffers)
      unit = unit == 0 ? b.alignment : std::min(unit, b.alignment);
    unit = std::max<int64_t>(unit, 1);
    size_t n = problem.buffers.size();
    units.resize(n);
    binsOf.resize(n);
    where.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
      const Buffer &b = problem.buffers[i];
      units[i] = (b.size + unit - 1) / unit;
      for (size_t k = 0; k < bins.size(); ++k)
        if (b.size > 0 && fitsBin(b, bins[k]))
          binsOf[i].push_back(k);
    }
    for (const OutputBin &bin : bins) {
      binUnits.push_back((bin.capacity + unit - 1) / unit);
      unionUnits += binUnits.back();
    }
    takeUnits.assign(bins.size(), 0);
  }

  void apply(const LiveEvent &event) {
    size_t i = event.index;
    int64_t sign = event.starts ? 1 : -1;
    int64_t slack = units[i] * unit - problem.buffers[i].size;
    if (event.starts) {
      where[i] = live.size();
      live.push_back(i);
      slacks.insert(slack);
    } else {
      live[where[i]] = live.back();
      where[live.back()] = where[i];
      live.pop_back();
      slacks.erase(slacks.find(slack));
    }
    liveUnits += sign * units[i];
    if (!binsOf[i].empty())
      borrowableUnits += sign * units[i];
    for (size_t k : binsOf[i])
      takeUnits[k] += sign * units[i];
  }

  /// The heap bound at this step if the bins absorb at most `absorbed`
  /// units: the heap's live buffers are disjoint and aligned, so each
  /// below the topmost takes its rounded size, the topmost at least its
  /// size (minus at most the largest slack live).
  int64_t heapBound(int64_t absorbed) const {
    int64_t maxSlack = slacks.empty() ? 0 : *slacks.rbegin();
    int64_t heapUnits = liveUnits - std::min(absorbed, borrowableUnits);
    return heapUnits <= 0 ? 0 : std::max<int64_t>(0, heapUnits * unit - maxSlack);
  }

  /// What the bins can absorb if bytes were divisible: the old bound.
  int64_t splittableAbsorbed() const {
    int64_t absorbed = 0;
    for (size_t k = 0; k < bins.size(); ++k)
      absorbed += std::min(binUnits[k], takeUnits[k]);
    return std::min(absorbed, std::min(unionUnits, borrowableUnits));
  }

  bool anyBinOverfull() const {
    for (size_t k = 0; k < bins.size(); ++k)
      if (takeUnits[k] > binUnits[k])
        return true;
    return false;
  }

  int64_t indivisibleStep(int64_t best, int64_t &budget, bool &complete);
};

/// The bound at a step where some bin is offered more than it holds. Any
/// plan puts in bin k a set of its eligible live buffers whose rounded
/// units fit binUnits[k] (they are disjoint and aligned inside it), and
/// each buffer in one region only. So the units absorbed are at most
/// (a) sum over k of the best subset-sum of k's eligible buffers within
/// binUnits[k] (a buffer eligible for two bins may be counted twice:
/// a relaxation), and (b) the best subset-sum of all eligible buffers
/// within the bins' total units (the borrowed set fits their union).
/// The minimum of two upper bounds is one; where a DP is over budget its
/// splittable value (also an upper bound) stands in. `best` prunes: a
/// greedy (feasible) fill bounds the result from above first.
int64_t UnitSweep::indivisibleStep(int64_t best, int64_t &budget,
                                   bool &complete) {
  std::vector<size_t> offered;
  for (size_t i : live)
    if (!binsOf[i].empty())
      offered.push_back(i);
  std::sort(offered.begin(), offered.end(),
            [&](size_t a, size_t b) { return units[a] > units[b]; });
  std::vector<int64_t> all;
  std::vector<std::vector<int64_t>> perBin(bins.size());
  for (size_t i : offered) {
    all.push_back(units[i]);
    for (size_t k : binsOf[i])
      perBin[k].push_back(units[i]);
  }
  // Upper bound on this step's value, from feasible fills (each at most
  // the subset-sum it stands for).
  int64_t greedySum = 0;
  for (size_t k = 0; k < bins.size(); ++k)
    greedySum += greedyFill(perBin[k], binUnits[k]);
  int64_t greedyUnion = greedyFill(all, unionUnits);
  if (heapBound(std::min(greedySum, greedyUnion)) <= best)
    return best;

  int64_t perBinSum = 0;
  for (size_t k = 0; k < bins.size(); ++k) {
    std::optional<int64_t> exact =
        maxSubsetSum(perBin[k], binUnits[k], budget);
    if (!exact)
      complete = false;
    perBinSum += exact ? *exact : std::min(binUnits[k], takeUnits[k]);
  }
  int64_t absorbed = std::min(perBinSum, splittableAbsorbed());
  if (bins.size() > 1 && absorbed > 0) {
    std::optional<int64_t> exact = maxSubsetSum(all, unionUnits, budget);
    if (!exact)
      complete = false;
    else
      absorbed = std::min(absorbed, *exact);
  }
  return std::max(best, heapBound(absorbed));
}

} // namespace

BorrowingBounds borrowingBounds(const BufferProblem &problem,
                                const std::vector<OutputBin> &bins) {
  BorrowingBounds bounds;
  bounds.splittable = splittableBorrowingLowerBound(problem, bins);
  bounds.indivisible = bounds.splittable;
  if (bins.empty())
    return bounds;
  std::vector<LiveEvent> events = liveEvents(problem);
  auto lastAtTime = [&](size_t e) {
    return e + 1 == events.size() || events[e + 1].time != events[e].time;
  };
  // First sweep: the splittable bound in rounded units at every step, so
  // the second knows the figure a step must beat to matter.
  int64_t best = bounds.splittable;
  {
    UnitSweep sweep(problem, bins);
    for (size_t e = 0; e < events.size(); ++e) {
      sweep.apply(events[e]);
      if (lastAtTime(e))
        best = std::max(best, sweep.heapBound(sweep.splittableAbsorbed()));
    }
  }
  // Second: subset-sums at the steps where a bin is overfull, within a
  // total budget of word operations (about 0.1 s).
  int64_t budget = int64_t(1) << 27;
  UnitSweep sweep(problem, bins);
  for (size_t e = 0; e < events.size(); ++e) {
    sweep.apply(events[e]);
    if (lastAtTime(e) && sweep.anyBinOverfull())
      best = sweep.indivisibleStep(best, budget, bounds.complete);
  }
  bounds.indivisible = best;
  return bounds;
}

int64_t borrowingLowerBound(const BufferProblem &problem,
                            const std::vector<OutputBin> &bins) {
  if (bins.empty())
    return lowerBound(problem);
  return borrowingBounds(problem, bins).indivisible;
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

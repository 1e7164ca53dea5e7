//===- Parametric.cpp - One placement for every chunk size in a range -----===//
#include "coreai-plan/Parametric.h"

#include "coreai-plan/Verify.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <numeric>

namespace coreai {

namespace {
using Wide = __int128;

/// Sizes and offsets stay far below this so sums of a few thousand of them
/// cannot overflow int64.
constexpr int64_t kLargest = int64_t(1) << 50;

Wide evaluate(const SizeExpr &expr, int64_t s) {
  Wide value = 0, power = 1;
  for (int64_t c : expr.coefficients) {
    value += Wide(c) * power;
    power *= s;
  }
  return value;
}

llvm::Error planError(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

llvm::Error sizeOutOfRange(const ParametricBuffer &b, int64_t s) {
  return planError("buffer " + b.id +
                   ": size out of range at S=" + std::to_string(s));
}

llvm::Error capacityOutOfRange(const ParametricBin &bin, int64_t s) {
  return planError(llvm::formatv("output {0}: capacity out of range at S={1}",
                                 bin.output, s));
}
} // namespace

int64_t SizeExpr::at(int64_t s) const {
  Wide value = evaluate(*this, s);
  return value > kLargest ? kLargest : value < -kLargest ? -kLargest
                                                           : int64_t(value);
}

std::string SizeExpr::str() const {
  std::string text;
  static const char *const powers[] = {"", "*S", "*S^2"};
  for (size_t k = 0; k < coefficients.size(); ++k) {
    int64_t c = coefficients[k];
    if (c == 0)
      continue;
    if (!text.empty())
      text += c < 0 ? " - " : " + ";
    else if (c < 0)
      text += "-";
    int64_t magnitude = c < 0 ? -c : c;
    if (k == 0 || magnitude != 1)
      text += std::to_string(magnitude);
    text += k == 0 ? "" : magnitude == 1 ? std::string(powers[k]).substr(1)
                                         : std::string(powers[k]);
  }
  return text.empty() ? "0" : text;
}

std::optional<SizeExpr> fitSizeExpr(int64_t lo, llvm::ArrayRef<int64_t> sizes) {
  if (sizes.empty())
    return std::nullopt;
  // Newton's forward differences at lo, lo+1, lo+2, then expanded in S:
  // f = d0 + d1 (S-lo) + d2 (S-lo)(S-lo-1)/2.
  Wide d0 = sizes[0];
  Wide d1 = sizes.size() > 1 ? Wide(sizes[1]) - sizes[0] : 0;
  Wide d2 = sizes.size() > 2 ? Wide(sizes[2]) - 2 * Wide(sizes[1]) + sizes[0]
                             : 0;
  if (d2 % 2 != 0)
    return std::nullopt; // S(S+1)/2-like: not integer coefficients
  Wide c2 = d2 / 2;
  Wide c1 = d1 - c2 * (2 * Wide(lo) + 1);
  Wide c0 = d0 - d1 * lo + c2 * Wide(lo) * (lo + 1);
  SizeExpr expr;
  for (Wide c : {c0, c1, c2}) {
    if (c > kLargest || c < -kLargest)
      return std::nullopt;
    expr.coefficients.push_back(int64_t(c));
  }
  while (!expr.coefficients.empty() && expr.coefficients.back() == 0)
    expr.coefficients.pop_back();
  for (size_t k = 0; k < sizes.size(); ++k)
    if (evaluate(expr, lo + int64_t(k)) != sizes[k])
      return std::nullopt;
  return expr;
}

std::vector<int64_t> ParametricPlan::offsetsAt(int64_t s) const {
  std::vector<int64_t> offsets(buffers.size(), 0);
  for (uint32_t i : order) {
    int64_t top = 0;
    for (uint32_t j : buffers[i].below)
      top = std::max(top, offsets[j] + buffers[j].size.at(s));
    offsets[i] = alignTo(top, buffers[i].alignment);
  }
  return offsets;
}

int64_t ParametricPlan::heapAt(int64_t s) const {
  std::vector<int64_t> offsets = offsetsAt(s);
  int64_t heap = 0;
  for (uint32_t i : heapTerms)
    heap = std::max(heap, offsets[i] + buffers[i].size.at(s));
  return heap;
}

std::vector<OutputBin> ParametricPlan::binsAt(int64_t s) const {
  std::vector<OutputBin> result;
  for (const ParametricBin &bin : bins)
    result.push_back(bin.at(s));
  return result;
}

BinAssignment ParametricPlan::binOf() const {
  BinAssignment regions;
  if (bins.empty())
    return regions;
  for (const ParametricBuffer &b : buffers)
    regions.push_back(b.bin);
  return regions;
}

int64_t ParametricPlan::lowerBoundAt(int64_t s) const {
  return borrowingLowerBound(problemAt(s), binsAt(s));
}

std::vector<uint32_t> overflowingAt(const ParametricPlan &plan, int64_t s) {
  std::vector<uint32_t> over;
  if (plan.bins.empty())
    return over;
  std::vector<int64_t> offsets = plan.offsetsAt(s);
  for (uint32_t i = 0; i < plan.buffers.size(); ++i) {
    const ParametricBuffer &b = plan.buffers[i];
    if (b.bin >= 0 &&
        offsets[i] + b.size.at(s) > plan.bins[b.bin].capacity.at(s))
      over.push_back(i);
  }
  return over;
}

std::optional<int64_t> highestOverflow(const ParametricPlan &plan) {
  for (int64_t s = plan.hi; s >= plan.lo; --s)
    if (!overflowingAt(plan, s).empty())
      return s;
  return std::nullopt;
}

BufferProblem ParametricPlan::problemAt(int64_t s) const {
  BufferProblem problem;
  for (const ParametricBuffer &b : buffers)
    problem.buffers.push_back({b.id, b.start, b.end, b.size.at(s), b.alignment});
  return problem;
}

std::optional<int64_t> ParametricPlan::largestFitting(int64_t budget) const {
  // Heaps need not grow with S, so every S is evaluated.
  for (int64_t s = hi; s >= lo; --s)
    if (heapAt(s) <= budget)
      return s;
  return std::nullopt;
}

std::optional<SizeExpr> ParametricPlan::heapPolynomial() const {
  std::vector<int64_t> heaps;
  for (int64_t s = lo; s <= hi; ++s)
    heaps.push_back(heapAt(s));
  return fitSizeExpr(lo, heaps);
}

size_t ParametricPlan::termCount() const {
  size_t terms = heapTerms.size();
  for (const ParametricBuffer &b : buffers)
    terms += b.below.size();
  return terms;
}

namespace {

/// end[i][s - lo] = offset_i(S) + size_i(S), filled in evaluation order.
using EndTable = std::vector<std::vector<int64_t>>;

/// Whether k's end is at or above j's at every S of the range.
bool dominates(const EndTable &ends, uint32_t k, uint32_t j) {
  const std::vector<int64_t> &a = ends[k], &b = ends[j];
  // The endpoints decide most pairs that are not dominated at once.
  if (a.front() < b.front() || a.back() < b.back())
    return false;
  for (size_t t = 0; t < a.size(); ++t)
    if (a[t] < b[t])
      return false;
  return true;
}

/// The candidates none of the others reaches at every S, highest first.
std::vector<uint32_t> undominated(std::vector<uint32_t> candidates,
                                  const EndTable &ends) {
  // A dominating term ends at least as high at both endpoints, so it comes
  // first (ties by the sum over the range, then the index).
  auto key = [&](uint32_t i) {
    return std::make_tuple(ends[i].back(), ends[i].front(),
                           std::accumulate(ends[i].begin(), ends[i].end(),
                                           Wide(0)));
  };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) > key(b); });
  std::vector<uint32_t> kept;
  for (uint32_t j : candidates)
    if (llvm::none_of(kept, [&](uint32_t k) { return dominates(ends, k, j); }))
      kept.push_back(j);
  llvm::sort(kept);
  return kept;
}

} // namespace

llvm::Expected<ParametricPlan>
buildParametricPlan(int64_t lo, int64_t hi,
                    std::vector<ParametricBuffer> buffers,
                    llvm::ArrayRef<int64_t> referenceOffsets,
                    std::vector<ParametricBin> bins) {
  if (lo > hi)
    return planError(llvm::formatv("empty range [{0}, {1}]", lo, hi).str());
  if (hi - lo >= kMaxParametricSpan)
    return planError(llvm::formatv("the range [{0}, {1}] spans more than {2} "
                                   "sizes",
                                   lo, hi, kMaxParametricSpan)
                         .str());
  if (referenceOffsets.size() != buffers.size())
    return planError("one reference offset per buffer is needed");
  size_t span = size_t(hi - lo + 1);
  size_t n = buffers.size();

  EndTable sizes(n, std::vector<int64_t>(span));
  for (size_t i = 0; i < n; ++i) {
    const ParametricBuffer &b = buffers[i];
    if (b.alignment <= 0 || (b.alignment & (b.alignment - 1)))
      return planError("buffer " + b.id + ": alignment is not a power of two");
    if (b.bin < -1 || b.bin >= int64_t(bins.size()))
      return planError(llvm::formatv("buffer {0}: region {1}, but there are "
                                     "{2} output bins",
                                     b.id, b.bin, bins.size())
                           .str());
    for (size_t t = 0; t < span; ++t) {
      Wide size = evaluate(b.size, lo + int64_t(t));
      if (size < 0 || size > kLargest)
        return planError(llvm::formatv("buffer {0}: size {1} is {2} at S={3}",
                                       b.id, b.size.str(),
                                       size < 0 ? "negative" : "too large",
                                       lo + int64_t(t))
                             .str());
      sizes[i][t] = int64_t(size);
    }
  }

  for (const ParametricBin &bin : bins)
    for (int64_t s = lo; s <= hi; ++s) {
      Wide capacity = evaluate(bin.capacity, s);
      if (capacity < 0 || capacity > kLargest)
        return planError(llvm::formatv("output {0}: capacity {1} is out of "
                                       "range at S={2}",
                                       bin.output, bin.capacity.str(), s)
                             .str());
    }

  ParametricPlan plan;
  plan.lo = lo;
  plan.hi = hi;
  plan.bins = std::move(bins);
  plan.order.resize(n);
  std::iota(plan.order.begin(), plan.order.end(), 0u);
  llvm::stable_sort(plan.order, [&](uint32_t a, uint32_t b) {
    return referenceOffsets[a] < referenceOffsets[b];
  });

  std::vector<size_t> rank(n);
  for (size_t r = 0; r < n; ++r)
    rank[plan.order[r]] = r;
  EndTable ends(n, std::vector<int64_t>(span, 0));
  for (uint32_t i : plan.order) {
    ParametricBuffer &b = buffers[i];
    std::vector<uint32_t> candidates;
    // Only buffers of the same region can overlap in memory.
    for (uint32_t j = 0; j < n; ++j)
      if (rank[j] < rank[i] && buffers[j].bin == b.bin &&
          buffers[j].start < b.end && b.start < buffers[j].end)
        candidates.push_back(j);
    b.below = undominated(std::move(candidates), ends);
    for (size_t t = 0; t < span; ++t) {
      int64_t top = 0;
      for (uint32_t j : b.below)
        top = std::max(top, ends[j][t]);
      int64_t offset = alignTo(top, b.alignment);
      if (offset > (int64_t(1) << 60))
        return planError("the heap overflows at S=" +
                         llvm::Twine(lo + int64_t(t)));
      ends[i][t] = offset + sizes[i][t];
    }
  }
  std::vector<uint32_t> inHeap;
  for (uint32_t i = 0; i < n; ++i)
    if (buffers[i].bin < 0)
      inHeap.push_back(i);
  plan.heapTerms = undominated(std::move(inHeap), ends);
  plan.buffers = std::move(buffers);
  return plan;
}

llvm::Error verifyParametricAt(const ParametricPlan &plan, int64_t s,
                               const BufferProblem &actual,
                               const std::vector<OutputBin> *actualBins) {
  auto at = [&](const llvm::Twine &why) {
    return planError(llvm::formatv("at S={0}: ", s) + why);
  };
  if (!plan.contains(s))
    return at("outside the plan's range");
  if (actual.buffers.size() != plan.buffers.size())
    return at(llvm::formatv("the graph has {0} buffers, the plan {1}",
                            actual.buffers.size(), plan.buffers.size()));
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const ParametricBuffer &p = plan.buffers[i];
    const Buffer &b = actual.buffers[i];
    if (b.start != p.start || b.end != p.end || b.alignment != p.alignment)
      return at("buffer " + b.id + " lives or aligns differently");
    if (b.size != p.size.at(s))
      return at(llvm::formatv("buffer {0} is {1} bytes, its expression {2} "
                              "gives {3}",
                              b.id, b.size, p.size.str(), p.size.at(s)));
  }
  std::vector<OutputBin> bins = plan.binsAt(s);
  if (actualBins && *actualBins != bins) {
    if (actualBins->size() != bins.size())
      return at(llvm::formatv("the graph lends {0} outputs, the plan {1}",
                              actualBins->size(), bins.size()));
    for (size_t k = 0; k < bins.size(); ++k)
      if ((*actualBins)[k] != bins[k])
        return at(llvm::formatv(
            "output bin {0} is output {1} of {2} bytes "
            "until {3}; the plan says output {4} of {5} "
            "({6}) until {7}",
            k, (*actualBins)[k].output, (*actualBins)[k].capacity,
            (*actualBins)[k].availableUntil, bins[k].output, bins[k].capacity,
            plan.bins[k].capacity.str(), bins[k].availableUntil));
  }
  Plan instance;
  instance.offsets = plan.offsetsAt(s);
  instance.heap = plan.heapAt(s);
  // The heap is the end of the highest buffer in the heap region.
  int64_t needed = 0;
  for (size_t i = 0; i < plan.buffers.size(); ++i)
    if (plan.buffers[i].bin < 0)
      needed = std::max(needed, instance.offsets[i] + actual.buffers[i].size);
  if (needed != instance.heap)
    return at(llvm::formatv("the heap expression gives {0}, the offsets "
                            "need {1}",
                            instance.heap, needed));
  llvm::Error violation =
      bins.empty() ? verifyPlan(actual, instance)
                   : verifyBorrowedPlan(actual, bins, plan.binOf(), instance);
  if (violation)
    return at(llvm::toString(std::move(violation)));
  return llvm::Error::success();
}

namespace {

/// Each buffer's own fields: size expression, alignment, live interval.
llvm::Error checkBufferFields(const ParametricPlan &plan) {
  for (const ParametricBuffer &b : plan.buffers) {
    if (b.size.coefficients.size() > 3 ||
        llvm::any_of(b.size.coefficients, [](int64_t c) {
          return c > kLargest || c < -kLargest;
        }))
      return planError("buffer " + b.id + ": size expression out of range");
    if (b.alignment <= 0 || (b.alignment & (b.alignment - 1)) ||
        b.alignment > kLargest || b.start < 0 || b.end < b.start)
      return planError("buffer " + b.id + ": bad alignment or live interval");
    for (int64_t s : {plan.lo, plan.hi})
      if (evaluate(b.size, s) < 0 || evaluate(b.size, s) > kLargest)
        return sizeOutOfRange(b, s);
  }
  return llvm::Error::success();
}

/// The evaluation order lists every buffer once, each after the buffers
/// it sits on; the heap terms are heap buffers.
llvm::Error checkEvaluationOrder(const ParametricPlan &plan) {
  size_t n = plan.buffers.size();
  if (plan.order.size() != n)
    return planError("the evaluation order does not list every buffer once");
  std::vector<int64_t> rank(n, -1);
  for (size_t r = 0; r < n; ++r) {
    if (plan.order[r] >= n || rank[plan.order[r]] >= 0)
      return planError("the evaluation order does not list every buffer once");
    rank[plan.order[r]] = int64_t(r);
  }
  for (size_t i = 0; i < n; ++i)
    for (uint32_t j : plan.buffers[i].below)
      if (j >= n || rank[j] >= rank[i])
        return planError("buffer " + plan.buffers[i].id +
                         " sits on a buffer evaluated after it");
  for (uint32_t i : plan.heapTerms)
    if (i >= n || plan.buffers[i].bin >= 0)
      return planError("a heap term names no buffer in the heap");
  return llvm::Error::success();
}

/// The bins' fields and distinct outputs; each buffer's region names a
/// bin (or the heap) and it sits only on buffers of its own region.
llvm::Error checkRegions(const ParametricPlan &plan) {
  for (size_t k = 0; k < plan.bins.size(); ++k) {
    const ParametricBin &bin = plan.bins[k];
    if (bin.capacity.coefficients.size() > 3 ||
        llvm::any_of(bin.capacity.coefficients,
                     [](int64_t c) { return c > kLargest || c < -kLargest; }) ||
        bin.output < 0 || bin.output > kLargest || bin.availableUntil < 0 ||
        bin.availableUntil > kLargest)
      return planError(llvm::formatv("output bin {0}: capacity, output or "
                                     "time limit out of range",
                                     k));
    for (size_t other = 0; other < k; ++other)
      if (plan.bins[other].output == bin.output)
        return planError(llvm::formatv("output {0} is lent twice", bin.output));
    for (int64_t s : {plan.lo, plan.hi})
      if (evaluate(bin.capacity, s) < 0 || evaluate(bin.capacity, s) > kLargest)
        return capacityOutOfRange(bin, s);
  }
  size_t n = plan.buffers.size();
  for (size_t i = 0; i < n; ++i) {
    const ParametricBuffer &b = plan.buffers[i];
    if (b.bin < -1 || b.bin >= int64_t(plan.bins.size()))
      return planError(llvm::formatv("buffer {0}: region {1}, but there are "
                                     "{2} output bins",
                                     b.id, b.bin, plan.bins.size()));
    for (uint32_t j : b.below)
      if (j < n && plan.buffers[j].bin != b.bin)
        return planError("buffer " + b.id +
                         " sits on a buffer of another region");
  }
  return llvm::Error::success();
}

/// At one S: sizes and capacities in range, then the instantiated plan.
llvm::Error checkAt(const ParametricPlan &plan, int64_t s) {
  // Every offset is at most the sum of the sizes and paddings below it:
  // bounding that sum keeps the evaluation far from overflow.
  Wide total = 0;
  for (const ParametricBuffer &b : plan.buffers) {
    Wide size = evaluate(b.size, s);
    if (size < 0 || size > kLargest)
      return sizeOutOfRange(b, s);
    total += size + b.alignment;
  }
  for (const ParametricBin &bin : plan.bins) {
    Wide capacity = evaluate(bin.capacity, s);
    if (capacity < 0 || capacity > kLargest)
      return capacityOutOfRange(bin, s);
  }
  if (total > Wide(kLargest) * 64)
    return planError("the buffers' sizes add up beyond range at S=" +
                     std::to_string(s));
  return verifyParametricAt(plan, s, plan.problemAt(s));
}

} // namespace

llvm::Error verifyParametricPlan(const ParametricPlan &plan) {
  if (plan.lo > plan.hi || plan.hi - plan.lo >= kMaxParametricSpan)
    return planError(llvm::formatv("the range [{0}, {1}] is empty or spans "
                                   "more than {2} sizes",
                                   plan.lo, plan.hi, kMaxParametricSpan));
  if (llvm::Error error = checkBufferFields(plan))
    return error;
  if (llvm::Error error = checkEvaluationOrder(plan))
    return error;
  if (llvm::Error error = checkRegions(plan))
    return error;
  for (int64_t s = plan.lo; s <= plan.hi; ++s)
    if (llvm::Error error = checkAt(plan, s))
      return error;
  return llvm::Error::success();
}

} // namespace coreai

//===- Fit.cpp - Which chunk sizes fit a fixed heap -----------------------===//
#include "coreai-plan/Bundle/Fit.h"

#include "llvm/ADT/STLExtras.h"

namespace coreai {

llvm::Expected<ChunkChoice> parseChunkChoice(llvm::StringRef text) {
  auto [first, last] = text.split("..");
  if (first.size() == text.size()) {
    auto list = parseChunkList(text);
    if (!list)
      return list.takeError();
    return ChunkChoice{std::move(*list), false};
  }
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad --chunks '" + text + "': " + why);
  };
  int64_t low, high;
  if (first.trim().getAsInteger(10, low) || last.trim().getAsInteger(10, high))
    return bad("expected a list S,S,... or a range A..B of integers");
  if (low <= 0)
    return bad("chunk sizes must be positive, got " + llvm::Twine(low));
  if (high < low)
    return bad("the range is empty (" + llvm::Twine(low) + " > " +
               llvm::Twine(high) + ")");
  if (high - low >= maxChunkRangeSpan)
    return bad("the range spans more than " + llvm::Twine(maxChunkRangeSpan) +
               " sizes");
  ChunkChoice choice{{}, true};
  for (int64_t s = low; s <= high; ++s)
    choice.chunks.push_back(s);
  return choice;
}

std::vector<int64_t> EntryFit::fitting() const {
  std::vector<int64_t> sizes;
  for (const FitPoint &p : planned)
    if (p.fits)
      sizes.push_back(p.chunk);
  for (const auto &[chunk, fits] : inferred)
    if (fits)
      sizes.push_back(chunk);
  llvm::sort(sizes);
  return sizes;
}

std::optional<std::pair<FitPoint, FitPoint>> EntryFit::notMonotone() const {
  for (size_t i = 0; i < planned.size(); ++i)
    for (size_t j = i + 1; j < planned.size(); ++j)
      if (planned[j].heap < planned[i].heap)
        return std::make_pair(planned[i], planned[j]);
  return std::nullopt;
}

bool BundleFit::allFit() const {
  return llvm::all_of(
      entries, [](const EntryFit &fit) { return !fit.fitting().empty(); });
}

int64_t fitBudget(const Target &target, int64_t heapTotal) {
  if (target.heapLimit && target.heapLimit < heapTotal)
    return target.heapLimit;
  return heapTotal;
}

namespace {

class Fitter {
public:
  Fitter(const PlanRequest &request, int64_t budget, PlanObserver *observer)
      : request(request), budget(budget), planner(request, observer) {}

  llvm::Error run(bool range) {
    for (size_t i = 0; i < request.inputs.size(); ++i) {
      auto jobs = planner.read(i);
      if (!jobs)
        return jobs.takeError();
      // Jobs come grouped by function, each group in ascending S.
      for (size_t begin = 0; begin < jobs->size();) {
        size_t end = begin + 1;
        while (end < jobs->size() &&
               (*jobs)[end].source == (*jobs)[begin].source)
          ++end;
        llvm::ArrayRef<PlanJob> group =
            llvm::ArrayRef(*jobs).slice(begin, end - begin);
        llvm::Error error = group.front().parametric ? fromExpression(group)
                            : range && group.front().dynamic
                                ? bisect(group)
                                : planEach(group);
        if (error)
          return error;
        begin = end;
      }
    }
    if (llvm::Error error = planner.finish())
      return error;
    for (EntryFit &fit : fits)
      llvm::sort(fit.planned, [](const FitPoint &a, const FitPoint &b) {
        return a.chunk < b.chunk;
      });
    return llvm::Error::success();
  }

  BundleFit result() {
    return {budget, std::move(fits), planner.takeManifest()};
  }

private:
  const PlanRequest &request;
  int64_t budget;
  Planner planner;
  std::vector<EntryFit> fits; ///< in order of first appearance

  EntryFit &fitOf(llvm::StringRef entry) {
    for (EntryFit &fit : fits)
      if (fit.entry == entry)
        return fit;
    fits.push_back({entry.str(), {}, {}, false, false, 0});
    return fits.back();
  }

  llvm::Expected<bool> tryJob(const PlanJob &job) {
    auto planned = planner.plan(job);
    if (!planned)
      return planned.takeError();
    const PlannedEntry &e = (*planned)->planned;
    // A buffer (a value or a workspace) above the target's largest one
    // cannot be allocated whatever the heap (docs/WORKSPACE.md).
    int64_t largest = request.target.maxBufferBytes;
    bool buffersFit = largest == 0 || llvm::all_of(e.problem.buffers,
                                                   [&](const Buffer &b) {
                                                     return b.size <= largest;
                                                   });
    FitPoint point{e.chunk, e.plan.heap, e.plan.lowerBound, e.plan.optimal,
                   e.plan.heap <= budget && buffersFit};
    EntryFit &fit = fitOf(e.entry);
    fit.planned.push_back(point);
    ++fit.candidates;
    return point.fits;
  }

  llvm::Error planEach(llvm::ArrayRef<PlanJob> group) {
    for (const PlanJob &job : group)
      if (auto fits = tryJob(job); !fits)
        return fits.takeError();
    return llvm::Error::success();
  }

  /// One parametric plan for the range; every S answered from its heap
  /// expression (no assumption that the heap grows with S).
  llvm::Error fromExpression(llvm::ArrayRef<PlanJob> group) {
    for (const PlanJob &job : group) {
      if (auto planned = planner.plan(job); !planned)
        return planned.takeError();
      mlir::func::FuncOp source = job.source;
      EntryFit &fit = fitOf(source.getSymName());
      fit.parametric = true;
      for (const ManifestParametric &p : planner.manifest().parametric) {
        if (p.entry != fit.entry)
          continue;
        for (int64_t s = p.plan.lo; s <= p.plan.hi; ++s) {
          int64_t heap = p.plan.heapAt(s);
          fit.planned.push_back({s, heap, p.plan.lowerBoundAt(s),
                                 false, heap <= budget});
          ++fit.candidates;
        }
      }
    }
    return llvm::Error::success();
  }

  /// The largest fitting S of a range, assuming the heap grows with S:
  /// the ends first, then halving the interval between a size that fits
  /// and one that does not. Unplanned sizes are inferred from that.
  llvm::Error bisect(llvm::ArrayRef<PlanJob> group) {
    std::vector<std::optional<bool>> known(group.size());
    auto probe = [&](size_t i) -> llvm::Error {
      auto fits = tryJob(group[i]);
      if (!fits)
        return fits.takeError();
      known[i] = *fits;
      return llvm::Error::success();
    };
    size_t low = 0, high = group.size() - 1;
    if (llvm::Error error = probe(low))
      return error;
    if (*known[low] && high != low) {
      if (llvm::Error error = probe(high))
        return error;
      if (*known[high])
        low = high;
      while (!*known[high] && high - low > 1) {
        size_t mid = low + (high - low) / 2;
        if (llvm::Error error = probe(mid))
          return error;
        (*known[mid] ? low : high) = mid;
      }
    }
    // Everything at or below the largest fitting size fits, the rest not.
    std::optional<int64_t> largest;
    if (*known[low])
      largest = group[low].chunk;
    mlir::func::FuncOp source = group.front().source;
    EntryFit &fit = fitOf(source.getSymName());
    fit.bisected = true;
    for (size_t i = 0; i < group.size(); ++i)
      if (!known[i]) {
        fit.inferred.push_back(
            {group[i].chunk, largest && group[i].chunk <= *largest});
        ++fit.candidates;
      }
    return llvm::Error::success();
  }
};

} // namespace

llvm::Expected<BundleFit> fitBundle(PlanRequest request, int64_t budget,
                                    bool range, PlanObserver *observer) {
  // Over the limits is a "does not fit" answer here, not an error.
  request.options.maxHeap = 0;
  request.options.maxBuffer = 0;
  Fitter fitter(request, budget, observer);
  if (llvm::Error error = fitter.run(range))
    return error;
  return fitter.result();
}

} // namespace coreai

//===- FitCommand.cpp - coreai-plan fit -----------------------------------===//
//
// The question a runtime with a fixed heap asks: for each entry point,
// which chunk sizes S have a planned heap within N bytes, and which is the
// largest. A list of S is planned in full (heaps need not grow with S); a
// range A..B is bisected per dynamic entry point, which assumes they do.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Planner.h"
#include "PlanningOptions.h"
#include "TextTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace coreai::cli {

llvm::cl::SubCommand
    fitCommand("fit", "Find the chunk sizes whose planned heap fits a given "
                      "heap total, per entry point");

namespace {
namespace cl = llvm::cl;

PlanningOptions planning(fitCommand);
ReportingOptions reporting(fitCommand);

cl::opt<std::string>
    heapTotalOption("heap-total",
                    cl::desc("The runtime's heap size in bytes (a KiB, MiB "
                             "or GiB suffix is allowed)"),
                    cl::value_desc("N"), cl::sub(fitCommand));
cl::opt<std::string>
    chunksOption("chunks",
                 cl::desc("Chunk sizes to try: a list S,S,... (each is "
                          "planned) or a range A..B (bisected per dynamic "
                          "entry point; default 1,16,32,64)"),
                 cl::value_desc("S,S,...|A..B"), cl::init("1,16,32,64"),
                 cl::sub(fitCommand));

/// A range may not span more sizes than this (it is bisected, but every
/// size is a job the planner lists).
constexpr int64_t maxRangeSpan = 1 << 16;

llvm::Expected<int64_t> parseHeapTotal(llvm::StringRef text) {
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad --heap-total '" + text + "': " + why);
  };
  llvm::StringRef number = text.trim();
  int64_t unit = 1;
  for (auto [suffix, scale] :
       {std::pair<llvm::StringRef, int64_t>{"KiB", int64_t(1) << 10},
        {"MiB", int64_t(1) << 20},
        {"GiB", int64_t(1) << 30}})
    if (number.consume_back(suffix)) {
      unit = scale;
      break;
    }
  int64_t value;
  if (number.trim().getAsInteger(10, value))
    return bad("expected a number of bytes, e.g. 145920 or 64MiB");
  if (value <= 0)
    return bad("the heap total must be positive");
  if (value > INT64_MAX / unit)
    return bad("too large");
  return value * unit;
}

/// The chunk sizes to try and whether they came as a range.
struct ChunkChoice {
  std::vector<int64_t> chunks;
  bool range = false;
};

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
  if (high - low >= maxRangeSpan)
    return bad("the range spans more than " + llvm::Twine(maxRangeSpan) +
               " sizes");
  ChunkChoice choice{{}, true};
  for (int64_t s = low; s <= high; ++s)
    choice.chunks.push_back(s);
  return choice;
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

struct FitPoint {
  int64_t chunk = 0;
  int64_t heap = 0;
  int64_t lowerBound = 0;
  bool optimal = false;
  bool fits = false;
};

/// One entry point over the sizes it was tried at.
struct EntryFit {
  std::string entry;
  std::vector<FitPoint> planned; ///< sorted by S
  /// Sizes a bisection did not plan, with what monotonicity implies.
  std::vector<std::pair<int64_t, bool>> inferred;
  bool bisected = false;
  size_t candidates = 0; ///< sizes tried or inferred

  std::vector<int64_t> fitting() const {
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
  /// The first pair of planned sizes whose heap shrinks as S grows.
  std::optional<std::pair<FitPoint, FitPoint>> notMonotone() const {
    for (size_t i = 0; i < planned.size(); ++i)
      for (size_t j = i + 1; j < planned.size(); ++j)
        if (planned[j].heap < planned[i].heap)
          return std::make_pair(planned[i], planned[j]);
    return std::nullopt;
  }
};

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
        llvm::Error error =
            range && group.front().dynamic ? bisect(group) : planEach(group);
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

  const std::vector<EntryFit> &results() const { return fits; }
  const Manifest &manifest() const { return planner.manifest(); }

private:
  const PlanRequest &request;
  int64_t budget;
  Planner planner;
  std::vector<EntryFit> fits; ///< in order of first appearance

  EntryFit &fitOf(llvm::StringRef entry) {
    for (EntryFit &fit : fits)
      if (fit.entry == entry)
        return fit;
    fits.push_back({entry.str(), {}, {}, false, 0});
    return fits.back();
  }

  llvm::Expected<bool> tryJob(const PlanJob &job) {
    auto planned = planner.plan(job);
    if (!planned)
      return planned.takeError();
    const PlannedEntry &e = (*planned)->planned;
    FitPoint point{e.chunk, e.plan.heap, e.plan.lowerBound, e.plan.optimal,
                   e.plan.heap <= budget};
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

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

std::string joinSizes(llvm::ArrayRef<int64_t> sizes) {
  return llvm::join(
      llvm::map_range(sizes, [](int64_t s) { return std::to_string(s); }),
      ", ");
}

/// `1, 16, 32` or, for a bisected range, `1..37`.
std::string describeSizes(const EntryFit &fit) {
  std::vector<int64_t> sizes = fit.fitting();
  if (sizes.empty())
    return "none";
  if (fit.bisected && sizes.size() > 2)
    return llvm::formatv("{0}..{1}", sizes.front(), sizes.back()).str();
  return joinSizes(sizes);
}

void printVerdict(const EntryFit &fit, int64_t budget, llvm::raw_ostream &os) {
  std::vector<int64_t> sizes = fit.fitting();
  os << llvm::formatv("@{0}: chunk sizes that fit in {1} bytes: {2}", fit.entry,
                      budget, describeSizes(fit));
  if (!sizes.empty()) {
    os << "; largest S: " << sizes.back();
  } else if (!fit.planned.empty()) {
    const FitPoint *smallest = &fit.planned.front();
    for (const FitPoint &p : fit.planned)
      if (p.heap < smallest->heap)
        smallest = &p;
    os << llvm::formatv(" (the smallest heap, {0} bytes at S={1}, is {2} "
                        "bytes over)",
                        smallest->heap, smallest->chunk,
                        smallest->heap - budget);
  }
  os << "\n";
  if (fit.bisected)
    os << llvm::formatv("  bisected: planned {0} of {1} sizes, assuming the "
                        "heap grows with S\n",
                        fit.planned.size(), fit.candidates);
  if (auto pair = fit.notMonotone())
    os << llvm::formatv("  note: the heap does not grow monotonically with S "
                        "(S={0}: {1} bytes, S={2}: {3} bytes)\n",
                        pair->first.chunk, pair->first.heap, pair->second.chunk,
                        pair->second.heap);
}

void printFit(const Fitter &fitter, int64_t budget, llvm::raw_ostream &os) {
  const Manifest &m = fitter.manifest();
  std::vector<std::string> files;
  for (const ManifestInput &input : m.inputs)
    files.push_back(input.file);
  os << llvm::formatv("heap total {0} bytes ({1:F2} MiB), target {2} "
                      "(alignment {3}), input {4}\n",
                      budget, double(budget) / 1048576.0, m.target.name,
                      m.target.alignment, llvm::join(files, ", "));
  TextTable table({"entry", "S", "lower bound", "heap", "fits"},
                  {false, true, true, true, false});
  bool unproven = false;
  for (const EntryFit &fit : fitter.results())
    for (const FitPoint &p : fit.planned) {
      // A heap over the budget is a proven "no" when it is optimal or the
      // lower bound is over too; otherwise a longer search might fit.
      bool proven = p.fits || p.optimal || p.lowerBound > budget;
      unproven |= !proven;
      std::string fits = p.fits ? "yes" : "no";
      if (!proven)
        fits += "*";
      table.add({"@" + fit.entry, std::to_string(p.chunk),
                 std::to_string(p.lowerBound), std::to_string(p.heap), fits});
    }
  table.print(os);
  if (unproven)
    os << "* the lower bound fits but the search found no packing that does "
          "within --time-limit-ms\n";
  for (const EntryFit &fit : fitter.results())
    printVerdict(fit, budget, os);
}

llvm::json::Value fitJson(const Fitter &fitter, int64_t budget) {
  const Manifest &m = fitter.manifest();
  llvm::json::Array inputs, entries;
  for (const ManifestInput &input : m.inputs)
    inputs.push_back(input.file);
  bool allFit = true;
  for (const EntryFit &fit : fitter.results()) {
    llvm::json::Array points;
    for (const FitPoint &p : fit.planned)
      points.push_back(llvm::json::Object{{"S", p.chunk},
                                          {"heap", p.heap},
                                          {"lower_bound", p.lowerBound},
                                          {"optimal", p.optimal},
                                          {"fits", p.fits}});
    std::vector<int64_t> sizes = fit.fitting();
    allFit &= !sizes.empty();
    entries.push_back(llvm::json::Object{
        {"entry", fit.entry},
        {"chunks", std::move(points)},
        {"fitting", llvm::json::Array(sizes)},
        {"largest_fitting", sizes.empty() ? llvm::json::Value(nullptr)
                                          : llvm::json::Value(sizes.back())},
        {"bisected", fit.bisected},
        {"monotone", !fit.notMonotone().has_value()},
    });
  }
  return llvm::json::Object{
      {"heap_total", budget},        {"target", m.target.name},
      {"inputs", std::move(inputs)}, {"entries", std::move(entries)},
      {"all_fit", allFit},
  };
}

} // namespace

int runFit() {
  if (!heapTotalOption.getNumOccurrences())
    return fail(InputError, "fit needs --heap-total N, the runtime's heap "
                            "size in bytes");
  llvm::Expected<int64_t> heapTotal = parseHeapTotal(heapTotalOption);
  if (!heapTotal)
    return fail(InputError, heapTotal.takeError());
  llvm::Expected<ChunkChoice> chunks = parseChunkChoice(chunksOption);
  if (!chunks)
    return fail(InputError, chunks.takeError());
  llvm::Expected<PlanRequest> request =
      planning.request(chunks->chunks, chunksOption.getNumOccurrences() > 0);
  if (!request)
    return fail(InputError, request.takeError());
  if (reporting.quiet && reporting.json)
    return fail(InputError, "--quiet and --json exclude each other");

  // The budget is the heap total, or the target's own limit when smaller;
  // a heap over it is an answer here, not an error.
  int64_t budget = *heapTotal;
  if (request->target.heapLimit && request->target.heapLimit < budget) {
    llvm::errs() << llvm::formatv(
        "coreai-plan: note: target {0} limits the heap to {1} bytes; fitting "
        "into that\n",
        request->target.name, request->target.heapLimit);
    budget = request->target.heapLimit;
  }
  request->options.maxHeap = 0;

  std::unique_ptr<PlanObserver> progress = reporting.makeProgress();
  Fitter fitter(*request, budget, progress.get());
  llvm::Error error = fitter.run(chunks->range);
  progress.reset();
  if (error)
    return reportError(std::move(error));

  bool allFit = llvm::all_of(fitter.results(), [](const EntryFit &fit) {
    return !fit.fitting().empty();
  });
  if (reporting.json) {
    llvm::outs() << llvm::formatv("{0:2}", fitJson(fitter, budget)) << "\n";
  } else if (!reporting.quiet) {
    printFit(fitter, budget, llvm::outs());
    size_t failing = llvm::count_if(fitter.results(), [](const EntryFit &f) {
      return f.fitting().empty();
    });
    if (failing)
      llvm::outs() << llvm::formatv("{0} of {1} entry points fit at no chunk "
                                    "size\n",
                                    failing, fitter.results().size());
    else
      llvm::outs() << llvm::formatv("every entry point fits at some chunk "
                                    "size\n");
  }
  return allFit ? Success : NotFound;
}

} // namespace coreai::cli

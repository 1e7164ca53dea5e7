//===- FitCommand.cpp - coreai-plan fit -----------------------------------===//
//
// Which chunk sizes fit a runtime's fixed heap (coreai-plan/Bundle/Fit.h):
// options in, the answer out as a table and verdicts or as JSON.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "PlanningOptions.h"
#include "TextTable.h"

#include "coreai-plan/Options.h"
#include "coreai-plan/Bundle/Fit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace coreai::cli {

int runFit();
Command fitCommand("fit",
                   "Find the chunk sizes whose planned heap fits a given "
                   "heap total, per entry point",
                   runFit);

namespace {
namespace cl = llvm::cl;

PlanningOptions planning(fitCommand,
                         "Chunk sizes to try: a list S,S,... (each is "
                         "planned) or a range A..B (bisected per dynamic "
                         "entry point; default 1,16,32,64)");
ReportingOptions reporting(fitCommand);

cl::opt<std::string>
    heapTotalOption("heap-total",
                    cl::desc("The runtime's heap size in bytes (a KiB, MiB "
                             "or GiB suffix is allowed)"),
                    cl::value_desc("N"), cl::sub(fitCommand));
cl::opt<bool> parametricOption(
    "parametric",
    cl::desc("With a range A..B: plan each dynamic entry point once for the "
             "whole range (as plan --chunks A..B does) and answer every S "
             "from its heap expression"),
    cl::sub(fitCommand));


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
  bool contiguous = !sizes.empty() && sizes.back() - sizes.front() + 1 ==
                                          int64_t(sizes.size());
  if ((fit.bisected || (fit.parametric && contiguous)) && sizes.size() > 2)
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
  if (fit.parametric)
    os << llvm::formatv("  from the parametric plan's heap at each of {0} "
                        "sizes\n",
                        fit.planned.size());
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

void printFit(const BundleFit &fit, llvm::raw_ostream &os) {
  const Manifest &m = fit.manifest;
  int64_t budget = fit.budget;
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
  for (const EntryFit &entry : fit.entries)
    for (size_t i = 0; i < entry.planned.size(); ++i) {
      const FitPoint &p = entry.planned[i];
      // A parametric answer covers every S: show the ends and where the
      // answer changes.
      bool edge = i == 0 || i + 1 == entry.planned.size() ||
                  entry.planned[i - 1].fits != p.fits ||
                  entry.planned[i + 1].fits != p.fits;
      if (entry.parametric && !edge)
        continue;
      // A heap over the budget is a proven "no" when it is optimal or the
      // lower bound is over too; otherwise a longer search might fit.
      bool proven =
          p.fits || p.optimal || p.lowerBound > budget || entry.parametric;
      unproven |= !proven;
      std::string fits = p.fits ? "yes" : "no";
      if (!proven)
        fits += "*";
      table.add({"@" + entry.entry, std::to_string(p.chunk),
                 std::to_string(p.lowerBound), std::to_string(p.heap), fits});
    }
  table.print(os);
  if (unproven)
    os << "* the lower bound fits but the search found no packing that does "
          "within --time-limit-ms\n";
  for (const EntryFit &entry : fit.entries)
    printVerdict(entry, budget, os);
}

llvm::json::Value fitJson(const BundleFit &result) {
  const Manifest &m = result.manifest;
  int64_t budget = result.budget;
  llvm::json::Array inputs, entries;
  for (const ManifestInput &input : m.inputs)
    inputs.push_back(input.file);
  bool allFit = true;
  for (const EntryFit &fit : result.entries) {
    llvm::json::Array points;
    for (const FitPoint &p : fit.planned)
      points.push_back(llvm::json::Object{{"chunk", p.chunk},
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
        {"parametric", fit.parametric},
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
  llvm::Expected<int64_t> heapTotal =
      parseByteSize(heapTotalOption, "--heap-total");
  if (!heapTotal)
    return fail(InputError, heapTotal.takeError());
  bool chunksRange = false;
  llvm::Expected<PlanRequest> request = planning.request(chunksRange);
  if (!request)
    return fail(InputError, request.takeError());
  if (reporting.quiet && reporting.json)
    return fail(InputError, "--quiet and --json exclude each other");
  if (parametricOption && !chunksRange)
    return fail(InputError, "--parametric needs a range --chunks A..B");
  request->parametric = parametricOption;

  // The budget is the heap total, or the target's own limit when smaller;
  // a heap over it is an answer here, not an error.
  int64_t budget = fitBudget(request->target, *heapTotal);
  if (budget != *heapTotal)
    llvm::errs() << llvm::formatv(
        "coreai-plan: note: target {0} limits the heap to {1} bytes; fitting "
        "into that\n",
        request->target.name, request->target.heapLimit);

  std::unique_ptr<PlanObserver> progress = reporting.makeProgress();
  llvm::Expected<BundleFit> fit =
      fitBundle(std::move(*request), budget, chunksRange, progress.get());
  progress.reset();
  if (!fit)
    return reportError(fit.takeError());

  if (reporting.json) {
    llvm::outs() << llvm::formatv("{0:2}", fitJson(*fit)) << "\n";
  } else if (!reporting.quiet) {
    printFit(*fit, llvm::outs());
    size_t failing = llvm::count_if(
        fit->entries, [](const EntryFit &f) { return f.fitting().empty(); });
    if (failing)
      llvm::outs() << llvm::formatv("{0} of {1} entry points fit at no chunk "
                                    "size\n",
                                    failing, fit->entries.size());
    else
      llvm::outs() << llvm::formatv("every entry point fits at some chunk "
                                    "size\n");
  }
  return fit->allFit() ? Success : AnswerNo;
}

} // namespace coreai::cli

//===- PlanCommand.cpp - coreai-plan plan ---------------------------------===//
//
// The AOT build step: every entry point of a bundle at every chunk size is
// planned (coreai-plan/Bundle/Planner.h); then the manifest (binary and JSON), the annotated
// graphs and, on request, one heap picture per entry and S are written
// together, or not at all.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "OutputSet.h"
#include "InputCheck.h"
#include "PlanProgram.h"
#include "PlanningOptions.h"
#include "TextTable.h"

#include "coreai-plan/Bundle/Fit.h"
#include "coreai-plan/Bundle/Planner.h"
#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/OutputBins.h"
#include "coreai-plan/Report/Report.h"
#include "coreai-plan/Target/Target.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace coreai::cli {

int runPlan();
Command
    planCommand("plan",
                "Plan every entry point of a bundle at every chunk size and "
                "write the heap-size manifest",
                runPlan);

namespace {
namespace cl = llvm::cl;

PlanningOptions planning(planCommand,
                         "Chunk sizes S to specialise dynamic functions "
                         "for (default 1,16,32,64), or a range A..B: one "
                         "parametric plan valid for every S in it");
ReportingOptions reporting(planCommand);

cl::opt<std::string> outputDir("o", cl::Required,
                               cl::desc("Directory for plan.manifest, "
                                        "plan.json, MODEL.planned.mlir"),
                               cl::value_desc("OUTDIR"), cl::sub(planCommand));
cl::opt<std::string> instancesOption(
    "instances",
    cl::desc("With --chunks A..B: the S at which the parametric plan is also "
             "written as a planned function and a manifest entry (default: "
             "B)"),
    cl::value_desc("S,S,..."), cl::sub(planCommand));
cl::opt<unsigned> maxPiecesOption(
    "max-pieces",
    cl::desc("With --chunks A..B: cut the range into at most N pieces, each "
             "with a plan of its own (default 8)"),
    cl::value_desc("N"), cl::init(kDefaultMaxPieces), cl::sub(planCommand));
cl::opt<std::string>
    svgOption("svg", cl::ValueOptional,
              cl::desc("Also draw each entry's heap at each S: "
                       "<entry>__s<S>.svg into OUTDIR, or into DIR, or (for "
                       "a single entry and S) FILE.svg"),
              cl::value_desc("DIR|FILE.svg"), cl::sub(planCommand));
cl::opt<bool> explain("explain",
                      cl::desc("After the table, explain where each heap "
                               "peaks and how it grows with S"),
                      cl::sub(planCommand));
cl::opt<bool> shareMutableBuffers(
    "share-mutable-buffers",
    cl::desc("ExecuTorch programs: place each mutable buffer that several "
             "methods name alike (the KV cache of prefill and decode) at one "
             "offset in all of them"),
    cl::sub(planCommand));

/// One line under the table when kernels were fused: the entry where they
/// keep the most bytes out of memory (plan.json and explain say the rest).
void printFusion(const Manifest &manifest, llvm::raw_ostream &os) {
  const PlannedEntry *most = nullptr;
  size_t fused = 0;
  for (const ManifestEntry &entry : manifest.entries) {
    const PlannedEntry &e = entry.planned;
    if (e.kernels.empty())
      continue;
    ++fused;
    if (!most || e.fusedBytes() > most->fusedBytes())
      most = &e;
  }
  if (!most)
    return;
  os << llvm::formatv("fusion: {0} in @{1} at S={2}", kernelSummary(*most),
                      most->entry, most->chunk);
  std::vector<std::string> notes;
  if (fused > 1)
    notes.push_back(llvm::formatv("the most of {0} entries", fused));
  if (std::string source = kernelSourceText(most->kernelSource);
      !source.empty())
    notes.push_back(source);
  if (!notes.empty())
    os << " (" << llvm::join(notes, "; ") << ")";
  os << "\n";
}

void printTable(const Manifest &manifest, llvm::raw_ostream &os) {
  std::vector<std::string> files;
  for (const ManifestInput &input : manifest.inputs)
    files.push_back(input.file);
  os << llvm::formatv("target {0} (alignment {1}), input {2}\n",
                      manifest.target.name, manifest.target.alignment,
                      llvm::join(files, ", "));
  TextTable table({"entry", "S", "buffers", "lower bound", "heap", "heap/LB",
                   "solver", "optimal", "solver time"},
                  {false, true, true, true, true, true, false, false, true});
  const ManifestEntry *largest = nullptr;
  for (const ManifestEntry &entry : manifest.entries) {
    const PlannedEntry &e = entry.planned;
    if (!largest || e.plan.heap > largest->planned.plan.heap)
      largest = &entry;
    table.add({"@" + e.entry, std::to_string(e.chunk),
               std::to_string(e.problem.buffers.size()),
               std::to_string(e.plan.lowerBound), std::to_string(e.plan.heap),
               llvm::formatv("{0:F4}", heapRatio(e.plan.heap, e.plan.lowerBound)),
               e.plan.algorithm, e.plan.optimal ? "yes" : "no",
               llvm::formatv("{0:F3} s", e.plan.seconds)});
  }
  table.print(os);
  for (const ManifestParametric &p : manifest.parametric) {
    const ParametricPlan &plan = p.plan;
    os << llvm::formatv("@{0}: one plan for every {1} in [{2}, {3}]: heap {4} "
                        "at {1}={2}, {5} at {1}={3}, at most {6}; {7} "
                        "buffers, {8} max terms",
                        p.entry, p.symbol, plan.lo, plan.hi,
                        plan.heapAt(plan.lo), plan.heapAt(plan.hi),
                        maxHeapOf(plan), plan.buffers.size(),
                        plan.termCount());
    // Borrowed buffers per output, in the outputs' order.
    std::vector<std::string> borrowed;
    for (size_t k = 0; k < plan.bins.size(); ++k) {
      size_t count = llvm::count_if(plan.buffers, [&](const ParametricBuffer &b) {
        return b.bin == int32_t(k);
      });
      if (count)
        borrowed.push_back(llvm::formatv("{0} in output {1} ({2} bytes)", count,
                                         plan.bins[k].output,
                                         plan.bins[k].capacity.str()));
    }
    if (!borrowed.empty())
      os << "; borrowed: " << llvm::join(borrowed, ", ");
    os << "\n";
    // Through one or two sizes any heap is a polynomial: not news.
    std::optional<SizeExpr> heap;
    if (plan.hi - plan.lo >= 2)
      heap = plan.heapPolynomial();
    if (heap)
      os << llvm::formatv("  heap = {0} bytes at every S in [{1}, {2}]\n",
                          heap->str(), plan.lo, plan.hi);
    if (!p.cut.empty())
      os << llvm::formatv("  cut below {0}={1}: {2}\n",
                          p.symbol, plan.lo, p.cut);
  }
  os << "bundle heap " << bytesWithMiB(manifest.bundleHeap);
  // A parametric plan can set it at an S that has no entry of its own.
  std::optional<std::pair<std::string, int64_t>> setBy;
  if (largest)
    setBy = {largest->planned.entry, largest->planned.chunk};
  int64_t top = largest ? largest->planned.plan.heap : -1;
  for (const ManifestParametric &p : manifest.parametric)
    for (int64_t s = p.plan.lo; s <= p.plan.hi; ++s)
      if (p.plan.heapAt(s) > top) {
        top = p.plan.heapAt(s);
        setBy = {p.entry, s};
      }
  if (setBy)
    os << llvm::formatv(", set by @{0} at S={1}", setBy->first, setBy->second);
  os << "\n";
  printFusion(manifest, os);
}

std::vector<PlannedEntry> plannedEntries(const Manifest &manifest) {
  std::vector<PlannedEntry> entries;
  for (const ManifestEntry &entry : manifest.entries)
    entries.push_back(entry.planned);
  return entries;
}

/// What --explain prints: the entries' peaks, then the parametric pieces.
std::string explanation(const Manifest &manifest) {
  std::vector<ParametricPiece> pieces;
  for (const ManifestParametric &p : manifest.parametric)
    pieces.push_back({p.entry, &p.plan, p.symbol, p.cut});
  std::string text = explainPlans(plannedEntries(manifest));
  if (!pieces.empty())
    text += "\n" + explainPieces(pieces);
  return text;
}

/// A compact summary for scripts; plan.json holds every buffer.
llvm::json::Value summaryJson(const Manifest &manifest,
                              llvm::ArrayRef<std::string> written) {
  llvm::json::Array inputs, entries;
  for (const ManifestInput &input : manifest.inputs)
    inputs.push_back(input.file);
  for (const ManifestEntry &entry : manifest.entries) {
    const PlannedEntry &e = entry.planned;
    int64_t borrowedBuffers = 0, borrowedBytes = 0;
    for (size_t b = 0; b < e.problem.buffers.size(); ++b)
      if (e.borrowedOutput(b) >= 0) {
        ++borrowedBuffers;
        borrowedBytes += e.problem.buffers[b].size;
      }
    entries.push_back(llvm::json::Object{
        {"entry", e.entry},
        {"chunk", e.chunk},
        {"function", entry.plannedFunction},
        {"file", entry.plannedFile},
        {"buffers", int64_t(e.problem.buffers.size())},
        {"lower_bound", e.plan.lowerBound},
        // The bound as if buffers could be split between the heap and the
        // outputs' storage (docs/SOLVERS.md, "Bounds"): what lower_bound
        // was before it knew buffers are indivisible.
        {"lower_bound_splittable",
         splittableBorrowingLowerBound(e.problem, e.outputBins)},
        {"heap", e.plan.heap},
        {"optimal", e.plan.optimal},
        // Which bound lower_bound is and how optimality was shown
        // (docs/SOLVERS.md, "Bounds"): "meets-bound", "exact-search" (the
        // search proved a heap above the bound minimal) or "none".
        {"bound", e.outputBins.empty() ? "peak" : "indivisible-borrowing"},
        {"proof", e.plan.heap <= e.plan.lowerBound ? "meets-bound"
                  : e.plan.optimal                 ? "exact-search"
                                                   : "none"},
        {"borrowed_buffers", borrowedBuffers},
        {"borrowed_bytes", borrowedBytes},
        {"algorithm", e.plan.algorithm},
        {"solver_seconds", e.plan.seconds},
        // The fused kernels (plan.json lists each): where they came from
        // ("input", "target", "" none), how many, and the values they
        // keep out of memory.
        {"kernel_source", e.kernelSource},
        {"kernels", int64_t(e.kernels.size())},
        {"fused_values", e.fusedValues()},
        {"fused_bytes", e.fusedBytes()},
        // The kernels' workspaces (docs/WORKSPACE.md), part of the heap
        // (or of lent outputs) above.
        {"workspaces", int64_t(e.workspaces.size())},
        {"workspace_bytes", e.workspaceBytes()},
        // Kernel variants (docs/WORKSPACE.md): ops with a choice, those
        // run slower than the target's cheapest, the workspace that saved
        // and the extra cost (the target's model).
        {"variant_choices", int64_t(e.variants.size())},
        {"downgraded", e.downgrades().ops},
        {"downgrade_saved_bytes", e.downgrades().savedBytes},
        {"downgrade_extra_cost", e.downgrades().extraCost},
        // Recomputed chains (docs/FUSION.md, "Recompute"): extra work.
        {"recomputed_chains", e.recomputed.chains},
        {"recomputed_ops", e.recomputed.ops},
        {"recomputed_elements", e.recomputed.elements},
    });
  }
  llvm::json::Array parametric;
  for (const ManifestParametric &p : manifest.parametric) {
    llvm::json::Array heaps;
    for (int64_t s = p.plan.lo; s <= p.plan.hi; ++s)
      heaps.push_back(p.plan.heapAt(s));
    parametric.push_back(llvm::json::Object{
        {"entry", p.entry},
        {"symbol", p.symbol},
        {"lo", p.plan.lo},
        {"hi", p.plan.hi},
        {"buffers", int64_t(p.plan.buffers.size())},
        {"terms", int64_t(p.plan.termCount())},
        {"borrowed_buffers",
         int64_t(llvm::count_if(p.plan.buffers, [](const ParametricBuffer &b) {
           return b.bin >= 0;
         }))},
        {"heaps", std::move(heaps)},
        // Why the planner cut the range below lo (null: the lowest piece).
        {"cut", p.cut.empty() ? llvm::json::Value(nullptr)
                              : llvm::json::Value(p.cut)},
    });
  }
  llvm::json::Object summary{
      {"target", manifest.target.name},
      {"alignment", manifest.target.alignment},
      {"inputs", std::move(inputs)},
      {"bundle_heap", manifest.bundleHeap},
      {"entries", std::move(entries)},
      {"output_dir", outputDir.getValue()},
      {"written", llvm::json::Array(written)},
  };
  if (!parametric.empty())
    summary["parametric"] = std::move(parametric);
  if (explain)
    summary["explain"] = explanation(manifest);
  return summary;
}

/// Where --svg puts its pictures: a directory, or one file.
struct SvgDestination {
  std::string dir;
  std::string file; ///< set for --svg=FILE.svg
};

llvm::Expected<SvgDestination> svgDestination(const Manifest &manifest) {
  if (svgOption.empty())
    return SvgDestination{outputDir, ""};
  if (!llvm::StringRef(svgOption).ends_with(".svg"))
    return SvgDestination{svgOption, ""};
  if (manifest.entries.size() != 1)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("--svg={0} draws one entry, but {1} (entry point, S) "
                      "pairs were planned; give a directory, or select one "
                      "with --entry and --chunks",
                      svgOption, manifest.entries.size())
            .str());
  return SvgDestination{llvm::sys::path::parent_path(svgOption).str(),
                        svgOption};
}

std::string joinPath(llvm::StringRef dir, llvm::StringRef name) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  return path.str().str();
}

/// Adds every output to `outputs`; `written` gets the names of the files
/// in OUTDIR, `writtenElsewhere` the paths of pictures outside it.
llvm::Error addOutputs(const PlannedBundle &bundle, OutputSet &outputs,
                       std::vector<std::string> &written,
                       std::vector<std::string> &writtenElsewhere) {
  const Manifest &manifest = bundle.manifest;
  std::optional<SvgDestination> svg;
  if (svgOption.getNumOccurrences()) {
    auto destination = svgDestination(manifest);
    if (!destination)
      return destination.takeError();
    svg = std::move(*destination);
  }
  if (llvm::Error error = outputs.makeDirectory(outputDir))
    return error;
  if (svg && !svg->dir.empty() && svg->dir != outputDir.getValue())
    if (llvm::Error error = outputs.makeDirectory(svg->dir))
      return error;

  written = {"plan.manifest", "plan.json"};
  llvm::Error error =
      llvm::joinErrors(outputs.add(joinPath(outputDir, "plan.manifest"),
                                   writeManifestBinary(manifest)),
                       outputs.add(joinPath(outputDir, "plan.json"),
                                   writeManifestJson(manifest)));
  for (const auto &[name, text] : bundle.plannedFiles) {
    error = llvm::joinErrors(std::move(error),
                             outputs.add(joinPath(outputDir, name), text));
    written.push_back(name);
  }
  if (!svg)
    return error;
  for (const ManifestEntry &entry : manifest.entries) {
    std::string path = svg->file.empty()
                           ? joinPath(svg->dir, entry.plannedFunction + ".svg")
                           : svg->file;
    error = llvm::joinErrors(std::move(error),
                             outputs.add(path, renderHeapSvg(entry.planned)));
    if (svg->dir == outputDir.getValue() && svg->file.empty())
      written.push_back(entry.plannedFunction + ".svg");
    else
      writtenElsewhere.push_back(path);
  }
  return error;
}

} // namespace

/// `plan PROGRAM.pte`: the program re-planned into a new program. The
/// options about graphs (chunk sizes, entries, bindings, pictures) do not
/// apply; the target, when given, sets the alignment (else ExecuTorch's).
int runPlanOfProgram() {
  if (planning.inputs.size() != 1)
    return fail(InputError, "an ExecuTorch program is planned alone, not "
                            "with other inputs");
  // (a cl::list's `&` is its vector's: std::addressof.)
  const cl::Option *graphOptions[] = {
      &planning.chunksOption, std::addressof(planning.entryNames),
      std::addressof(planning.bindOptions), &instancesOption,
      &maxPiecesOption, &svgOption};
  for (const cl::Option *option : graphOptions)
    if (option->getNumOccurrences())
      return fail(InputError, "--" + option->ArgStr +
                                  " does not apply to an ExecuTorch program");
  if (reporting.quiet && reporting.json)
    return fail(InputError, "--quiet and --json exclude each other");
  ProgramPlanRequest request;
  request.input = planning.inputs.front();
  request.output = outputDir;
  request.options.solve = planning.planning.chosen.solve;
  request.options.shareMutableBuffers = shareMutableBuffers;
  if (!planning.targetName.empty()) {
    llvm::Expected<Target> target = loadTarget(
        planning.targetName, planning.targetsDir.empty()
                                 ? defaultTargetsDir()
                                 : planning.targetsDir.getValue());
    if (!target)
      return fail(InputError, target.takeError());
    request.options.alignment = target->alignment;
  }
  request.quiet = reporting.quiet;
  request.json = reporting.json;
  request.explain = explain;
  return runPlanProgram(request);
}

int runPlan() {
  if (llvm::any_of(planning.inputs, isProgramFile))
    return runPlanOfProgram();
  if (shareMutableBuffers)
    return fail(InputError, "--share-mutable-buffers is for ExecuTorch "
                            "programs (.pte)");
  // Everything the user typed is checked before the graph is read.
  bool parametric = false;
  llvm::Expected<PlanRequest> request = planning.request(parametric);
  if (!request)
    return fail(InputError, request.takeError());
  request->parametric = parametric;
  if (instancesOption.getNumOccurrences()) {
    if (!parametric)
      return fail(InputError, "--instances needs a range --chunks A..B");
    llvm::Expected<std::vector<int64_t>> instances =
        parseChunkList(instancesOption);
    if (!instances)
      return fail(InputError, instances.takeError());
    request->instances = std::move(*instances);
  }
  if (maxPiecesOption.getNumOccurrences() && !parametric)
    return fail(InputError, "--max-pieces needs a range --chunks A..B");
  if (maxPiecesOption < 1)
    return fail(InputError, "--max-pieces must be at least 1");
  request->maxPieces = maxPiecesOption;
  if (reporting.quiet && reporting.json)
    return fail(InputError, "--quiet and --json exclude each other");
  // `--svg DIR` (with a space) makes DIR an input: its value needs '='.
  if (svgOption.getNumOccurrences() && svgOption.empty())
    for (const std::string &input : planning.inputs)
      if (llvm::StringRef(input).ends_with(".svg") ||
          llvm::sys::fs::is_directory(input))
        return fail(InputError, "'" + input + "' is not a graph; write --svg=" +
                                    input + " to put the pictures there");

  std::unique_ptr<PlanObserver> progress = reporting.makeProgress();
  llvm::Expected<PlannedBundle> bundle = planBundle(*request, progress.get());
  progress.reset();
  if (!bundle)
    return reportError(bundle.takeError());

  OutputSet outputs;
  std::vector<std::string> written, writtenElsewhere;
  if (llvm::Error error =
          addOutputs(*bundle, outputs, written, writtenElsewhere))
    return fail(InputError, std::move(error));
  if (llvm::Error error = outputs.commit())
    return fail(InputError, std::move(error));

  const Manifest &manifest = bundle->manifest;
  if (reporting.quiet)
    return Success;
  if (reporting.json) {
    std::vector<std::string> paths;
    for (const std::string &name : written)
      paths.push_back(joinPath(outputDir, name));
    llvm::append_range(paths, writtenElsewhere);
    llvm::outs() << llvm::formatv("{0:2}", summaryJson(manifest, paths))
                 << "\n";
    return Success;
  }
  printTable(manifest, llvm::outs());
  llvm::outs() << "wrote " << llvm::join(written, ", ") << " to " << outputDir
               << "\n";
  if (!writtenElsewhere.empty())
    llvm::outs() << "wrote " << llvm::join(writtenElsewhere, ", ") << "\n";
  if (explain)
    llvm::outs() << "\n" << explanation(manifest);
  return Success;
}

} // namespace coreai::cli

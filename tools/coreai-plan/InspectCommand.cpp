//===- InspectCommand.cpp - coreai-plan inspect ---------------------------===//
//
// Prints a manifest (either encoding) as tables or JSON, and converts it
// to the binary encoding, so that the two can be compared byte for byte.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ProgramPage.h"
#include "ReportInput.h"
#include "TextTable.h"

#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace coreai::cli {

int runInspect();
Command inspectCommand("inspect",
                       "Print a heap-size manifest (plan.manifest or "
                       "plan.json) or an ExecuTorch program's arenas (.pte)",
                       runInspect);

namespace {
InputArgument manifestPath(inspectCommand, "<plan.manifest|PROGRAM.pte>");
llvm::cl::opt<bool> asJson("json",
                           llvm::cl::desc("Print the manifest as JSON (the "
                                          "content of plan.json)"),
                           llvm::cl::sub(inspectCommand));
llvm::cl::opt<bool> withBuffers("buffers",
                                llvm::cl::desc("Also print every buffer of "
                                               "every entry"),
                                llvm::cl::sub(inspectCommand));
llvm::cl::opt<bool> withKernels("kernels",
                                llvm::cl::desc("Also print the fused kernels "
                                               "of every entry"),
                                llvm::cl::sub(inspectCommand));
llvm::cl::opt<std::string>
    binaryOut("write-binary",
              llvm::cl::desc("Write the manifest in the FlatBuffers encoding"),
              llvm::cl::value_desc("OUT.manifest"),
              llvm::cl::sub(inspectCommand));

llvm::cl::opt<std::string>
    svgOut("svg",
           llvm::cl::desc("Draw one entry's heap (select it with --entry "
                          "and --chunk) as an SVG picture"),
           llvm::cl::value_desc("OUT.svg"), llvm::cl::sub(inspectCommand));
llvm::cl::opt<std::string>
    htmlOut("html",
            llvm::cl::desc("Write an offline HTML page: where every "
                           "entry's bytes are, searchable, and the bytes "
                           "against S; for a program, each method's arena "
                           "as exported and re-planned"),
            llvm::cl::value_desc("OUT.html"), llvm::cl::sub(inspectCommand));
llvm::cl::opt<std::string> entryFilter("entry",
                                       llvm::cl::desc("Entry point for --svg"),
                                       llvm::cl::sub(inspectCommand));
llvm::cl::opt<int64_t> chunkFilter("chunk",
                                   llvm::cl::desc("Chunk size S for --svg"),
                                   llvm::cl::init(-1),
                                   llvm::cl::sub(inspectCommand));

llvm::Error writeText(llvm::StringRef path, llvm::StringRef text) {
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << text;
    return llvm::Error::success();
  });
}

/// The one entry --entry/--chunk select; an error lists the choices when
/// they select none or several.
llvm::Expected<const ManifestEntry *> selectEntry(const Manifest &m) {
  std::vector<const ManifestEntry *> matches;
  std::string choices;
  for (const ManifestEntry &entry : m.entries) {
    choices += llvm::formatv(" {0}:{1}", entry.planned.entry,
                             entry.planned.chunk);
    if ((entryFilter.empty() || entry.planned.entry == entryFilter) &&
        (chunkFilter < 0 || entry.planned.chunk == chunkFilter))
      matches.push_back(&entry);
  }
  if (matches.size() == 1)
    return matches.front();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("--svg needs exactly one entry; --entry/--chunk select "
                    "{0} of:{1}",
                    matches.size(), choices)
          .str());
}

/// A program's pictures: the arena --entry selects as exported (--svg),
/// and the page of every arena as exported and re-planned (--html).
int writeProgramPictures(const ReportInput &input) {
  std::string selected;
  if (!svgOut.empty()) {
    auto entry = selectEntry(input.manifest);
    if (!entry)
      return fail(InputError, entry.takeError());
    selected = (*entry)->planned.entry;
  }
  llvm::Expected<ProgramPage> page = programPageOf(input);
  if (!page)
    return fail(InternalError, page.takeError());
  if (!svgOut.empty()) {
    for (const ProgramArena &arena : page->arenas)
      if (arena.before.entry == selected)
        if (llvm::Error error =
                writeText(svgOut, renderProgramArenaSvg(arena)))
          return fail(InputError, std::move(error));
  }
  if (!htmlOut.empty())
    if (llvm::Error error = writeText(htmlOut, renderProgramHtml(*page)))
      return fail(InputError, std::move(error));
  return Success;
}

int writePictures(const ReportInput &input) {
  if (input.program)
    return writeProgramPictures(input);
  const Manifest &m = input.manifest;
  if (!svgOut.empty()) {
    auto entry = selectEntry(m);
    if (!entry)
      return fail(InputError, entry.takeError());
    if (llvm::Error error =
            writeText(svgOut, renderHeapSvg((*entry)->planned)))
      return fail(InputError, std::move(error));
  }
  if (!htmlOut.empty()) {
    std::vector<PlannedEntry> entries;
    for (const ManifestEntry &entry : m.entries)
      entries.push_back(entry.planned);
    std::vector<ParametricPiece> pieces;
    for (const ManifestParametric &p : m.parametric)
      pieces.push_back({p.entry, &p.plan, p.symbol, p.cut});
    std::vector<std::string> files;
    for (const ManifestInput &input : m.inputs)
      files.push_back(input.file);
    std::string title = "coreai-plan: " +
                        (files.empty() ? std::string("bundle")
                                       : llvm::join(files, " + ")) +
                        " on " + m.target.name;
    if (llvm::Error error =
            writeText(htmlOut, renderBundleHtml(entries, title, pieces)))
      return fail(InputError, std::move(error));
  }
  return Success;
}

std::string yesNo(bool value) { return value ? "yes" : "no"; }

void printSummary(const Manifest &m, llvm::raw_ostream &os) {
  os << llvm::formatv("manifest     format {0}, written by {1}\n",
                      m.formatVersion, m.toolVersion);
  for (const ManifestInput &input : m.inputs)
    os << llvm::formatv("input        {0} (sha256 {1})\n", input.file,
                        input.sha256);
  os << llvm::formatv("target       {0} (alignment {1}, heap limit {2})\n",
                      m.target.name, m.target.alignment,
                      m.target.heapLimit ? std::to_string(m.target.heapLimit)
                                         : std::string("none"));
  os << "bundle heap  " << bytesWithMiB(m.bundleHeap) << "\n\n";
}

void printEntries(const Manifest &m, llvm::raw_ostream &os) {
  TextTable table(
      {"entry", "S", "function", "file", "buffers", "lower bound", "heap",
       "heap/LB", "optimal", "solver"},
      {false, true, false, false, true, true, true, true, false, false});
  for (const ManifestEntry &entry : m.entries) {
    const PlannedEntry &e = entry.planned;
    table.add({"@" + e.entry, std::to_string(e.chunk), entry.plannedFunction,
               entry.plannedFile, std::to_string(e.problem.buffers.size()),
               std::to_string(e.plan.lowerBound), std::to_string(e.plan.heap),
               llvm::formatv("{0:F4}", heapRatio(e.plan.heap, e.plan.lowerBound)),
               yesNo(e.plan.optimal), e.plan.algorithm});
  }
  table.print(os);
  if (m.parametric.empty())
    return;
  os << "\n";
  TextTable parametric({"entry", "S", "buffers", "max terms", "heap at lo",
                        "heap at hi", "max heap", "heap"},
                       {false, false, true, true, true, true, true, false});
  for (const ManifestParametric &p : m.parametric) {
    std::optional<SizeExpr> heap = p.plan.heapPolynomial();
    parametric.add(
        {"@" + p.entry,
         llvm::formatv("{0}..{1}", p.plan.lo, p.plan.hi).str(),
         std::to_string(p.plan.buffers.size()),
         std::to_string(p.plan.termCount()),
         std::to_string(p.plan.heapAt(p.plan.lo)),
         std::to_string(p.plan.heapAt(p.plan.hi)),
         std::to_string(maxHeapOf(p.plan)),
         heap ? heap->str() : std::string("not a polynomial")});
  }
  parametric.print(os);
}

void printBuffers(const ManifestEntry &entry, llvm::raw_ostream &os) {
  const PlannedEntry &e = entry.planned;
  os << llvm::formatv("\n@{0} S={1} ({2}): {3} buffers\n", e.entry, e.chunk,
                      entry.plannedFunction, e.problem.buffers.size());
  TextTable table({"id", "value", "op", "region", "offset", "size", "start",
                   "end", "views", "location"},
                  {false, false, false, false, true, true, true, true, true,
                   false});
  for (size_t i = 0; i < e.problem.buffers.size(); ++i) {
    const Buffer &b = e.problem.buffers[i];
    const BufferOrigin &o = e.origins[i];
    int64_t output = e.borrowedOutput(i);
    table.add({b.id, o.value, o.op,
               output < 0 ? "heap" : "output " + std::to_string(output),
               std::to_string(e.plan.offsets[i]), std::to_string(b.size),
               std::to_string(b.start), std::to_string(b.end),
               std::to_string(o.viewCount), o.location});
  }
  // What the runtime binds without a heap offset: chains built in their
  // output and state updates written into their state, at offset 0.
  for (const PlannedEntry::Placed &p : e.placed) {
    bool timed = p.end > p.start; // older manifests recorded no times
    table.add({"-", p.origin.value, p.origin.op,
               (p.inState ? "state " : "output ") + std::to_string(p.index),
               "0", std::to_string(p.size),
               timed ? std::to_string(p.start) : "-",
               timed ? std::to_string(p.end) : "-",
               std::to_string(p.origin.viewCount), p.origin.location});
  }
  table.print(os);
}
/// An ExecuTorch program: its methods, then a row per arena.
void printProgram(const ReportInput &input, llvm::raw_ostream &os) {
  const pte::Program &program = *input.program;
  const ManifestInput &file = input.manifest.inputs.front();
  os << llvm::formatv("program      {0} (ExecuTorch, sha256 {1})\n",
                      file.file, file.sha256);
  for (size_t i = 0; i < program.methods.size(); ++i) {
    const pte::Method &method = program.methods[i];
    const pte::MethodMemory &memory = input.memories[i];
    int64_t states = llvm::count_if(memory.storages, [](const pte::Storage &s) {
      return s.state && !s.delegateOutput;
    });
    os << llvm::formatv("method       {0}: {1} instructions, {2} planned "
                        "tensors in {3} storages ({4} mutable buffers){5}\n",
                        method.name, method.instructions.size(),
                        method.placed.size(), memory.storages.size(), states,
                        memory.controlFlow
                            ? "; control flow: every tensor live throughout"
                            : "");
  }
  os << llvm::formatv("alignment    {0} (ExecuTorch's)\n",
                      input.manifest.target.alignment);
  int64_t largest = 0;
  for (const pte::ArenaEntry &arena : input.arenas)
    largest = std::max(largest, arena.arenaBytes);
  os << "largest arena " << bytesWithMiB(largest) << "\n";
  // Is the plan sound? The same check as `coreai-plan check`.
  std::vector<pte::PlanFinding> findings =
      pte::checkProgramPlan(program, input.memories);
  if (findings.empty())
    os << "plan check   sound: no two tensors share bytes while both are "
          "live\n";
  else
    os << llvm::formatv("plan check   NOT SOUND, {0} finding{1} (`coreai-plan "
                        "check {2}` lists them), the first: {3}\n",
                        findings.size(), findings.size() == 1 ? "" : "s",
                        file.file, findings.front().text);
  for (const std::string &line :
       pte::mutableBufferAdvice(program, input.memories, false))
    os << line << "\n";
  os << "\n";
  std::set<std::pair<size_t, int64_t>> unsound; // (method, memory id)
  for (const pte::PlanFinding &finding : findings)
    unsound.insert({finding.method, finding.memoryId});
  // "used": the highest byte a tensor reaches; the arena may be larger
  // (every method's sized alike).
  TextTable table({"arena", "memory id", "tensors", "storages", "lower bound",
                   "used", "used/LB", "optimal", "arena bytes"},
                  {false, true, true, true, true, true, true, false, true});
  for (const pte::ArenaEntry &arena : input.arenas) {
    const PlannedEntry &e = arena.entry;
    int64_t tensors = 0;
    for (int64_t s : arena.storages)
      tensors += input.memories[arena.method].storages[s].members.size();
    table.add({"@" + e.entry, std::to_string(arena.memoryId),
               std::to_string(tensors), std::to_string(arena.storages.size()),
               std::to_string(e.plan.lowerBound), std::to_string(e.plan.heap),
               llvm::formatv("{0:F4}", heapRatio(e.plan.heap, e.plan.lowerBound)),
               unsound.count({arena.method, arena.memoryId})
                   ? std::string("unsound")
                   : yesNo(e.plan.optimal),
               std::to_string(arena.arenaBytes)});
  }
  table.print(os);
}

/// An entry's kernels, one row each, with the values each keeps inside.
void printKernels(const ManifestEntry &entry, llvm::raw_ostream &os) {
  const PlannedEntry &e = entry.planned;
  os << llvm::formatv("\n@{0} S={1} ({2}): ", e.entry, e.chunk,
                      entry.plannedFunction);
  if (e.kernels.empty()) {
    os << "no kernels\n";
    return;
  }
  os << kernelSummary(e);
  if (std::string source = kernelSourceText(e.kernelSource); !source.empty())
    os << " (" << source << ")";
  os << "\n";
  TextTable table({"kernel", "ops", "first op", "last op", "fused",
                   "fused bytes", "writes", "location"},
                  {true, true, false, false, true, true, false, false});
  for (const PlannedEntry::Kernel &k : e.kernels) {
    std::vector<std::string> writes;
    for (int64_t b : k.writes)
      writes.push_back(e.problem.buffers[b].id);
    table.add({std::to_string(k.id), std::to_string(k.ops), k.firstOp,
               k.lastOp, std::to_string(k.fused.size()),
               std::to_string(k.fusedBytes),
               writes.empty() ? "-" : llvm::join(writes, " "), k.location});
  }
  table.print(os);
}
} // namespace

int runInspect() {
  llvm::Expected<ReportInput> input = readReportInput(manifestPath);
  if (!input)
    return fail(InputError, input.takeError());
  const Manifest *manifest = &input->manifest;
  if (!binaryOut.empty()) {
    if (llvm::Error error =
            writeText(binaryOut, writeManifestBinary(*manifest)))
      return fail(InputError, std::move(error));
    return Success;
  }
  if (!svgOut.empty() || !htmlOut.empty())
    return writePictures(*input);
  if (asJson) {
    llvm::outs() << writeManifestJson(*manifest);
    return Success;
  }
  if (input->program) {
    printProgram(*input, llvm::outs());
  } else {
    printSummary(*manifest, llvm::outs());
    printEntries(*manifest, llvm::outs());
  }
  if (withBuffers)
    for (const ManifestEntry &entry : manifest->entries)
      printBuffers(entry, llvm::outs());
  if (withKernels)
    for (const ManifestEntry &entry : manifest->entries)
      printKernels(entry, llvm::outs());
  return Success;
}

} // namespace coreai::cli

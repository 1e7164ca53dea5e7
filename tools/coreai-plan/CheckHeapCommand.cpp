//===- CheckHeapCommand.cpp - coreai-plan check-heap ----------------------===//
//
// Replays a manifest's allocations against a heap of a given size, as the
// runtime would, and reports the first one that does not fit in the
// runtime's own words. Exit 2 when any entry overflows.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ReportInput.h"
#include "TextTable.h"

#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Options.h"
#include "coreai-plan/Manifest/RuntimeHeap.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

int runCheckHeap();
Command checkHeapCommand(
    "check-heap",
    "Replay a manifest's (or an ExecuTorch program's) allocations against a "
    "heap of N bytes",
    runCheckHeap);

namespace {
llvm::cl::opt<std::string>
    manifestOption("manifest",
                   llvm::cl::desc("The plan to replay (or give it as the "
                                  "argument)"),
                   llvm::cl::value_desc("plan.manifest|PROGRAM.pte"),
                   llvm::cl::sub(checkHeapCommand));
llvm::cl::opt<std::string>
    manifestArgument(llvm::cl::Positional,
                     llvm::cl::desc("[<plan.manifest|PROGRAM.pte>]"),
                     llvm::cl::sub(checkHeapCommand));
/// The one of the two given.
std::string manifestPath;
llvm::cl::opt<std::string> heapTotalOption(
    "heap-total", llvm::cl::Required,
    llvm::cl::desc("Size of the runtime's heap: N bytes (145920, 64MiB), "
                   "`bundle` (the "
                   "manifest's bundle heap) or ENTRY:S (the heap the "
                   "manifest records for that entry point at S, e.g. "
                   "main:1, the heap a runtime sized for decode would have)"),
    llvm::cl::value_desc("N|bundle|ENTRY:S"), llvm::cl::sub(checkHeapCommand));
int64_t heapTotal = 0;
llvm::cl::opt<std::string>
    entryFilter("entry", llvm::cl::desc("Replay only this entry point"),
                llvm::cl::value_desc("NAME"), llvm::cl::sub(checkHeapCommand));
llvm::cl::opt<int64_t>
    chunkFilter("chunk", llvm::cl::desc("Replay only this chunk size"),
                llvm::cl::value_desc("S"), llvm::cl::init(-1),
                llvm::cl::sub(checkHeapCommand));
llvm::cl::opt<std::string> replayOption(
    "replay",
    llvm::cl::desc("planned: the manifest's offsets (default) | naive: a "
                   "runtime without reuse (bump allocation) | first-fit: a "
                   "runtime that frees after the last use and reuses the "
                   "lowest hole that fits"),
    llvm::cl::init("planned"), llvm::cl::sub(checkHeapCommand));

bool selected(const PlannedEntry &e) {
  llvm::StringRef wanted = llvm::StringRef(entryFilter).ltrim('@');
  return (wanted.empty() || e.entry == wanted) &&
         (chunkFilter < 0 || e.chunk == chunkFilter);
}

llvm::Expected<int64_t> resolveHeapTotal(const Manifest &manifest,
                                         llvm::StringRef text) {
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad --heap-total '" + text + "': " + why);
  };
  if (text == "bundle")
    return manifest.bundleHeap;
  // A size in bytes, as `fit` takes it, unless it names an entry point.
  if (!text.contains(':'))
    return parseByteSize(text, "--heap-total");
  auto [name, chunkText] = text.ltrim('@').rsplit(':');
  int64_t chunk;
  if (chunkText.empty() || chunkText.getAsInteger(10, chunk))
    return bad("expected N bytes, `bundle` or ENTRY:S");
  for (const ManifestEntry &entry : manifest.entries)
    if (entry.planned.entry == name && entry.planned.chunk == chunk)
      return entry.planned.plan.heap;
  for (const ManifestParametric &p : manifest.parametric)
    if (p.entry == name && p.plan.contains(chunk))
      return p.plan.heapAt(chunk);
  return bad("the manifest has no entry @" + name +
             " at S=" + llvm::Twine(chunk));
}

/// The runtime's message, then what the manifest knows about the buffer.
/// A program's arena is no Metal heap and has no chunk size: its overflow
/// is told in the program's words.
void reportOverflow(const PlannedEntry &e, const HeapOverflow &overflow,
                    bool program, llvm::raw_ostream &os) {
  const BufferOrigin &origin = e.origins[overflow.buffer];
  const Buffer &b = e.problem.buffers[overflow.buffer];
  if (program) {
    os << llvm::formatv("arena {0}: tensor {1} at offset {2} + {3} bytes "
                        "exceeds an arena of {4} bytes\n  op {5}, live "
                        "[{6}, {7}) in instructions{8}\n",
                        e.entry, origin.value.empty() ? b.id : origin.value,
                        overflow.offset, overflow.size, heapTotal,
                        origin.op.empty() ? "?" : origin.op, b.start, b.end,
                        origin.location.empty() ? ""
                                                : ", at " + origin.location);
    return;
  }
  os << describeOverflow(overflow, heapTotal) << "\n";
  os << llvm::formatv("  entry point @{0}, chunk size S={1}, op {2}, value "
                      "{3} (buffer {4}, live [{5}, {6}){7})\n",
                      e.entry, e.chunk, origin.op.empty() ? "?" : origin.op,
                      origin.value.empty() ? "?" : origin.value, b.id, b.start,
                      b.end,
                      origin.location.empty() ? "" : ", at " + origin.location);
}
/// The manifest's entries, and with --chunk S the parametric plans
/// instantiated at S for entry points that have no entry at S. An S
/// outside every range (and listed nowhere) is an error.
llvm::Expected<std::vector<PlannedEntry>>
entriesToReplay(const Manifest &manifest) {
  std::vector<PlannedEntry> entries;
  for (const ManifestEntry &entry : manifest.entries)
    entries.push_back(entry.planned);
  if (chunkFilter < 0)
    return entries;
  llvm::StringRef wanted = llvm::StringRef(entryFilter).ltrim('@');
  std::map<std::string, std::string> ranges; // entry -> ranges, for errors
  std::set<std::string> covered;
  for (const PlannedEntry &e : entries)
    if (e.chunk == chunkFilter)
      covered.insert(e.entry);
  for (const ManifestParametric &p : manifest.parametric) {
    if (!wanted.empty() && p.entry != wanted)
      continue;
    std::string &text = ranges[p.entry];
    text += llvm::formatv("{0}[{1}, {2}]", text.empty() ? "" : " ",
                          p.plan.lo, p.plan.hi);
    if (covered.count(p.entry))
      continue;
    if (std::optional<PlannedEntry> at = instantiate(manifest, p, chunkFilter)) {
      covered.insert(p.entry);
      entries.push_back(std::move(*at));
    }
  }
  for (const auto &[entry, text] : ranges)
    if (!covered.count(entry))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("S={0} is outside the parametric plan of @{1} in "
                        "'{2}' (S in {3})",
                        chunkFilter.getValue(), entry, manifestPath,
                        text)
              .str());
  return entries;
}

} // namespace

int runCheckHeap() {
  auto mode = parseAllocationPolicy(replayOption);
  if (!mode)
    return fail(InputError, "unknown --replay '" + replayOption +
                                "' (planned, naive, first-fit)");
  if (manifestOption.empty() == manifestArgument.empty())
    return fail(InputError, "give the plan to replay once: --manifest FILE "
                            "or FILE (a manifest or an ExecuTorch program)");
  manifestPath = manifestOption.empty() ? manifestArgument : manifestOption;
  llvm::Expected<ReportInput> input = readReportInput(manifestPath);
  if (!input)
    return fail(InputError, input.takeError());
  const Manifest *manifest = &input->manifest;
  llvm::Expected<int64_t> total = resolveHeapTotal(*manifest, heapTotalOption);
  if (!total)
    return fail(InputError, total.takeError());
  heapTotal = *total;
  llvm::Expected<std::vector<PlannedEntry>> entries =
      entriesToReplay(*manifest);
  if (!entries)
    return fail(InputError, entries.takeError());

  bool program = input->program.has_value();
  if (program)
    llvm::outs() << llvm::formatv("replay {0} against an arena of {1}; the "
                                  "program's largest arena is {2}\n",
                                  allocationPolicyName(*mode),
                                  bytesWithMiB(heapTotal),
                                  bytesWithMiB(manifest->bundleHeap));
  else
    llvm::outs() << llvm::formatv("replay {0} against a heap of {1}; the "
                                  "manifest's bundle heap is {2}\n",
                                  allocationPolicyName(*mode),
                                  bytesWithMiB(heapTotal),
                                  bytesWithMiB(manifest->bundleHeap));
  TextTable table(program ? std::vector<std::string>{"arena", "needs",
                                                     "result"}
                          : std::vector<std::string>{"entry", "S", "needs",
                                                     "result"},
                  program ? std::vector<bool>{false, true, false}
                          : std::vector<bool>{false, true, true, false});
  int checked = 0, overflows = 0;
  for (const PlannedEntry &e : *entries) {
    if (!selected(e))
      continue;
    ++checked;
    RuntimeHeapResult result = simulateRuntimeHeap(e, *mode, heapTotal);
    if (result.overflow) {
      ++overflows;
      reportOverflow(e, *result.overflow, program, llvm::outs());
    }
    std::string verdict = result.overflow ? "OVERFLOW" : "fits";
    if (program)
      table.add({"@" + e.entry, std::to_string(result.heapUsed), verdict});
    else
      table.add({"@" + e.entry, std::to_string(e.chunk),
                 std::to_string(result.heapUsed), verdict});
  }
  if (checked == 0)
    return fail(InputError, "no entry in '" + manifestPath +
                                "' matches the --entry / --chunk given");
  llvm::outs() << "\n";
  table.print(llvm::outs());
  if (overflows) {
    llvm::outs() << llvm::formatv("{0} of {1} {2} overflow {3} of {4} "
                                  "bytes\n",
                                  overflows, checked,
                                  program ? "arenas" : "entries",
                                  program ? "an arena" : "a heap", heapTotal);
    return AnswerNo;
  }
  llvm::outs() << llvm::formatv("all {0} {1} fit in {2} bytes\n", checked,
                                program ? "arenas" : "entries", heapTotal);
  return Success;
}

} // namespace coreai::cli

//===- InspectCommand.cpp - coreai-plan inspect ---------------------------===//
//
// Prints a manifest (either encoding) as tables or JSON, and converts it
// to the binary encoding, so that the two can be compared byte for byte.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "TextTable.h"

#include "coreai-plan/Manifest.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

llvm::cl::SubCommand
    inspectCommand("inspect",
                   "Print a heap-size manifest (plan.manifest or plan.json)");

namespace {
llvm::cl::opt<std::string> manifestPath(llvm::cl::Positional,
                                        llvm::cl::Required,
                                        llvm::cl::desc("<plan.manifest>"),
                                        llvm::cl::sub(inspectCommand));
llvm::cl::opt<bool> asJson("json",
                           llvm::cl::desc("Print the manifest as JSON (the "
                                          "content of plan.json)"),
                           llvm::cl::sub(inspectCommand));
llvm::cl::opt<bool> withBuffers("buffers",
                                llvm::cl::desc("Also print every buffer of "
                                               "every entry"),
                                llvm::cl::sub(inspectCommand));
llvm::cl::opt<std::string>
    binaryOut("write-binary",
              llvm::cl::desc("Write the manifest in the FlatBuffers encoding"),
              llvm::cl::value_desc("OUT.manifest"),
              llvm::cl::sub(inspectCommand));

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
               llvm::formatv("{0:F4}", gap(e.plan.heap, e.plan.lowerBound)),
               yesNo(e.plan.optimal), e.plan.algorithm});
  }
  table.print(os);
}

void printBuffers(const ManifestEntry &entry, llvm::raw_ostream &os) {
  const PlannedEntry &e = entry.planned;
  os << llvm::formatv("\n@{0} S={1} ({2}): {3} buffers\n", e.entry, e.chunk,
                      entry.plannedFunction, e.problem.buffers.size());
  TextTable table({"id", "value", "op", "offset", "size", "start", "end",
                   "views", "location"},
                  {false, false, false, true, true, true, true, true, false});
  for (size_t i = 0; i < e.problem.buffers.size(); ++i) {
    const Buffer &b = e.problem.buffers[i];
    const BufferOrigin &o = e.origins[i];
    table.add({b.id, o.value, o.op, std::to_string(e.plan.offsets[i]),
               std::to_string(b.size), std::to_string(b.start),
               std::to_string(b.end), std::to_string(o.viewCount), o.location});
  }
  table.print(os);
}
} // namespace

int runInspect() {
  llvm::Expected<Manifest> manifest = readManifestFile(manifestPath);
  if (!manifest)
    return fail(InputError, manifest.takeError());
  if (!binaryOut.empty()) {
    std::string bytes = writeManifestBinary(*manifest);
    if (llvm::Error error =
            llvm::writeToOutput(binaryOut, [&](llvm::raw_ostream &os) {
              os << bytes;
              return llvm::Error::success();
            }))
      return fail(InputError, std::move(error));
    return Success;
  }
  if (asJson) {
    llvm::outs() << writeManifestJson(*manifest);
    return Success;
  }
  printSummary(*manifest, llvm::outs());
  printEntries(*manifest, llvm::outs());
  if (withBuffers)
    for (const ManifestEntry &entry : manifest->entries)
      printBuffers(entry, llvm::outs());
  return Success;
}

} // namespace coreai::cli

//===- ExplainCommand.cpp - coreai-plan explain ---------------------------===//
//
// Reads a manifest and says why each heap is as big as it is: the op at
// the peak, the buffers live there, their growth with S, fragmentation,
// and what fused kernels keep out of memory; for a parametric plan, its
// pieces and why the range is cut where it is.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ReportInput.h"

#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

int runExplain();
Command explainCommand("explain",
                       "Explain where each planned heap (or each arena of an "
                       "ExecuTorch program) peaks and how it grows with S",
                       runExplain);

namespace {
InputArgument manifestPath(explainCommand, "<plan.manifest|PROGRAM.pte>");
llvm::cl::list<std::string>
    entryFilter("entry", llvm::cl::desc("Only these entry points"),
                llvm::cl::sub(explainCommand));
llvm::cl::list<int64_t> chunkFilter("chunk",
                                    llvm::cl::desc("Only these chunk sizes"),
                                    llvm::cl::sub(explainCommand));

template <typename T>
bool accepts(const llvm::cl::list<T> &filter, const T &value) {
  return filter.empty() || llvm::is_contained(filter, value);
}
} // namespace

int runExplain() {
  llvm::Expected<ReportInput> input = readReportInput(manifestPath);
  if (!input)
    return fail(InputError, input.takeError());
  const Manifest *manifest = &input->manifest;
  std::vector<PlannedEntry> selected;
  for (const ManifestEntry &entry : manifest->entries)
    if (accepts(entryFilter, entry.planned.entry) &&
        accepts(chunkFilter, entry.planned.chunk))
      selected.push_back(entry.planned);
  std::vector<ParametricPiece> pieces;
  for (const ManifestParametric &p : manifest->parametric)
    if (accepts(entryFilter, p.entry) &&
        (chunkFilter.empty() ||
         llvm::any_of(chunkFilter,
                      [&](int64_t s) { return p.plan.contains(s); })))
      pieces.push_back({p.entry, &p.plan, p.symbol, p.cut});
  if (selected.empty() && pieces.empty())
    return fail(InputError, "no entry point in '" + manifestPath +
                                "' matches --entry/--chunk");
  llvm::outs() << explainPlans(selected);
  if (!pieces.empty())
    llvm::outs() << (selected.empty() ? "" : "\n") << explainPieces(pieces);
  return Success;
}

} // namespace coreai::cli

//===- Explain.cpp - Why the heap is as big as it is ----------------------===//
//
// Answers the questions asked when a heap overflows: which op is at the
// peak, which buffers are live there, which of them grow with S and by how
// much, how much of the heap is packing loss rather than live data, and
// what fused kernels keep out of memory (the peak op's kernel above all).
//
//===----------------------------------------------------------------------===//
#include "Format.h"
#include "coreai-plan/OutputBins.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

namespace coreai {
namespace {

using report::humanBytes;

constexpr size_t shownPeakBuffers = 12;
constexpr size_t shownKernelValues = 5;

const BufferOrigin *originOf(const PlannedEntry &entry, size_t index) {
  return index < entry.origins.size() ? &entry.origins[index] : nullptr;
}

std::string nameOf(const PlannedEntry &entry, size_t index) {
  const BufferOrigin *origin = originOf(entry, index);
  return origin && !origin->value.empty() ? origin->value
                                          : entry.problem.buffers[index].id;
}

/// The op at the peak is the producer of a buffer born there (its index
/// is returned): the live bytes can only reach a maximum where a buffer
/// starts.
std::optional<size_t> bufferBornAtPeak(const PlannedEntry &entry,
                                       const Peak &peak) {
  for (size_t index : peak.buffers)
    if (entry.problem.buffers[index].start == peak.time)
      return index;
  return std::nullopt;
}

/// What the kernels keep out of memory, and where they came from.
void explainFusion(llvm::raw_ostream &os, const PlannedEntry &entry) {
  if (entry.kernels.empty())
    return;
  std::string source = kernelSourceText(entry.kernelSource);
  os << "  fused: " << kernelSummary(entry);
  if (!source.empty())
    os << " (" << source << ")";
  os << "\n";
}

/// The kernel the peak op is in (the one writing the buffer born at the
/// peak): its ops, and the values it keeps inside, largest first.
void explainPeakKernel(llvm::raw_ostream &os, const PlannedEntry &entry,
                       std::optional<size_t> born) {
  if (entry.kernels.empty() || !born)
    return;
  const PlannedEntry::Kernel *kernel = kernelWriting(entry, *born);
  if (!kernel) {
    os << "  the peak op is in no kernel\n";
    return;
  }
  os << llvm::formatv("  the peak op is in kernel {0}: {1} op{2}, {3} .. {4} "
                      "(at {5}), keeping {6} value{7} ({8} bytes) inside\n",
                      kernel->id, kernel->ops, kernel->ops == 1 ? "" : "s",
                      kernel->firstOp, kernel->lastOp, kernel->location,
                      kernel->fused.size(),
                      kernel->fused.size() == 1 ? "" : "s",
                      kernel->fusedBytes);
  std::vector<size_t> values(kernel->fused.size());
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = i;
  auto sizeOf = [&](size_t i) {
    return i < kernel->fusedSizes.size() ? kernel->fusedSizes[i] : 0;
  };
  std::stable_sort(values.begin(), values.end(), [&](size_t a, size_t b) {
    return sizeOf(a) > sizeOf(b);
  });
  for (size_t i = 0; i < std::min(values.size(), shownKernelValues); ++i) {
    const BufferOrigin &value = kernel->fused[values[i]];
    os << llvm::formatv("    {0,12}  {1,-10} {2,-34} {3}\n", sizeOf(values[i]),
                        value.value, value.op, value.location);
  }
  if (values.size() > shownKernelValues)
    os << llvm::formatv("    ... and {0} smaller values\n",
                        values.size() - shownKernelValues);
}

/// The kernels' workspaces, apart from the values: how many, their bytes,
/// how much of the peak they are, the largest (docs/WORKSPACE.md).
void explainWorkspace(llvm::raw_ostream &os, const PlannedEntry &entry,
                      const Peak &peak) {
  if (entry.workspaces.empty())
    return;
  int64_t atPeak = 0, lent = 0;
  for (size_t index : peak.buffers)
    if (entry.isWorkspace(index))
      atPeak += entry.problem.buffers[index].size;
  std::optional<size_t> largest;
  for (int64_t b : entry.workspaces) {
    if (entry.borrowedOutput(b) >= 0)
      ++lent;
    if (!largest ||
        entry.problem.buffers[b].size > entry.problem.buffers[*largest].size)
      largest = b;
  }
  os << llvm::formatv("  workspace: kernel scratch at {0} step{1} ({2} "
                      "bytes over time, {3} in lent outputs), {4} bytes of it "
                      "live at the peak; the largest {5} bytes for {6} at "
                      "{7}\n",
                      entry.workspaces.size(),
                      entry.workspaces.size() == 1 ? "" : "s",
                      entry.workspaceBytes(), lent, atPeak,
                      entry.problem.buffers[*largest].size,
                      entry.origins[*largest].op,
                      entry.origins[*largest].location);
}

/// The kernel variants (docs/WORKSPACE.md, "Kernel variants"): how many
/// ops had a choice, which run slower than the target's cheapest so that
/// the heap stays as small as the least workspace allows, what that saved.
void explainVariants(llvm::raw_ostream &os, const PlannedEntry &entry) {
  if (entry.variants.empty())
    return;
  PlannedEntry::Downgrades downgrades = entry.downgrades();
  os << llvm::formatv("  kernel variants: {0} op{1} with a choice; {2} run "
                      "slower than the cheapest (model cost +{3:F2}), saving "
                      "{4} bytes of workspace at their steps\n",
                      entry.variants.size(),
                      entry.variants.size() == 1 ? "" : "s", downgrades.ops,
                      downgrades.extraCost, downgrades.savedBytes);
  size_t shown = 0;
  for (const PlannedEntry::VariantChoice &choice : entry.variants)
    if (choice.downgraded() && shown++ < shownPeakBuffers)
      os << llvm::formatv("    {0} at {1}: {2} ({3} bytes) instead of {4} "
                          "({5} bytes)\n",
                          choice.op.op, choice.op.location, choice.variant,
                          choice.bytes, choice.cheapest, choice.cheapestBytes);
  if (shown > shownPeakBuffers)
    os << llvm::formatv("    ... and {0} more\n", shown - shownPeakBuffers);
}

/// Where the target's kernels write another dtype than the graph says
/// (docs/WORKSPACE.md, "Result dtypes"): per op kind, the results and the
/// bytes sizing them by the kernel's dtype adds.
void explainKernelDtypes(llvm::raw_ostream &os, const PlannedEntry &entry) {
  if (entry.kernelDtypes.empty())
    return;
  int64_t results = 0, bytes = 0;
  for (const PlannedEntry::KernelDtype &dtype : entry.kernelDtypes) {
    results += dtype.results;
    bytes += dtype.extraBytes;
  }
  os << llvm::formatv("  result dtypes: the target's kernels write {0} "
                      "result{1} in another dtype than the graph says, "
                      "sized as written (+{2} bytes over their values)\n",
                      results, results == 1 ? "" : "s", bytes);
  for (const PlannedEntry::KernelDtype &dtype : entry.kernelDtypes)
    os << llvm::formatv("    {0}: {1} result{2} {3} -> {4} (+{5} bytes)\n",
                        dtype.op, dtype.results,
                        dtype.results == 1 ? "" : "s", dtype.graphDtype,
                        dtype.kernelDtype, dtype.extraBytes);
}

/// Why a plan above its bound carries no proof: the search ran out of
/// time, or no search ran (a file's recorded offsets, e.g. an ExecuTorch
/// program's own plan, or a baseline algorithm).
std::string whyUnproven(const PlannedEntry &entry) {
  const std::string &algorithm = entry.plan.algorithm;
  if (algorithm == "recorded")
    return "these are the offsets the file records, and no search ran on "
           "them (`coreai-plan plan` re-plans)";
  bool searched =
      algorithm.empty() || algorithm == "best" || algorithm == "parametric";
  if (!searched)
    return "planned by '" + algorithm + "', which searches for no proof";
  return entry.outputBins.empty()
             ? "the exact search stopped at its time limit"
             : "the exact search over the heap and the lent outputs together "
               "stopped at its time limit";
}

/// Which lower bound the plan was measured against, what it bounds, and
/// why the heap is or is not proven minimal (docs/SOLVERS.md, "Bounds").
void explainBound(llvm::raw_ostream &os, const PlannedEntry &entry) {
  const Plan &plan = entry.plan;
  if (entry.outputBins.empty())
    os << "  bound: the peak of live bytes (each buffer padded to the "
          "alignment), for the op order the plan uses\n";
  else
    os << llvm::formatv(
        "  bound: the live bytes the lent outputs cannot hold as whole "
        "buffers (a subset-sum per output), for the op order the plan "
        "uses; {0} bytes if buffers could be split\n",
        splittableBorrowingLowerBound(entry.problem, entry.outputBins));
  int64_t gap = plan.heap - plan.lowerBound;
  if (gap <= 0)
    os << "  proven minimal: the heap meets the bound\n";
  else if (plan.optimal)
    os << llvm::formatv("  proven minimal by the exact search: the bound is "
                        "{0} bytes below, not tight here\n",
                        gap);
  else
    os << llvm::formatv("  not proven minimal: {0} bytes ({1:F2}%) above the "
                        "bound; {2} (the packing may waste up to that, or "
                        "the bound is weak)\n",
                        gap, plan.heap ? 100.0 * double(gap) / plan.heap : 0.0,
                        whyUnproven(entry));
}

void explainEntry(llvm::raw_ostream &os, const PlannedEntry &entry) {
  const Plan &plan = entry.plan;
  int64_t loss = plan.heap - plan.lowerBound;
  // S = 0: a graph without a chunk size, or a program's arena; no S to name.
  std::string at =
      entry.chunk > 0 ? llvm::formatv(" at S={0}", entry.chunk).str() : "";
  os << llvm::formatv("@{0}{1}: heap {2} bytes ({3}), lower bound {4} "
                      "bytes, {5} buffers\n",
                      entry.entry, at, plan.heap,
                      humanBytes(plan.heap), plan.lowerBound,
                      entry.problem.buffers.size());
  os << llvm::formatv("  gap to the bound: {0} bytes ({1:F2}% of the heap)\n",
                      loss, plan.heap ? 100.0 * double(loss) / plan.heap : 0.0);
  explainBound(os, entry);
  PlannedBytes planned = plannedBytesOf(entry);
  if (planned.total != planned.heap)
    os << llvm::formatv("  planned bytes: heap {0} + borrowed in outputs {1} "
                        "+ states written in place {2} = {3} ({4})\n",
                        planned.heap, planned.lent, planned.state,
                        planned.total, humanBytes(planned.total));
  for (size_t k = 0; k < entry.outputBins.size(); ++k) {
    int64_t count = 0, bytes = 0;
    for (size_t b = 0; b < entry.binOf.size(); ++b)
      if (entry.binOf[b] == int32_t(k)) {
        ++count;
        bytes += entry.problem.buffers[b].size;
      }
    const OutputBin &bin = entry.outputBins[k];
    if (count == 0)
      continue; // an output lent but too small or too early to use
    os << llvm::formatv("  borrowed: {0} buffers ({1} bytes over time) in "
                        "output {2} ({3} bytes) before op {4} writes it\n",
                        count, bytes, bin.output, bin.capacity,
                        bin.availableUntil);
  }
  Peak peak = findPeak(entry.problem, &entry.binOf);
  std::optional<size_t> born = bufferBornAtPeak(entry, peak);
  const BufferOrigin *peakOp = born ? originOf(entry, *born) : nullptr;
  os << llvm::formatv("  peak at op {0}", peak.time);
  if (peakOp)
    os << " (" << peakOp->op
       << (peakOp->location.empty() ? "" : ", " + peakOp->location) << ")";
  os << llvm::formatv(": {0} bytes live in {1} buffers\n", peak.liveBytes,
                      peak.buffers.size());
  os << llvm::formatv("    {0,12} {1,7}  {2,-10} {3,-34} {4}\n", "bytes",
                      "share", "value", "op", "live");
  for (size_t i = 0; i < std::min(peak.buffers.size(), shownPeakBuffers);
       ++i) {
    size_t index = peak.buffers[i];
    const Buffer &b = entry.problem.buffers[index];
    const BufferOrigin *origin = originOf(entry, index);
    os << llvm::formatv("    {0,12} {1,6:F1}%  {2,-10} {3,-34} [{4}, {5})\n",
                        b.size,
                        peak.liveBytes ? 100.0 * b.size / peak.liveBytes : 0.0,
                        nameOf(entry, index), origin ? origin->op : "",
                        b.start, b.end);
  }
  if (peak.buffers.size() > shownPeakBuffers)
    os << llvm::formatv("    ... and {0} smaller buffers\n",
                        peak.buffers.size() - shownPeakBuffers);
  // What the pictures list under their peak line.
  std::vector<Region> regions = regionsOf(entry);
  if (regions.size() > 1) {
    os << llvm::formatv("  live at op {0} in every region:\n", peak.time);
    for (const std::string &line : describeLiveAt(entry, regions, peak.time))
      os << "    " << line << "\n";
  }
  explainWorkspace(os, entry, peak);
  explainVariants(os, entry);
  explainKernelDtypes(os, entry);
  if (entry.recomputed.chains > 0)
    os << llvm::formatv("  recompute: {0} chain{1} computed again in front "
                        "of each reader instead of kept ({2} ops cloned, "
                        "{3} elements of extra work)\n",
                        entry.recomputed.chains,
                        entry.recomputed.chains == 1 ? "" : "s",
                        entry.recomputed.ops, entry.recomputed.elements);
  explainFusion(os, entry);
  explainPeakKernel(os, entry, born);
}

/// For one entry point planned at several S: how the heap and the buffers
/// live at the largest S's peak scale from the smallest S.
void explainGrowth(llvm::raw_ostream &os,
                   llvm::ArrayRef<const PlannedEntry *> bySize) {
  const PlannedEntry &small = *bySize.front(), &large = *bySize.back();
  os << llvm::formatv("@{0} growth with S:", large.entry);
  for (const PlannedEntry *e : bySize)
    os << llvm::formatv(" S={0}: {1}", e->chunk, e->plan.heap);
  os << llvm::formatv("  (x{0:F2} from S={1} to S={2})\n",
                      small.plan.heap
                          ? double(large.plan.heap) / small.plan.heap
                          : 0.0,
                      small.chunk, large.chunk);
  llvm::StringMap<int64_t> smallSize;
  for (size_t i = 0; i < small.problem.buffers.size(); ++i)
    smallSize[nameOf(small, i)] = small.problem.buffers[i].size;
  Peak peak = findPeak(large.problem, &large.binOf);
  size_t scaling = 0;
  for (size_t index : peak.buffers) {
    auto it = smallSize.find(nameOf(large, index));
    if (it == smallSize.end() ||
        it->second == large.problem.buffers[index].size)
      continue;
    if (scaling++ < shownPeakBuffers)
      os << llvm::formatv("    {0,-10} {1,-34} {2} -> {3} bytes (x{4:F1})\n",
                          nameOf(large, index),
                          originOf(large, index) ? originOf(large, index)->op
                                                 : "",
                          it->second, large.problem.buffers[index].size,
                          double(large.problem.buffers[index].size) /
                              it->second);
  }
  os << llvm::formatv("  {0} of the {1} buffers live at the S={2} peak "
                      "scale with S\n",
                      scaling, peak.buffers.size(), large.chunk);
  bool beyondHeap = false;
  for (const PlannedEntry *e : bySize)
    beyondHeap |= plannedBytesOf(*e).total != e->plan.heap;
  if (!beyondHeap)
    return;
  os << "  planned bytes (heap + borrowed + states) with S:";
  for (const PlannedEntry *e : bySize)
    os << llvm::formatv(" S={0}: {1}", e->chunk, plannedBytesOf(*e).total);
  os << "\n";
}

} // namespace

std::string explainPlans(llvm::ArrayRef<PlannedEntry> entries) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::MapVector<llvm::StringRef, std::vector<const PlannedEntry *>> groups;
  for (const PlannedEntry &entry : entries) {
    explainEntry(os, entry);
    groups[entry.entry].push_back(&entry);
  }
  for (auto &[name, group] : groups) {
    if (group.size() < 2)
      continue;
    std::stable_sort(group.begin(), group.end(),
                     [](const PlannedEntry *a, const PlannedEntry *b) {
                       return a->chunk < b->chunk;
                     });
    explainGrowth(os, group);
  }
  return text;
}

std::string explainPieces(llvm::ArrayRef<ParametricPiece> pieces) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::MapVector<llvm::StringRef, std::vector<const ParametricPiece *>> byEntry;
  for (const ParametricPiece &piece : pieces)
    byEntry[piece.entry].push_back(&piece);
  for (auto &[entry, own] : byEntry) {
    std::stable_sort(own.begin(), own.end(),
                     [](const ParametricPiece *a, const ParametricPiece *b) {
                       return a->plan->lo < b->plan->lo;
                     });
    os << llvm::formatv("@{0}: one plan for every {1} in [{2}, {3}] in {4} "
                        "piece{5}\n",
                        entry, own.front()->symbol, own.front()->plan->lo,
                        own.back()->plan->hi, own.size(),
                        own.size() == 1 ? "" : "s");
    for (const ParametricPiece *piece : own) {
      const ParametricPlan &plan = *piece->plan;
      os << llvm::formatv("  [{0}, {1}]: heap {2} bytes at {0}, {3} at {1}\n",
                          plan.lo, plan.hi, plan.heapAt(plan.lo),
                          plan.heapAt(plan.hi));
      if (!piece->cut.empty())
        os << llvm::formatv("    cut below {0}={1}: {2}\n", piece->symbol,
                            plan.lo, piece->cut);
    }
  }
  return text;
}

} // namespace coreai

//===- Manifest.cpp - Encoding-independent parts of the manifest ----------===//
#include "ManifestCheck.h"

#include "coreai-plan/Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <set>

namespace coreai {

int64_t bundleHeapOf(const std::vector<ManifestEntry> &entries) {
  int64_t heap = 0;
  for (const ManifestEntry &entry : entries)
    heap = std::max(heap, entry.planned.plan.heap);
  return heap;
}

int64_t maxHeapOf(const ParametricPlan &plan) {
  int64_t heap = 0;
  for (int64_t s = plan.lo; s <= plan.hi; ++s)
    heap = std::max(heap, plan.heapAt(s));
  return heap;
}

int64_t bundleHeapOf(const Manifest &manifest) {
  int64_t heap = bundleHeapOf(manifest.entries);
  for (const ManifestParametric &p : manifest.parametric)
    heap = std::max(heap, maxHeapOf(p.plan));
  return heap;
}

std::optional<PlannedEntry> instantiate(const Manifest &manifest,
                                        const ManifestParametric &parametric,
                                        int64_t s) {
  if (!parametric.plan.contains(s))
    return std::nullopt;
  PlannedEntry entry;
  entry.entry = parametric.entry;
  entry.chunk = s;
  entry.alignment = parametric.alignment;
  entry.problem = parametric.plan.problemAt(s);
  entry.plan.offsets = parametric.plan.offsetsAt(s);
  entry.plan.heap = parametric.plan.heapAt(s);
  entry.outputBins = parametric.plan.binsAt(s);
  entry.binOf = parametric.plan.binOf();
  entry.plan.lowerBound =
      borrowingLowerBound(entry.problem, entry.outputBins);
  entry.plan.algorithm = "parametric";
  entry.origins.assign(entry.problem.buffers.size(), BufferOrigin());
  for (size_t b = 0; b < parametric.plan.buffers.size(); ++b)
    if (parametric.plan.buffers[b].workspace)
      entry.workspaces.push_back(b);
  // Names from an instance of the same piece, else from an entry whose
  // buffers live as the piece's do (pieces may have op orders of their
  // own, and buffer ids follow the order).
  auto sameBuffers = [&](const PlannedEntry &other) {
    const auto &a = other.problem.buffers, &b = entry.problem.buffers;
    if (other.entry != parametric.entry || a.size() != b.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].id != b[i].id || a[i].start != b[i].start ||
          a[i].end != b[i].end)
        return false;
    return true;
  };
  const ManifestEntry *named = nullptr;
  for (const ManifestEntry &other : manifest.entries)
    if (sameBuffers(other.planned) &&
        (!named || (parametric.plan.contains(other.planned.chunk) &&
                    !parametric.plan.contains(named->planned.chunk))))
      named = &other;
  if (named)
    entry.origins = named->planned.origins;
  return entry;
}

std::string sha256Hex(llvm::StringRef bytes) {
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

llvm::Expected<Manifest> readManifest(llvm::StringRef bytes,
                                      llvm::StringRef source) {
  if (bytes.ltrim().starts_with("{"))
    return readManifestJson(bytes, source);
  return readManifestBinary(bytes, source);
}

llvm::Expected<Manifest> readManifestFile(llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError(file.getError(), "cannot read '%s': %s",
                                   path.str().c_str(),
                                   file.getError().message().c_str());
  return readManifest((*file)->getBuffer(), path);
}

namespace detail {

llvm::Error versionMismatch(llvm::StringRef source, uint64_t version) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("{0}: manifest format version {1} is not supported (this "
                    "coreai-plan reads version {2}); re-run `coreai-plan "
                    "plan` with this version",
                    source, version, kManifestFormatVersion)
          .str());
}

static llvm::Error invalid(llvm::StringRef source, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 source + ": invalid manifest: " + what);
}

llvm::Error assignParametricRegions(ManifestParametric &p,
                                    const std::vector<RecordedRegion> &regions,
                                    llvm::StringRef source) {
  std::string where = "parametric plan of '" + p.entry + "'";
  for (size_t i = 0; i < regions.size() && i < p.plan.buffers.size(); ++i) {
    const RecordedRegion &region = regions[i];
    ParametricBuffer &b = p.plan.buffers[i];
    b.bin = -1;
    if (region.kind == 0)
      continue;
    if (region.kind != 1)
      return invalid(source, where + ": buffer '" + b.id +
                                 "' is planned in a state argument; only "
                                 "outputs are borrowed");
    for (size_t k = 0; k < p.plan.bins.size(); ++k)
      if (p.plan.bins[k].output == region.index)
        b.bin = int32_t(k);
    if (b.bin < 0)
      return invalid(source, llvm::formatv("{0}: buffer '{1}' is in output "
                                           "{2}, which is not borrowed",
                                           where, b.id, region.index)
                                 .str());
  }
  return llvm::Error::success();
}

/// Bytes and times above 2^53 are rejected: beyond it JSON readers that use
/// doubles lose precision, and the replay's arithmetic stays far from
/// overflow.
static bool inRange(int64_t value) {
  return value >= 0 && value <= (int64_t(1) << 53);
}

llvm::Error assignRegions(PlannedEntry &e,
                          const std::vector<RecordedRegion> &regions,
                          llvm::StringRef source) {
  std::string where = llvm::formatv("entry '{0}' S={1}", e.entry, e.chunk);
  e.binOf.clear();
  bool anyBorrowed = false;
  for (const RecordedRegion &region : regions)
    anyBorrowed |= region.kind != 0;
  if (!anyBorrowed)
    return llvm::Error::success();
  e.binOf.assign(regions.size(), -1);
  for (size_t i = 0; i < regions.size(); ++i) {
    const RecordedRegion &region = regions[i];
    if (region.kind == 0)
      continue;
    const std::string &id = e.problem.buffers[i].id;
    if (region.kind != 1)
      return invalid(source, where + ": buffer '" + id +
                                 "' is planned in a state argument; only "
                                 "outputs are borrowed");
    for (size_t k = 0; k < e.outputBins.size(); ++k)
      if (e.outputBins[k].output == region.index)
        e.binOf[i] = int32_t(k);
    if (e.binOf[i] < 0)
      return invalid(source, llvm::formatv("{0}: buffer '{1}' is in output "
                                           "{2}, which is not borrowed",
                                           where, id, region.index)
                                 .str());
  }
  return llvm::Error::success();
}

/// Kernels are reported, not bound, but a reader still trusts no number it
/// did not check: sizes in range and summing to the kernel's fused bytes,
/// writes naming buffers of the entry, ids unique, a known source.
static llvm::Error checkKernels(const PlannedEntry &e, llvm::StringRef where,
                                llvm::StringRef source) {
  if (!e.kernelSource.empty() && e.kernelSource != "input" &&
      e.kernelSource != "target")
    return invalid(source, llvm::formatv("{0}: kernel source '{1}' is not "
                                         "input or target",
                                         where, e.kernelSource)
                               .str());
  std::set<int64_t> ids;
  for (const PlannedEntry::Kernel &k : e.kernels) {
    std::string kernel = llvm::formatv("{0}: kernel {1}", where, k.id);
    if (!inRange(k.id) || !inRange(k.ops) || k.ops < 1 ||
        !inRange(k.fusedBytes) || k.fusedSizes.size() != k.fused.size())
      return invalid(source, kernel + ": id, ops or fused bytes out of range");
    if (!ids.insert(k.id).second)
      return invalid(source, kernel + ": the id is used twice");
    int64_t sum = 0;
    for (int64_t size : k.fusedSizes) {
      sum += inRange(size) ? size : 0; // both at most 2^53: no overflow
      if (!inRange(size) || !inRange(sum))
        return invalid(source, kernel + ": a fused value's size is out of "
                                        "range");
    }
    if (sum != k.fusedBytes)
      return invalid(source, llvm::formatv("{0}: fused bytes {1} are not the "
                                           "sum {2} of its values' sizes",
                                           kernel, k.fusedBytes, sum)
                                 .str());
    for (int64_t b : k.writes)
      if (b < 0 || size_t(b) >= e.problem.buffers.size())
        return invalid(source, llvm::formatv("{0}: writes buffer {1} of {2}",
                                             kernel, b,
                                             e.problem.buffers.size())
                                   .str());
  }
  return llvm::Error::success();
}

static llvm::Error checkEntry(const PlannedEntry &e, llvm::StringRef source) {
  std::string where = llvm::formatv("entry '{0}' S={1}", e.entry, e.chunk);
  if (e.entry.empty())
    return invalid(source, "an entry has no name");
  if (!inRange(e.chunk) || !inRange(e.plan.heap) ||
      !inRange(e.plan.lowerBound) || !inRange(e.inPlaceSavedBytes))
    return invalid(source, where + ": chunk, heap or lower bound out of "
                                   "range");
  if (!isValidAlignment(e.alignment) || !inRange(e.alignment))
    return invalid(source, where + ": alignment is not a power of two");
  for (size_t i = 0; i < e.problem.buffers.size(); ++i) {
    const Buffer &b = e.problem.buffers[i];
    int64_t offset = e.plan.offsets[i];
    if (!inRange(b.size) || !inRange(offset) || !inRange(b.start) ||
        !inRange(b.end) || b.end < b.start || !isValidAlignment(b.alignment) ||
        !inRange(b.alignment) || !inRange(e.origins[i].viewCount))
      return invalid(source,
                     llvm::formatv("{0}: buffer '{1}': offset {2} size {3} "
                                   "alignment {4} interval [{5}, {6})",
                                   where, b.id, offset, b.size, b.alignment,
                                   b.start, b.end)
                         .str());
  }
  for (const OutputBin &bin : e.outputBins)
    if (!inRange(bin.output) || !inRange(bin.capacity) ||
        !inRange(bin.availableUntil))
      return invalid(source, where + ": a borrowed output is out of range");
  for (const PlannedEntry::Placed &placed : e.placed)
    if (!inRange(placed.size) || !inRange(placed.index) ||
        !inRange(placed.start) || !inRange(placed.end) ||
        placed.end < placed.start)
      return invalid(source, where + ": a placed value is out of range");
  if (llvm::Error error = checkKernels(e, where, source))
    return error;
  // Each region's packing is checked as a plan of its own: no two buffers
  // live together share a byte, and borrowed ones end in time.
  if (!e.binOf.empty())
    if (llvm::Error violation =
            verifyBorrowedPlan(e.problem, e.outputBins, e.binOf, e.plan))
      return invalid(source,
                     where + ": " + llvm::toString(std::move(violation)));
  return llvm::Error::success();
}

/// JSON text must be UTF-8; a binary manifest could carry any bytes, which
/// the JSON encoding could then not reproduce.
static llvm::Error checkStrings(const Manifest &m, llvm::StringRef source) {
  std::vector<const std::string *> strings = {&m.toolVersion, &m.target.name};
  for (const ManifestInput &input : m.inputs)
    strings.insert(strings.end(), {&input.file, &input.sha256});
  for (const ManifestEntry &entry : m.entries) {
    const PlannedEntry &e = entry.planned;
    strings.insert(strings.end(), {&e.entry, &e.plan.algorithm,
                                   &entry.plannedFunction, &entry.plannedFile});
    for (const Buffer &b : e.problem.buffers)
      strings.push_back(&b.id);
    for (const BufferOrigin &o : e.origins)
      strings.insert(strings.end(), {&o.value, &o.op, &o.location});
    for (const PlannedEntry::Placed &p : e.placed)
      strings.insert(strings.end(),
                     {&p.origin.value, &p.origin.op, &p.origin.location});
    strings.push_back(&e.kernelSource);
    for (const PlannedEntry::Kernel &k : e.kernels) {
      strings.insert(strings.end(), {&k.firstOp, &k.lastOp, &k.location});
      for (const BufferOrigin &o : k.fused)
        strings.insert(strings.end(), {&o.value, &o.op, &o.location});
    }
  }
  for (const std::string *s : strings)
    if (!llvm::json::isUTF8(*s))
      return invalid(source, "a string is not valid UTF-8");
  return llvm::Error::success();
}

llvm::Error checkManifest(const Manifest &manifest, llvm::StringRef source) {
  if (llvm::Error error = checkStrings(manifest, source))
    return error;
  if (!isValidAlignment(manifest.target.alignment) ||
      !inRange(manifest.target.alignment) ||
      !inRange(manifest.target.heapLimit))
    return invalid(source, "target alignment or heap limit out of range");
  for (const ManifestEntry &entry : manifest.entries) {
    if (llvm::Error error = checkEntry(entry.planned, source))
      return error;
    if (entry.input >= manifest.inputs.size())
      return invalid(source,
                     llvm::formatv("entry '{0}' S={1}: input {2} "
                                   "of {3}",
                                   entry.planned.entry, entry.planned.chunk,
                                   entry.input, manifest.inputs.size())
                         .str());
  }
  for (const ManifestParametric &p : manifest.parametric) {
    std::string where = "parametric plan of '" + p.entry + "'";
    if (p.entry.empty() || !llvm::json::isUTF8(p.entry) ||
        !llvm::json::isUTF8(p.symbol) ||
        llvm::any_of(p.plan.buffers, [](const ParametricBuffer &b) {
          return !llvm::json::isUTF8(b.id);
        }))
      return invalid(source, "a parametric plan has no name or a string "
                             "that is not valid UTF-8");
    if (p.input >= manifest.inputs.size() || !isValidAlignment(p.alignment) ||
        !inRange(p.alignment) || !inRange(p.plan.lo) || p.plan.lo < 1)
      return invalid(source, where + ": input, alignment or range out of "
                                     "range");
    // A reader trusts no offset it did not check: every S of the range.
    if (llvm::Error violation = verifyParametricPlan(p.plan))
      return invalid(source,
                     where + ": " + llvm::toString(std::move(violation)));
  }
  for (size_t i = 0; i < manifest.parametric.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      const ManifestParametric &a = manifest.parametric[i],
                               &b = manifest.parametric[j];
      if (a.entry == b.entry && a.plan.lo <= b.plan.hi &&
          b.plan.lo <= a.plan.hi)
        return invalid(source, "two parametric plans of '" + a.entry +
                                   "' cover the same S");
    }
  int64_t expected = bundleHeapOf(manifest);
  if (manifest.bundleHeap != expected)
    return invalid(source, llvm::formatv("bundle heap {0} is not the largest "
                                         "entry heap {1}",
                                         manifest.bundleHeap, expected)
                               .str());
  return llvm::Error::success();
}

} // namespace detail
} // namespace coreai

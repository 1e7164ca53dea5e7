//===- ManifestBinary.cpp - FlatBuffers encoding of the manifest ----------===//
#include "ManifestCheck.h"

#include "coreai-plan/Manifest/plan_manifest_generated.h"

#include "llvm/Support/FormatVariadic.h"

namespace coreai {
namespace {

/// The entry's kernels; empty (no field written) when it has none.
std::vector<flatbuffers::Offset<fb::Kernel>>
writeKernels(flatbuffers::FlatBufferBuilder &fbb, const PlannedEntry &e) {
  std::vector<flatbuffers::Offset<fb::Kernel>> kernels;
  for (const PlannedEntry::Kernel &k : e.kernels) {
    std::vector<flatbuffers::Offset<fb::FusedValue>> fused;
    for (size_t i = 0; i < k.fused.size(); ++i)
      fused.push_back(fb::CreateFusedValueDirect(
          fbb, k.fused[i].value.c_str(), k.fused[i].op.c_str(),
          k.fused[i].location.c_str(),
          i < k.fusedSizes.size() ? k.fusedSizes[i] : 0));
    std::vector<uint32_t> writes(k.writes.begin(), k.writes.end());
    kernels.push_back(fb::CreateKernelDirect(
        fbb, k.id, k.ops, k.firstOp.c_str(), k.lastOp.c_str(),
        k.location.c_str(), &fused, k.fusedBytes, &writes));
  }
  return kernels;
}

/// The entry's variant choices; empty (no field written) when it has none.
std::vector<flatbuffers::Offset<fb::VariantChoice>>
writeVariants(flatbuffers::FlatBufferBuilder &fbb, const PlannedEntry &e) {
  std::vector<flatbuffers::Offset<fb::VariantChoice>> variants;
  for (const PlannedEntry::VariantChoice &v : e.variants)
    variants.push_back(fb::CreateVariantChoiceDirect(
        fbb, v.op.op.c_str(), v.op.location.c_str(), v.variant.c_str(),
        v.bytes, v.cost, v.cheapest.c_str(), v.cheapestBytes,
        v.cheapestCost));
  return variants;
}

/// The entry's result dtypes; empty (no field written) when it has none.
std::vector<flatbuffers::Offset<fb::KernelDtype>>
writeKernelDtypes(flatbuffers::FlatBufferBuilder &fbb, const PlannedEntry &e) {
  std::vector<flatbuffers::Offset<fb::KernelDtype>> dtypes;
  for (const PlannedEntry::KernelDtype &d : e.kernelDtypes)
    dtypes.push_back(fb::CreateKernelDtypeDirect(
        fbb, d.op.c_str(), d.graphDtype.c_str(), d.kernelDtype.c_str(),
        d.results, d.extraBytes));
  return dtypes;
}

flatbuffers::Offset<fb::Entry> writeEntry(flatbuffers::FlatBufferBuilder &fbb,
                                          const ManifestEntry &entry) {
  const PlannedEntry &e = entry.planned;
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers;
  buffers.reserve(e.problem.buffers.size());
  for (size_t i = 0; i < e.problem.buffers.size(); ++i) {
    const Buffer &b = e.problem.buffers[i];
    const BufferOrigin &origin = e.origins[i];
    int64_t output = e.borrowedOutput(i);
    buffers.push_back(fb::CreateBufferDirect(
        fbb, b.id.c_str(), origin.value.c_str(), origin.op.c_str(),
        origin.location.c_str(), e.plan.offsets[i], b.size, b.alignment,
        b.start, b.end, origin.viewCount,
        output < 0 ? fb::Region::Heap : fb::Region::Output,
        output < 0 ? 0 : output, e.isWorkspace(i)));
  }
  std::vector<flatbuffers::Offset<fb::BorrowedOutput>> borrowed;
  for (const OutputBin &bin : e.outputBins)
    borrowed.push_back(fb::CreateBorrowedOutput(fbb, bin.output, bin.capacity,
                                                bin.availableUntil));
  std::vector<flatbuffers::Offset<fb::Buffer>> placed;
  for (const PlannedEntry::Placed &p : e.placed)
    placed.push_back(fb::CreateBufferDirect(
        fbb, p.origin.value.c_str(), p.origin.value.c_str(),
        p.origin.op.c_str(), p.origin.location.c_str(), 0, p.size, 1, p.start, p.end,
        p.origin.viewCount, p.inState ? fb::Region::State : fb::Region::Output,
        p.index));
  // Without kernels the entry is written as before they were recorded.
  std::vector<flatbuffers::Offset<fb::Kernel>> kernels = writeKernels(fbb, e);
  std::vector<flatbuffers::Offset<fb::VariantChoice>> variants =
      writeVariants(fbb, e);
  std::vector<flatbuffers::Offset<fb::KernelDtype>> dtypes =
      writeKernelDtypes(fbb, e);
  return fb::CreateEntryDirect(
      fbb, e.entry.c_str(), e.chunk, entry.input, entry.plannedFunction.c_str(),
      entry.plannedFile.c_str(), e.plan.heap, e.alignment, e.plan.lowerBound,
      e.plan.optimal, e.plan.algorithm.c_str(), e.inPlaceSavedBytes, &buffers,
      &borrowed, &placed,
      e.kernelSource.empty() ? nullptr : e.kernelSource.c_str(),
      kernels.empty() ? nullptr : &kernels,
      variants.empty() ? nullptr : &variants, e.recomputed.chains,
      e.recomputed.ops, e.recomputed.elements,
      dtypes.empty() ? nullptr : &dtypes);
}

flatbuffers::Offset<fb::Parametric>
writeParametric(flatbuffers::FlatBufferBuilder &fbb,
                const ManifestParametric &p) {
  std::vector<flatbuffers::Offset<fb::ParametricBuffer>> buffers;
  for (const ParametricBuffer &b : p.plan.buffers)
    buffers.push_back(fb::CreateParametricBufferDirect(
        fbb, b.id.c_str(), b.start, b.end, b.alignment, &b.size.coefficients,
        &b.below, b.bin < 0 ? fb::Region::Heap : fb::Region::Output,
        b.bin < 0 ? 0 : p.plan.bins[b.bin].output, b.workspace));
  std::vector<flatbuffers::Offset<fb::ParametricOutput>> borrowed;
  for (const ParametricBin &bin : p.plan.bins)
    borrowed.push_back(fb::CreateParametricOutputDirect(
        fbb, bin.output, &bin.capacity.coefficients, bin.availableUntil));
  return fb::CreateParametricDirect(fbb, p.entry.c_str(), p.input,
                                    p.symbol.c_str(), p.alignment, p.plan.lo,
                                    p.plan.hi, &p.plan.order,
                                    &p.plan.heapTerms, &buffers,
                                    borrowed.empty() ? nullptr : &borrowed,
                                    p.cut.empty() ? nullptr : p.cut.c_str());
}

template <typename T>
std::vector<T> vec(const flatbuffers::Vector<T> *v) {
  return v ? std::vector<T>(v->begin(), v->end()) : std::vector<T>();
}

std::string str(const flatbuffers::String *s) {
  return s ? s->str() : std::string();
}

llvm::Error corrupt(llvm::StringRef source, llvm::StringRef why) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("{0}: not a valid coreai-plan manifest ({1})", source, why)
          .str());
}

/// The kernels recorded for an entry (none when the field is absent).
std::vector<PlannedEntry::Kernel> readKernels(const fb::Entry &in) {
  std::vector<PlannedEntry::Kernel> kernels;
  if (const auto *recorded = in.kernels())
    for (const fb::Kernel *k : *recorded) {
      PlannedEntry::Kernel kernel;
      kernel.id = k->id();
      kernel.ops = k->ops();
      kernel.firstOp = str(k->first_op());
      kernel.lastOp = str(k->last_op());
      kernel.location = str(k->location());
      if (const auto *fused = k->fused())
        for (const fb::FusedValue *v : *fused) {
          kernel.fused.push_back(
              {str(v->value()), str(v->op()), str(v->location()), 0});
          kernel.fusedSizes.push_back(v->size());
        }
      kernel.fusedBytes = k->fused_bytes();
      for (uint32_t b : vec(k->writes()))
        kernel.writes.push_back(b);
      kernels.push_back(std::move(kernel));
    }
  return kernels;
}

/// The variant choices recorded for an entry (none when absent).
std::vector<PlannedEntry::VariantChoice> readVariants(const fb::Entry &in) {
  std::vector<PlannedEntry::VariantChoice> variants;
  if (const auto *recorded = in.variants())
    for (const fb::VariantChoice *v : *recorded) {
      PlannedEntry::VariantChoice choice;
      choice.op.op = str(v->op());
      choice.op.location = str(v->location());
      choice.variant = str(v->variant());
      choice.bytes = v->bytes();
      choice.cost = v->cost();
      choice.cheapest = str(v->cheapest());
      choice.cheapestBytes = v->cheapest_bytes();
      choice.cheapestCost = v->cheapest_cost();
      variants.push_back(std::move(choice));
    }
  return variants;
}

/// The result dtypes recorded for an entry (none when absent).
std::vector<PlannedEntry::KernelDtype> readKernelDtypes(const fb::Entry &in) {
  std::vector<PlannedEntry::KernelDtype> dtypes;
  if (const auto *recorded = in.kernel_dtypes())
    for (const fb::KernelDtype *d : *recorded)
      dtypes.push_back({str(d->op()), str(d->graph_dtype()),
                        str(d->kernel_dtype()), d->results(),
                        d->extra_bytes()});
  return dtypes;
}

llvm::Expected<ManifestEntry> readEntry(const fb::Entry &in,
                                        llvm::StringRef source) {
  ManifestEntry entry;
  entry.input = in.input();
  entry.plannedFunction = str(in.planned_function());
  entry.plannedFile = str(in.planned_file());
  PlannedEntry &e = entry.planned;
  e.entry = str(in.entry());
  e.chunk = in.chunk();
  e.alignment = in.alignment();
  e.inPlaceSavedBytes = in.in_place_saved_bytes();
  e.plan.heap = in.heap();
  e.plan.lowerBound = in.lower_bound();
  e.plan.optimal = in.optimal();
  e.plan.algorithm = str(in.solver());
  std::vector<detail::RecordedRegion> regions;
  if (const auto *buffers = in.buffers()) {
    for (const fb::Buffer *b : *buffers) {
      e.problem.buffers.push_back(
          {str(b->id()), b->start(), b->end(), b->size(), b->alignment()});
      e.origins.push_back(
          {str(b->value()), str(b->op()), str(b->location()), b->view_count()});
      e.plan.offsets.push_back(b->offset());
      regions.push_back({int64_t(b->region()), b->region_index()});
      if (b->workspace())
        e.workspaces.push_back(e.problem.buffers.size() - 1);
    }
  }
  if (const auto *borrowed = in.borrowed_outputs())
    for (const fb::BorrowedOutput *bin : *borrowed)
      e.outputBins.push_back(
          {bin->output(), bin->size(), bin->available_until()});
  if (const auto *placed = in.placed())
    for (const fb::Buffer *p : *placed) {
      if (p->region() != fb::Region::Output && p->region() != fb::Region::State)
        return corrupt(source, "a placed value is not in an output or state");
      PlannedEntry::Placed value;
      value.origin = {str(p->value()), str(p->op()), str(p->location()),
                      p->view_count()};
      value.size = p->size();
      value.start = p->start();
      value.end = p->end();
      value.inState = p->region() == fb::Region::State;
      value.index = p->region_index();
      e.placed.push_back(std::move(value));
    }
  e.kernelSource = str(in.kernel_source());
  e.kernels = readKernels(in);
  e.variants = readVariants(in);
  e.recomputed = {in.recomputed_chains(), in.recomputed_ops(),
                  in.recomputed_elements()};
  e.kernelDtypes = readKernelDtypes(in);
  if (llvm::Error error = detail::assignRegions(e, regions, source))
    return error;
  return entry;
}

llvm::Expected<ManifestParametric> readParametric(const fb::Parametric &in,
                                                  llvm::StringRef source) {
  ManifestParametric p;
  p.entry = str(in.entry());
  p.input = in.input();
  p.symbol = str(in.symbol());
  p.alignment = in.alignment();
  p.plan.lo = in.lo();
  p.plan.hi = in.hi();
  p.plan.order = vec(in.order());
  p.plan.heapTerms = vec(in.heap_terms());
  p.cut = str(in.cut());
  std::vector<detail::RecordedRegion> regions;
  if (const auto *buffers = in.buffers())
    for (const fb::ParametricBuffer *b : *buffers) {
      p.plan.buffers.push_back({str(b->id()), b->start(), b->end(),
                                b->alignment(), SizeExpr{vec(b->size())},
                                vec(b->below()), -1, b->workspace()});
      regions.push_back({int64_t(b->region()), b->region_index()});
    }
  if (const auto *borrowed = in.borrowed_outputs())
    for (const fb::ParametricOutput *bin : *borrowed)
      p.plan.bins.push_back({bin->output(), SizeExpr{vec(bin->size())},
                             bin->available_until()});
  if (llvm::Error error = detail::assignParametricRegions(p, regions, source))
    return error;
  return p;
}

/// Each item of a FlatBuffers vector (absent: none) read by `read` and
/// appended to `out`; the first error stops.
template <typename Item, typename T, typename Read>
llvm::Error
readEach(const flatbuffers::Vector<flatbuffers::Offset<Item>> *items,
         std::vector<T> &out, Read read) {
  if (!items)
    return llvm::Error::success();
  for (const Item *item : *items) {
    llvm::Expected<T> value = read(*item);
    if (!value)
      return value.takeError();
    out.push_back(std::move(*value));
  }
  return llvm::Error::success();
}

} // namespace

std::string writeManifestBinary(const Manifest &manifest) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Entry>> entries;
  for (const ManifestEntry &entry : manifest.entries)
    entries.push_back(writeEntry(fbb, entry));
  auto target = fb::CreateTargetDirect(
      fbb, manifest.target.name.c_str(), manifest.target.alignment,
      manifest.target.heapLimit, manifest.target.kernelsInIrOrder);
  std::vector<flatbuffers::Offset<fb::Input>> inputs;
  for (const ManifestInput &input : manifest.inputs)
    inputs.push_back(
        fb::CreateInputDirect(fbb, input.file.c_str(), input.sha256.c_str()));
  std::vector<flatbuffers::Offset<fb::Parametric>> parametric;
  for (const ManifestParametric &p : manifest.parametric)
    parametric.push_back(writeParametric(fbb, p));
  auto root = fb::CreateManifestDirect(
      fbb, manifest.formatVersion, manifest.toolVersion.c_str(), target,
      &inputs, manifest.bundleHeap, &entries,
      parametric.empty() ? nullptr : &parametric);
  // The size prefix lets a reader tell a truncated file from a complete
  // one even when only trailing padding is missing.
  fb::FinishSizePrefixedManifestBuffer(fbb, root);
  return std::string(reinterpret_cast<const char *>(fbb.GetBufferPointer()),
                     fbb.GetSize());
}

llvm::Expected<Manifest> readManifestBinary(llvm::StringRef bytes,
                                            llvm::StringRef source) {
  const auto *data = reinterpret_cast<const uint8_t *>(bytes.data());
  constexpr size_t prefix = sizeof(flatbuffers::uoffset_t);
  if (bytes.size() < prefix + 8 ||
      !fb::SizePrefixedManifestBufferHasIdentifier(data))
    return corrupt(source, "no 'CAPM' file identifier; truncated or another "
                           "kind of file");
  size_t recorded = flatbuffers::GetPrefixedSize(data);
  if (recorded + prefix != bytes.size())
    return corrupt(source, llvm::formatv("truncated or padded: {0} bytes "
                                         "recorded, {1} present",
                                         recorded + prefix, bytes.size())
                               .str());
  // Field 0 is the version in every schema version: read it alone first so
  // that a newer file is reported as such rather than as corrupt.
  flatbuffers::Verifier versionVerifier(data, bytes.size());
  if (!versionVerifier.VerifySizePrefixedBuffer<fb::ManifestVersion>("CAPM"))
    return corrupt(source, "corrupt header");
  uint32_t version = flatbuffers::GetSizePrefixedRoot<fb::ManifestVersion>(data)
                         ->format_version();
  if (version != kManifestFormatVersion)
    return detail::versionMismatch(source, version);
  flatbuffers::Verifier verifier(data, bytes.size());
  if (!fb::VerifySizePrefixedManifestBuffer(verifier))
    return corrupt(source, "corrupt tables");

  const fb::Manifest *in = fb::GetSizePrefixedManifest(data);
  Manifest manifest;
  manifest.formatVersion = in->format_version();
  manifest.toolVersion = str(in->tool_version());
  if (const fb::Target *target = in->target())
    manifest.target = {str(target->name()), target->alignment(),
                       target->heap_limit(), target->kernels_in_ir_order()};
  if (const auto *inputs = in->inputs())
    for (const fb::Input *input : *inputs)
      manifest.inputs.push_back({str(input->file()), str(input->sha256())});
  manifest.bundleHeap = in->bundle_heap();
  if (llvm::Error error = readEach(
          in->entries(), manifest.entries,
          [&](const fb::Entry &entry) { return readEntry(entry, source); }))
    return error;
  if (llvm::Error error = readEach(
          in->parametric(), manifest.parametric,
          [&](const fb::Parametric &p) { return readParametric(p, source); }))
    return error;
  if (llvm::Error error = detail::checkManifest(manifest, source))
    return error;
  return manifest;
}

} // namespace coreai

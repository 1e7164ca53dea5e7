//===- ManifestJson.cpp - JSON encoding of the manifest -------------------===//
//
// Field names match plan_manifest.fbs. llvm::json prints object keys
// sorted, so the text is deterministic.
//
//===----------------------------------------------------------------------===//
#include "ManifestCheck.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai {
namespace {
namespace json = llvm::json;

json::Value bufferToJson(const PlannedEntry &e, size_t i) {
  const Buffer &b = e.problem.buffers[i];
  const BufferOrigin &origin = e.origins[i];
  return json::Object{
      {"id", b.id},
      {"value", origin.value},
      {"op", origin.op},
      {"location", origin.location},
      {"offset", e.plan.offsets[i]},
      {"size", b.size},
      {"alignment", b.alignment},
      {"start", b.start},
      {"end", b.end},
      {"view_count", origin.viewCount},
      {"region", e.borrowedOutput(i) < 0 ? "heap" : "output"},
      {"region_index", std::max<int64_t>(0, e.borrowedOutput(i))},
      {"workspace", e.isWorkspace(i)},
  };
}

json::Value placedToJson(const PlannedEntry::Placed &p) {
  return json::Object{
      {"id", p.origin.value},
      {"value", p.origin.value},
      {"op", p.origin.op},
      {"location", p.origin.location},
      {"offset", 0},
      {"size", p.size},
      {"alignment", 1},
      {"start", p.start},
      {"end", p.end},
      {"view_count", p.origin.viewCount},
      {"region", p.inState ? "state" : "output"},
      {"region_index", p.index},
  };
}

json::Value kernelToJson(const PlannedEntry::Kernel &k) {
  json::Array fused;
  for (size_t i = 0; i < k.fused.size(); ++i)
    fused.push_back(json::Object{
        {"value", k.fused[i].value},
        {"op", k.fused[i].op},
        {"location", k.fused[i].location},
        {"size", i < k.fusedSizes.size() ? k.fusedSizes[i] : 0},
    });
  return json::Object{
      {"id", k.id},
      {"ops", k.ops},
      {"first_op", k.firstOp},
      {"last_op", k.lastOp},
      {"location", k.location},
      {"fused", std::move(fused)},
      {"fused_bytes", k.fusedBytes},
      {"writes", k.writes},
  };
}

json::Value variantToJson(const PlannedEntry::VariantChoice &v) {
  return json::Object{
      {"op", v.op.op},         {"location", v.op.location},
      {"variant", v.variant},  {"bytes", v.bytes},
      {"cost", v.cost},        {"cheapest", v.cheapest},
      {"cheapest_bytes", v.cheapestBytes},
      {"cheapest_cost", v.cheapestCost},
  };
}

json::Value entryToJson(const ManifestEntry &entry) {
  const PlannedEntry &e = entry.planned;
  json::Array buffers;
  for (size_t i = 0; i < e.problem.buffers.size(); ++i)
    buffers.push_back(bufferToJson(e, i));
  json::Array borrowed, placed;
  for (const OutputBin &bin : e.outputBins)
    borrowed.push_back(json::Object{{"output", bin.output},
                                    {"size", bin.capacity},
                                    {"available_until", bin.availableUntil}});
  for (const PlannedEntry::Placed &p : e.placed)
    placed.push_back(placedToJson(p));
  json::Array kernels;
  for (const PlannedEntry::Kernel &k : e.kernels)
    kernels.push_back(kernelToJson(k));
  json::Object object{
      {"entry", e.entry},
      {"chunk", e.chunk},
      {"input", int64_t(entry.input)},
      {"planned_function", entry.plannedFunction},
      {"planned_file", entry.plannedFile},
      {"heap", e.plan.heap},
      {"alignment", e.alignment},
      {"lower_bound", e.plan.lowerBound},
      {"optimal", e.plan.optimal},
      {"solver", e.plan.algorithm},
      {"in_place_saved_bytes", e.inPlaceSavedBytes},
      {"buffers", std::move(buffers)},
      {"borrowed_outputs", std::move(borrowed)},
      {"placed", std::move(placed)},
      {"kernel_source", e.kernelSource},
      {"kernels", std::move(kernels)},
  };
  // Only where a rule offered a choice: other manifests keep their bytes.
  if (!e.variants.empty()) {
    json::Array variants;
    for (const PlannedEntry::VariantChoice &v : e.variants)
      variants.push_back(variantToJson(v));
    object["variants"] = std::move(variants);
  }
  if (e.recomputed.chains > 0)
    object["recomputed"] = json::Object{{"chains", e.recomputed.chains},
                                        {"ops", e.recomputed.ops},
                                        {"elements", e.recomputed.elements}};
  if (!e.kernelDtypes.empty()) {
    json::Array dtypes;
    for (const PlannedEntry::KernelDtype &d : e.kernelDtypes)
      dtypes.push_back(json::Object{{"op", d.op},
                                    {"graph_dtype", d.graphDtype},
                                    {"kernel_dtype", d.kernelDtype},
                                    {"results", d.results},
                                    {"extra_bytes", d.extraBytes}});
    object["kernel_dtypes"] = std::move(dtypes);
  }
  return object;
}

json::Value parametricToJson(const ManifestParametric &p) {
  json::Array buffers;
  for (const ParametricBuffer &b : p.plan.buffers)
    buffers.push_back(json::Object{
        {"id", b.id},
        {"start", b.start},
        {"end", b.end},
        {"alignment", b.alignment},
        {"size", b.size.coefficients},
        {"below", b.below},
        {"region", b.bin < 0 ? "heap" : "output"},
        {"region_index", b.bin < 0 ? 0 : p.plan.bins[b.bin].output},
        {"workspace", b.workspace},
    });
  json::Array borrowed;
  for (const ParametricBin &bin : p.plan.bins)
    borrowed.push_back(json::Object{{"output", bin.output},
                                    {"size", bin.capacity.coefficients},
                                    {"available_until", bin.availableUntil}});
  json::Object written{
      {"entry", p.entry},
      {"input", int64_t(p.input)},
      {"symbol", p.symbol},
      {"alignment", p.alignment},
      {"lo", p.plan.lo},
      {"hi", p.plan.hi},
      {"order", p.plan.order},
      {"heap_terms", p.plan.heapTerms},
      {"buffers", std::move(buffers)},
      {"borrowed_outputs", std::move(borrowed)},
  };
  if (!p.cut.empty()) // optional, as in the binary form
    written["cut"] = p.cut;
  return written;
}

} // namespace

// The readers are found by argument-dependent lookup from llvm::json's
// templates, so they live in namespace coreai rather than an anonymous one.
namespace json = llvm::json;

/// The target; `kernels_in_ir_order` only where the plan relies on it, so
/// that a manifest that does not is the same bytes as before the field.
static json::Object targetJson(const ManifestTarget &target) {
  json::Object object{{"name", target.name},
                      {"alignment", target.alignment},
                      {"heap_limit", target.heapLimit}};
  if (target.kernelsInIrOrder)
    object["kernels_in_ir_order"] = true;
  return object;
}

static bool fromJSON(const json::Value &value, ManifestTarget &target,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("name", target.name) &&
         o.map("alignment", target.alignment) &&
         o.map("heap_limit", target.heapLimit) &&
         o.mapOptional("kernels_in_ir_order", target.kernelsInIrOrder);
}

/// One buffer, appended to the entry's parallel arrays.
static bool fromJSON(const json::Value &value, ManifestInput &input,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("file", input.file) && o.map("sha256", input.sha256);
}

/// "heap" | "output" | "state" as fb::Region's values.
static bool readRegion(json::ObjectMapper &o, const json::Value &value,
                       json::Path path, detail::RecordedRegion &region) {
  std::string name;
  if (!(o.map("region", name) && o.map("region_index", region.index)))
    return false;
  if (name == "heap" || name == "output" || name == "state") {
    region.kind = name == "heap" ? 0 : name == "output" ? 1 : 2;
    return true;
  }
  path.field("region").report("expected heap, output or state");
  return false;
}

static bool readBuffer(const json::Value &value, PlannedEntry &e,
                       std::vector<detail::RecordedRegion> &regions,
                       json::Path path) {
  json::ObjectMapper o(value, path);
  Buffer b;
  BufferOrigin origin;
  int64_t offset = 0;
  detail::RecordedRegion region;
  bool workspace = false; // optional: absent before workspaces
  if (!(o && o.map("id", b.id) && o.map("value", origin.value) &&
        o.map("op", origin.op) && o.map("location", origin.location) &&
        o.map("offset", offset) && o.map("size", b.size) &&
        o.map("alignment", b.alignment) && o.map("start", b.start) &&
        o.map("end", b.end) && o.map("view_count", origin.viewCount) &&
        o.mapOptional("workspace", workspace) &&
        readRegion(o, value, path, region)))
    return false;
  if (workspace)
    e.workspaces.push_back(e.problem.buffers.size());
  e.problem.buffers.push_back(std::move(b));
  e.origins.push_back(std::move(origin));
  e.plan.offsets.push_back(offset);
  regions.push_back(region);
  return true;
}

static bool readPlaced(const json::Value &value, PlannedEntry &e,
                       json::Path path) {
  json::ObjectMapper o(value, path);
  PlannedEntry::Placed placed;
  detail::RecordedRegion region;
  if (!(o && o.map("value", placed.origin.value) &&
        o.map("op", placed.origin.op) &&
        o.map("location", placed.origin.location) &&
        o.map("size", placed.size) &&
        o.map("view_count", placed.origin.viewCount) &&
        o.mapOptional("start", placed.start) &&
        o.mapOptional("end", placed.end) &&
        readRegion(o, value, path, region)))
    return false;
  if (region.kind == 0) {
    path.field("region").report("a placed value is in an output or state");
    return false;
  }
  placed.inState = region.kind == 2;
  placed.index = region.index;
  e.placed.push_back(std::move(placed));
  return true;
}

static bool readFused(const json::Value &value, PlannedEntry::Kernel &k,
                      json::Path path) {
  json::ObjectMapper o(value, path);
  BufferOrigin origin;
  int64_t size = 0;
  if (!(o && o.map("value", origin.value) && o.map("op", origin.op) &&
        o.map("location", origin.location) && o.map("size", size)))
    return false;
  k.fused.push_back(std::move(origin));
  k.fusedSizes.push_back(size);
  return true;
}

static bool fromJSON(const json::Value &value, PlannedEntry::Kernel &k,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  if (!(o && o.map("id", k.id) && o.map("ops", k.ops) &&
        o.map("first_op", k.firstOp) && o.map("last_op", k.lastOp) &&
        o.map("location", k.location) && o.map("fused_bytes", k.fusedBytes) &&
        o.map("writes", k.writes)))
    return false;
  const json::Array *fused = value.getAsObject()->getArray("fused");
  if (!fused) {
    path.field("fused").report("expected array");
    return false;
  }
  for (size_t i = 0; i < fused->size(); ++i)
    if (!readFused((*fused)[i], k, path.field("fused").index(i)))
      return false;
  return true;
}

static bool fromJSON(const json::Value &value, PlannedEntry::Recomputed &r,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("chains", r.chains) && o.map("ops", r.ops) &&
         o.map("elements", r.elements);
}

static bool fromJSON(const json::Value &value, PlannedEntry::KernelDtype &d,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("op", d.op) && o.map("graph_dtype", d.graphDtype) &&
         o.map("kernel_dtype", d.kernelDtype) && o.map("results", d.results) &&
         o.map("extra_bytes", d.extraBytes);
}

static bool fromJSON(const json::Value &value,
                     PlannedEntry::VariantChoice &v, json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("op", v.op.op) && o.map("location", v.op.location) &&
         o.map("variant", v.variant) && o.map("bytes", v.bytes) &&
         o.map("cost", v.cost) && o.map("cheapest", v.cheapest) &&
         o.map("cheapest_bytes", v.cheapestBytes) &&
         o.map("cheapest_cost", v.cheapestCost);
}

/// The entry's kernels and variant choices: optional (a manifest written
/// before they were recorded has none of the keys), each complete when
/// present.
static bool readKernels(json::ObjectMapper &o, PlannedEntry &e) {
  return o.mapOptional("kernel_source", e.kernelSource) &&
         o.mapOptional("kernels", e.kernels) &&
         o.mapOptional("variants", e.variants) &&
         o.mapOptional("recomputed", e.recomputed) &&
         o.mapOptional("kernel_dtypes", e.kernelDtypes);
}

static bool fromJSON(const json::Value &value, OutputBin &bin,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("output", bin.output) && o.map("size", bin.capacity) &&
         o.map("available_until", bin.availableUntil);
}

/// An entry's index into the manifest's inputs (32 bits in the binary form).
static bool toInputIndex(int64_t input, uint32_t &index, json::Path path) {
  if (input < 0 || input > int64_t(UINT32_MAX)) {
    path.field("input").report("out of range");
    return false;
  }
  index = uint32_t(input);
  return true;
}

/// The array member `name` of the object `value`; reported where missing.
static const json::Array *arrayMember(const json::Value &value,
                                      llvm::StringRef name, json::Path path) {
  const json::Array *array = value.getAsObject()->getArray(name);
  if (!array)
    path.field(name).report("expected array");
  return array;
}

/// The input index of an entry or a parametric plan, then its buffers;
/// nullptr (reported) where either is wrong.
static const json::Array *inputAndBuffers(const json::Value &value,
                                          int64_t input, uint32_t &index,
                                          json::Path path) {
  if (!toInputIndex(input, index, path))
    return nullptr;
  return arrayMember(value, "buffers", path);
}

static bool readEntry(const json::Value &value, ManifestEntry &entry,
                      std::vector<detail::RecordedRegion> &regions,
                      json::Path path) {
  json::ObjectMapper o(value, path);
  PlannedEntry &e = entry.planned;
  int64_t input = 0;
  if (!(o && o.map("entry", e.entry) && o.map("chunk", e.chunk) &&
        o.map("input", input) &&
        o.map("planned_function", entry.plannedFunction) &&
        o.map("planned_file", entry.plannedFile) &&
        o.map("heap", e.plan.heap) && o.map("alignment", e.alignment) &&
        o.map("lower_bound", e.plan.lowerBound) &&
        o.map("optimal", e.plan.optimal) && o.map("solver", e.plan.algorithm) &&
        o.map("in_place_saved_bytes", e.inPlaceSavedBytes)))
    return false;
  const json::Array *buffers = inputAndBuffers(value, input, entry.input, path);
  if (!buffers)
    return false;
  for (size_t i = 0; i < buffers->size(); ++i)
    if (!readBuffer((*buffers)[i], e, regions,
                    path.field("buffers").index(i)))
      return false;
  if (!o.map("borrowed_outputs", e.outputBins))
    return false;
  const json::Array *placed = value.getAsObject()->getArray("placed");
  if (!placed) {
    path.field("placed").report("expected array");
    return false;
  }
  for (size_t i = 0; i < placed->size(); ++i)
    if (!readPlaced((*placed)[i], e, path.field("placed").index(i)))
      return false;
  return readKernels(o, e);
}

static bool readParametricBuffer(const json::Value &value, ParametricBuffer &b,
                                 detail::RecordedRegion &region,
                                 json::Path path) {
  json::ObjectMapper o(value, path);
  std::string kind;
  if (!(o && o.map("id", b.id) && o.map("start", b.start) &&
        o.map("end", b.end) && o.map("alignment", b.alignment) &&
        o.map("size", b.size.coefficients) && o.map("below", b.below) &&
        o.map("region", kind) && o.map("region_index", region.index) &&
        o.mapOptional("workspace", b.workspace)))
    return false;
  if (kind != "heap" && kind != "output") {
    path.field("region").report("expected \"heap\" or \"output\"");
    return false;
  }
  region.kind = kind == "heap" ? 0 : 1;
  return true;
}

static bool fromJSON(const json::Value &value, ParametricBin &bin,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("output", bin.output) &&
         o.map("size", bin.capacity.coefficients) &&
         o.map("available_until", bin.availableUntil);
}

static bool readParametric(const json::Value &value, ManifestParametric &p,
                           std::vector<detail::RecordedRegion> &regions,
                           json::Path path) {
  json::ObjectMapper o(value, path);
  int64_t input = 0;
  if (!(o && o.map("entry", p.entry) && o.map("input", input) &&
        o.map("symbol", p.symbol) && o.map("alignment", p.alignment) &&
        o.map("lo", p.plan.lo) && o.map("hi", p.plan.hi) &&
        o.map("order", p.plan.order) &&
        o.map("heap_terms", p.plan.heapTerms) &&
        o.map("borrowed_outputs", p.plan.bins) &&
        o.mapOptional("cut", p.cut)))
    return false;
  const json::Array *buffers = inputAndBuffers(value, input, p.input, path);
  if (!buffers)
    return false;
  p.plan.buffers.resize(buffers->size());
  regions.resize(buffers->size());
  for (size_t i = 0; i < buffers->size(); ++i)
    if (!readParametricBuffer((*buffers)[i], p.plan.buffers[i], regions[i],
                              path.field("buffers").index(i)))
      return false;
  return true;
}

/// The regions of each entry's buffers go to `regions` (one list per
/// entry), those of each parametric plan's to `parametricRegions`:
/// assigning them can fail with a message of its own.
static bool readManifestObject(
    const json::Value &value, Manifest &manifest,
    std::vector<std::vector<detail::RecordedRegion>> &regions,
    std::vector<std::vector<detail::RecordedRegion>> &parametricRegions,
    json::Path path) {
  json::ObjectMapper o(value, path);
  if (!(o && o.map("tool_version", manifest.toolVersion) &&
        o.map("target", manifest.target) && o.map("inputs", manifest.inputs) &&
        o.map("bundle_heap", manifest.bundleHeap)))
    return false;
  const json::Array *entries = arrayMember(value, "entries", path);
  if (!entries)
    return false;
  manifest.entries.resize(entries->size());
  regions.resize(entries->size());
  for (size_t i = 0; i < entries->size(); ++i)
    if (!readEntry((*entries)[i], manifest.entries[i], regions[i],
                   path.field("entries").index(i)))
      return false;
  // Optional: a manifest without parametric plans has no such key.
  const json::Value *parametric = value.getAsObject()->get("parametric");
  if (!parametric || parametric->kind() == json::Value::Null)
    return true;
  const json::Array *plans = parametric->getAsArray();
  if (!plans) {
    path.field("parametric").report("expected array");
    return false;
  }
  manifest.parametric.resize(plans->size());
  parametricRegions.resize(plans->size());
  for (size_t i = 0; i < plans->size(); ++i)
    if (!readParametric((*plans)[i], manifest.parametric[i],
                        parametricRegions[i],
                        path.field("parametric").index(i)))
      return false;
  return true;
}

json::Value manifestToJson(const Manifest &manifest) {
  json::Array inputs, entries;
  for (const ManifestInput &input : manifest.inputs)
    inputs.push_back(
        json::Object{{"file", input.file}, {"sha256", input.sha256}});
  for (const ManifestEntry &entry : manifest.entries)
    entries.push_back(entryToJson(entry));
  json::Object root{
      {"format_version", int64_t(manifest.formatVersion)},
      {"tool_version", manifest.toolVersion},
      {"target", targetJson(manifest.target)},
      {"inputs", std::move(inputs)},
      {"bundle_heap", manifest.bundleHeap},
      {"entries", std::move(entries)},
  };
  // Optional: a manifest without parametric plans reads as before.
  if (!manifest.parametric.empty()) {
    json::Array parametric;
    for (const ManifestParametric &p : manifest.parametric)
      parametric.push_back(parametricToJson(p));
    root["parametric"] = std::move(parametric);
  }
  return root;
}

std::string writeManifestJson(const Manifest &manifest) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", manifestToJson(manifest)) << "\n";
  return text;
}

llvm::Expected<Manifest> readManifestJson(llvm::StringRef text,
                                          llvm::StringRef source) {
  llvm::Expected<json::Value> value = json::parse(text);
  if (!value)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        source + ": invalid JSON: " + llvm::toString(value.takeError()));
  const json::Object *root = value->getAsObject();
  std::optional<int64_t> version =
      root ? root->getInteger("format_version") : std::nullopt;
  if (!version)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   source + ": not a coreai-plan manifest "
                                            "(no integer format_version)");
  if (*version != kManifestFormatVersion)
    return detail::versionMismatch(source, *version);
  Manifest manifest;
  manifest.formatVersion = uint32_t(*version);
  json::Path::Root rootPath("manifest");
  std::vector<std::vector<detail::RecordedRegion>> regions, parametricRegions;
  if (!readManifestObject(*value, manifest, regions, parametricRegions,
                          rootPath))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        source + ": invalid manifest: " + llvm::toString(rootPath.getError()));
  for (size_t i = 0; i < manifest.entries.size(); ++i)
    if (llvm::Error error =
            detail::assignRegions(manifest.entries[i].planned, regions[i],
                                  source))
      return error;
  for (size_t i = 0; i < manifest.parametric.size(); ++i)
    if (llvm::Error error = detail::assignParametricRegions(
            manifest.parametric[i], parametricRegions[i], source))
      return error;
  if (llvm::Error error = detail::checkManifest(manifest, source))
    return error;
  return manifest;
}

} // namespace coreai

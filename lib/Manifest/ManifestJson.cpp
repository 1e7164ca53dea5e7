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
  };
}

json::Value entryToJson(const ManifestEntry &entry) {
  const PlannedEntry &e = entry.planned;
  json::Array buffers;
  for (size_t i = 0; i < e.problem.buffers.size(); ++i)
    buffers.push_back(bufferToJson(e, i));
  return json::Object{
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
  };
}

} // namespace

// The readers are found by argument-dependent lookup from llvm::json's
// templates, so they live in namespace coreai rather than an anonymous one.
namespace json = llvm::json;

static bool fromJSON(const json::Value &value, ManifestTarget &target,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("name", target.name) &&
         o.map("alignment", target.alignment) &&
         o.map("heap_limit", target.heapLimit);
}

/// One buffer, appended to the entry's parallel arrays.
static bool fromJSON(const json::Value &value, ManifestInput &input,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("file", input.file) && o.map("sha256", input.sha256);
}

static bool readBuffer(const json::Value &value, PlannedEntry &e,
                       json::Path path) {
  json::ObjectMapper o(value, path);
  Buffer b;
  BufferOrigin origin;
  int64_t offset = 0;
  if (!(o && o.map("id", b.id) && o.map("value", origin.value) &&
        o.map("op", origin.op) && o.map("location", origin.location) &&
        o.map("offset", offset) && o.map("size", b.size) &&
        o.map("alignment", b.alignment) && o.map("start", b.start) &&
        o.map("end", b.end) && o.map("view_count", origin.viewCount)))
    return false;
  e.problem.buffers.push_back(std::move(b));
  e.origins.push_back(std::move(origin));
  e.plan.offsets.push_back(offset);
  return true;
}

static bool fromJSON(const json::Value &value, ManifestEntry &entry,
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
  if (input < 0 || input > int64_t(UINT32_MAX)) {
    path.field("input").report("out of range");
    return false;
  }
  entry.input = uint32_t(input);
  const json::Array *buffers = value.getAsObject()->getArray("buffers");
  if (!buffers) {
    path.field("buffers").report("expected array");
    return false;
  }
  for (size_t i = 0; i < buffers->size(); ++i)
    if (!readBuffer((*buffers)[i], e, path.field("buffers").index(i)))
      return false;
  return true;
}

static bool fromJSON(const json::Value &value, Manifest &manifest,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("tool_version", manifest.toolVersion) &&
         o.map("target", manifest.target) && o.map("inputs", manifest.inputs) &&
         o.map("bundle_heap", manifest.bundleHeap) &&
         o.map("entries", manifest.entries);
}

json::Value manifestToJson(const Manifest &manifest) {
  json::Array inputs, entries;
  for (const ManifestInput &input : manifest.inputs)
    inputs.push_back(
        json::Object{{"file", input.file}, {"sha256", input.sha256}});
  for (const ManifestEntry &entry : manifest.entries)
    entries.push_back(entryToJson(entry));
  return json::Object{
      {"format_version", int64_t(manifest.formatVersion)},
      {"tool_version", manifest.toolVersion},
      {"target", json::Object{{"name", manifest.target.name},
                              {"alignment", manifest.target.alignment},
                              {"heap_limit", manifest.target.heapLimit}}},
      {"inputs", std::move(inputs)},
      {"bundle_heap", manifest.bundleHeap},
      {"entries", std::move(entries)},
  };
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
  if (!fromJSON(*value, manifest, rootPath))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        source + ": invalid manifest: " + llvm::toString(rootPath.getError()));
  if (llvm::Error error = detail::checkManifest(manifest, source))
    return error;
  return manifest;
}

} // namespace coreai

//===- Manifest.cpp - The C reader of manifests (include/coreai-plan/c) ---===//
//
// Only the FlatBuffers headers and the generated accessors: a runtime links
// this without MLIR or LLVM. The checks mirror the version-first rule of
// lib/Manifest/ManifestBinary.cpp: the version is read through the
// one-field ManifestVersion view before the rest is verified, so a file of
// another version is reported as such and not as corrupt.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/c/manifest.h"

#include "coreai-plan/Manifest/plan_manifest_generated.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

struct capm_manifest {
  std::vector<uint8_t> bytes;
  const coreai::fb::Manifest *root = nullptr;
};

namespace {

capm_status fail(capm_status status, char *error, size_t errorSize,
                 const std::string &message) {
  if (error && errorSize > 0)
    std::snprintf(error, errorSize, "%s", message.c_str());
  return status;
}

const char *text(const flatbuffers::String *s) { return s ? s->c_str() : ""; }

const coreai::fb::Entry *entryAt(const capm_manifest *m, size_t entry) {
  const auto *entries = m->root->entries();
  return entries && entry < entries->size() ? entries->Get(entry) : nullptr;
}

bool validRegion(coreai::fb::Region region) {
  return region == coreai::fb::Region::Heap ||
         region == coreai::fb::Region::Output ||
         region == coreai::fb::Region::State;
}

/// What the schema cannot say: regions are known values (and placed
/// values are outside the heap), offsets and sizes are not negative.
bool checkBuffers(const flatbuffers::Vector<
                      flatbuffers::Offset<coreai::fb::Buffer>> *buffers,
                  bool placed) {
  if (!buffers)
    return true;
  for (const coreai::fb::Buffer *b : *buffers)
    if (!validRegion(b->region()) || b->offset() < 0 || b->size() < 0 ||
        b->region_index() < 0 ||
        (placed && b->region() == coreai::fb::Region::Heap))
      return false;
  return true;
}

} // namespace

extern "C" {

capm_status capm_open_bytes(const void *data, size_t size, const char *source,
                            capm_manifest **out, char *error,
                            size_t errorSize) {
  *out = nullptr;
  std::string name = source ? source : "manifest";
  auto corrupt = [&](const char *why) {
    return fail(CAPM_CORRUPT, error, errorSize,
                name + ": not a valid coreai-plan manifest (" + why + ")");
  };
  capm_manifest *m = new (std::nothrow) capm_manifest;
  if (!m)
    return fail(CAPM_OUT_OF_MEMORY, error, errorSize, name + ": out of memory");
  const auto *begin = static_cast<const uint8_t *>(data);
  m->bytes.assign(begin, begin + size);
  const uint8_t *bytes = m->bytes.data();
  constexpr size_t prefix = sizeof(flatbuffers::uoffset_t);
  capm_status status = CAPM_OK;
  if (size < prefix + 8 ||
      !coreai::fb::SizePrefixedManifestBufferHasIdentifier(bytes))
    status = corrupt("no 'CAPM' file identifier");
  else if (flatbuffers::GetPrefixedSize(bytes) + prefix != size)
    status = corrupt("truncated or padded");
  if (status == CAPM_OK) {
    flatbuffers::Verifier header(bytes, size);
    if (!header.VerifySizePrefixedBuffer<coreai::fb::ManifestVersion>("CAPM"))
      status = corrupt("corrupt header");
  }
  if (status == CAPM_OK) {
    uint32_t version =
        flatbuffers::GetSizePrefixedRoot<coreai::fb::ManifestVersion>(bytes)
            ->format_version();
    if (version != CAPM_FORMAT_VERSION)
      status = fail(CAPM_WRONG_VERSION, error, errorSize,
                    name + ": manifest format version " +
                        std::to_string(version) +
                        " is not supported (this reader reads version " +
                        std::to_string(CAPM_FORMAT_VERSION) + ")");
  }
  if (status == CAPM_OK) {
    flatbuffers::Verifier verifier(bytes, size);
    if (!coreai::fb::VerifySizePrefixedManifestBuffer(verifier))
      status = corrupt("corrupt tables");
  }
  if (status == CAPM_OK) {
    m->root = coreai::fb::GetSizePrefixedManifest(bytes);
    if (const auto *entries = m->root->entries())
      for (const coreai::fb::Entry *entry : *entries)
        if (!checkBuffers(entry->buffers(), false) ||
            !checkBuffers(entry->placed(), true))
          status = corrupt("a buffer with an unknown region or a negative "
                           "offset or size");
  }
  if (status != CAPM_OK) {
    delete m;
    return status;
  }
  *out = m;
  return CAPM_OK;
}

capm_status capm_open(const char *path, capm_manifest **out, char *error,
                      size_t errorSize) {
  *out = nullptr;
  std::FILE *file = std::fopen(path, "rb");
  if (!file)
    return fail(CAPM_IO_ERROR, error, errorSize,
                std::string("cannot read '") + path + "': " +
                    std::strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t chunk[65536];
  size_t read;
  while ((read = std::fread(chunk, 1, sizeof chunk, file)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + read);
  bool bad = std::ferror(file);
  std::fclose(file);
  if (bad)
    return fail(CAPM_IO_ERROR, error, errorSize,
                std::string("cannot read '") + path + "'");
  return capm_open_bytes(bytes.data(), bytes.size(), path, out, error,
                         errorSize);
}

void capm_close(capm_manifest *manifest) { delete manifest; }

uint32_t capm_format_version(const capm_manifest *m) {
  return m->root->format_version();
}
const char *capm_target_name(const capm_manifest *m) {
  return m->root->target() ? text(m->root->target()->name()) : "";
}
int64_t capm_target_alignment(const capm_manifest *m) {
  return m->root->target() ? m->root->target()->alignment() : 1;
}
int64_t capm_bundle_heap(const capm_manifest *m) {
  return m->root->bundle_heap();
}

size_t capm_entry_count(const capm_manifest *m) {
  return m->root->entries() ? m->root->entries()->size() : 0;
}
const char *capm_entry_name(const capm_manifest *m, size_t entry) {
  const coreai::fb::Entry *e = entryAt(m, entry);
  return e ? text(e->entry()) : nullptr;
}
int64_t capm_entry_chunk(const capm_manifest *m, size_t entry) {
  const coreai::fb::Entry *e = entryAt(m, entry);
  return e ? e->chunk() : -1;
}
int64_t capm_entry_heap(const capm_manifest *m, size_t entry) {
  const coreai::fb::Entry *e = entryAt(m, entry);
  return e ? e->heap() : -1;
}

capm_status capm_find_entry(const capm_manifest *m, const char *name,
                            int64_t chunk, size_t *entry) {
  for (size_t i = 0, n = capm_entry_count(m); i < n; ++i) {
    const coreai::fb::Entry *e = entryAt(m, i);
    if (e->chunk() == chunk && std::strcmp(text(e->entry()), name) == 0) {
      *entry = i;
      return CAPM_OK;
    }
  }
  return CAPM_NOT_FOUND;
}

size_t capm_buffer_count(const capm_manifest *m, size_t entry) {
  const coreai::fb::Entry *e = entryAt(m, entry);
  if (!e)
    return 0;
  return (e->buffers() ? e->buffers()->size() : 0) +
         (e->placed() ? e->placed()->size() : 0);
}

capm_status capm_get_buffer(const capm_manifest *m, size_t entry, size_t index,
                            capm_buffer *out) {
  const coreai::fb::Entry *e = entryAt(m, entry);
  if (!e)
    return CAPM_NOT_FOUND;
  size_t planned = e->buffers() ? e->buffers()->size() : 0;
  const coreai::fb::Buffer *b = nullptr;
  if (index < planned)
    b = e->buffers()->Get(index);
  else if (e->placed() && index - planned < e->placed()->size())
    b = e->placed()->Get(index - planned);
  if (!b)
    return CAPM_NOT_FOUND;
  out->value = text(b->value());
  out->op = text(b->op());
  out->region = static_cast<capm_region>(b->region());
  out->region_index = b->region_index();
  out->offset = b->offset();
  out->size = b->size();
  out->start = b->start();
  out->end = b->end();
  return CAPM_OK;
}

const char *capm_status_string(capm_status status) {
  switch (status) {
  case CAPM_OK:
    return "ok";
  case CAPM_IO_ERROR:
    return "cannot read the file";
  case CAPM_CORRUPT:
    return "not a valid manifest";
  case CAPM_WRONG_VERSION:
    return "manifest of another format version";
  case CAPM_NOT_FOUND:
    return "not found";
  case CAPM_OUT_OF_MEMORY:
    return "out of memory";
  }
  return "unknown status";
}

} // extern "C"

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

#include <algorithm>
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

/// The plan itself, as the C++ reader checks it (verifyBorrowedPlan): every
/// heap buffer within the heap, every borrowed one within a lent output's
/// bytes and gone before the output is written, and in each region no two
/// buffers live at the same time sharing a byte. A runtime that binds the
/// offsets trusts exactly this.
bool checkPlan(const coreai::fb::Entry *entry) {
  const auto *buffers = entry->buffers();
  if (!buffers)
    return true;
  auto lentOutput = [&](int64_t output) -> const coreai::fb::BorrowedOutput * {
    if (const auto *outputs = entry->borrowed_outputs())
      for (const coreai::fb::BorrowedOutput *o : *outputs)
        if (o->output() == output)
          return o;
    return nullptr;
  };
  // Region key: -1 the heap, k output k.
  std::vector<std::pair<int64_t, uint32_t>> byRegion;
  for (uint32_t i = 0; i < buffers->size(); ++i) {
    const coreai::fb::Buffer *b = buffers->Get(i);
    int64_t end;
    if (b->start() > b->end() ||
        __builtin_add_overflow(b->offset(), b->size(), &end))
      return false;
    if (b->region() == coreai::fb::Region::Heap) {
      if (end > entry->heap())
        return false;
      byRegion.push_back({-1, i});
    } else if (b->region() == coreai::fb::Region::Output) {
      const coreai::fb::BorrowedOutput *o = lentOutput(b->region_index());
      if (!o || end > o->size() || b->end() > o->available_until())
        return false;
      byRegion.push_back({b->region_index(), i});
    } else {
      return false; // state placement is for `placed` values only
    }
  }
  auto startOf = [&](uint32_t i) { return buffers->Get(i)->start(); };
  std::sort(byRegion.begin(), byRegion.end(), [&](auto a, auto b) {
    return a.first != b.first ? a.first < b.first
                              : startOf(a.second) < startOf(b.second);
  });
  std::vector<const coreai::fb::Buffer *> live;
  for (size_t k = 0; k < byRegion.size(); ++k) {
    if (k > 0 && byRegion[k].first != byRegion[k - 1].first)
      live.clear();
    const coreai::fb::Buffer *b = buffers->Get(byRegion[k].second);
    live.erase(std::remove_if(live.begin(), live.end(),
                              [&](const coreai::fb::Buffer *o) {
                                return o->end() <= b->start();
                              }),
               live.end());
    if (b->size() == 0 || b->start() == b->end())
      continue;
    for (const coreai::fb::Buffer *o : live)
      if (b->offset() < o->offset() + o->size() &&
          o->offset() < b->offset() + b->size())
        return false;
    live.push_back(b);
  }
  return true;
}

/// The structure a parametric piece's evaluation relies on (so no input
/// can index out of bounds or loop): a range of at most 4096 sizes
/// (kMaxParametricSpan), sizes of at most three coefficients, power-of-two
/// alignments, `order` a permutation with each buffer after those below
/// it, heap terms naming buffers. Overflow is caught when evaluating.
/// The output at result position `output` a parametric plan borrows.
const coreai::fb::ParametricOutput *
borrowedOutput(const coreai::fb::Parametric *p, int64_t output) {
  if (const auto *outputs = p->borrowed_outputs())
    for (const coreai::fb::ParametricOutput *o : *outputs)
      if (o->output() == output)
        return o;
  return nullptr;
}

bool checkParametric(const coreai::fb::Parametric *p) {
  constexpr int64_t maxSpan = 4096;
  if (!p->entry() || p->lo() < 1 || p->lo() > p->hi() ||
      p->hi() - p->lo() >= maxSpan)
    return false;
  size_t n = p->buffers() ? p->buffers()->size() : 0;
  if ((p->order() ? p->order()->size() : 0) != n)
    return false;
  std::vector<int64_t> rank(n, -1);
  for (size_t r = 0; r < n; ++r) {
    uint32_t i = p->order()->Get(r);
    if (i >= n || rank[i] >= 0)
      return false;
    rank[i] = int64_t(r);
  }
  for (size_t i = 0; i < n; ++i) {
    const coreai::fb::ParametricBuffer *b = p->buffers()->Get(i);
    int64_t align = b->alignment();
    if (align <= 0 || (align & (align - 1)) != 0 || b->start() < 0 ||
        b->end() < b->start() || (b->size() && b->size()->size() > 3))
      return false;
    if (b->below())
      for (uint32_t j : *b->below())
        if (j >= n || rank[j] >= rank[i])
          return false;
  }
  // Borrowed outputs: distinct, sizes of degree at most two; a buffer in
  // an output names one of them and sits only on buffers of its region.
  size_t outputs = p->borrowed_outputs() ? p->borrowed_outputs()->size() : 0;
  for (size_t k = 0; k < outputs; ++k) {
    const coreai::fb::ParametricOutput *o = p->borrowed_outputs()->Get(k);
    if (o->output() < 0 || o->available_until() < 0 ||
        (o->size() && o->size()->size() > 3))
      return false;
    for (size_t other = 0; other < k; ++other)
      if (p->borrowed_outputs()->Get(other)->output() == o->output())
        return false;
  }
  auto sameRegion = [&](const coreai::fb::ParametricBuffer *a,
                        const coreai::fb::ParametricBuffer *b) {
    return a->region() == b->region() &&
           (a->region() == coreai::fb::Region::Heap ||
            a->region_index() == b->region_index());
  };
  for (size_t i = 0; i < n; ++i) {
    const coreai::fb::ParametricBuffer *b = p->buffers()->Get(i);
    if (b->region() == coreai::fb::Region::Output) {
      if (!borrowedOutput(p, b->region_index()))
        return false;
    } else if (b->region() != coreai::fb::Region::Heap) {
      return false;
    }
    if (b->below())
      for (uint32_t j : *b->below())
        if (!sameRegion(b, p->buffers()->Get(j)))
          return false;
  }
  if (p->heap_terms())
    for (uint32_t i : *p->heap_terms())
      if (i >= n || p->buffers()->Get(i)->region() != coreai::fb::Region::Heap)
        return false;
  return true;
}

const coreai::fb::Parametric *pieceAt(const capm_manifest *m, size_t piece) {
  const auto *pieces = m->root->parametric();
  return pieces && piece < pieces->size() ? pieces->Get(piece) : nullptr;
}

/// size(S) = c0 + c1*S + c2*S^2 in checked int64; false on overflow or a
/// negative size.
bool polynomialAt(const flatbuffers::Vector<int64_t> *coefficients, int64_t s,
                  int64_t *out) {
  int64_t value = 0, power = 1;
  if (coefficients)
    for (size_t k = 0; k < coefficients->size(); ++k) {
      int64_t term;
      if (k > 0 && __builtin_mul_overflow(power, s, &power))
        return false;
      if (__builtin_mul_overflow(coefficients->Get(k), power, &term) ||
          __builtin_add_overflow(value, term, &value))
        return false;
    }
  *out = value;
  return value >= 0;
}

bool sizeAt(const coreai::fb::ParametricBuffer *b, int64_t s, int64_t *out) {
  return polynomialAt(b->size(), s, out);
}

/// Offsets at S in evaluation order (each the aligned maximum of the ends
/// of the buffers below it) and the heap (the maximum end over the heap
/// terms), as coreai::ParametricPlan::offsetsAt / heapAt compute them.
capm_status evaluate(const coreai::fb::Parametric *p, int64_t s,
                     int64_t *offsets, int64_t *heap) {
  if (s < p->lo() || s > p->hi())
    return CAPM_OUT_OF_RANGE;
  size_t n = p->buffers() ? p->buffers()->size() : 0;
  std::vector<int64_t> sizes(n);
  for (size_t i = 0; i < n; ++i)
    if (!sizeAt(p->buffers()->Get(i), s, &sizes[i]))
      return CAPM_OVERFLOW;
  auto end = [&](uint32_t j, int64_t *out) {
    return !__builtin_add_overflow(offsets[j], sizes[j], out);
  };
  // The highest end of the listed buffers (0 for none); false on overflow.
  auto highestEnd = [&](const flatbuffers::Vector<uint32_t> *list,
                        int64_t *out) {
    *out = 0;
    int64_t e;
    if (list)
      for (uint32_t j : *list) {
        if (!end(j, &e))
          return false;
        *out = e > *out ? e : *out;
      }
    return true;
  };
  for (uint32_t i : *p->order()) {
    const coreai::fb::ParametricBuffer *b = p->buffers()->Get(i);
    int64_t top;
    if (!highestEnd(b->below(), &top))
      return CAPM_OVERFLOW;
    int64_t align = b->alignment(), padded;
    if (__builtin_add_overflow(top, align - 1, &padded))
      return CAPM_OVERFLOW;
    offsets[i] = padded & ~(align - 1);
  }
  // A buffer borrowed in an output ends within the output's bytes at S.
  for (size_t i = 0; i < n; ++i) {
    const coreai::fb::ParametricBuffer *b = p->buffers()->Get(i);
    if (b->region() != coreai::fb::Region::Output)
      continue;
    int64_t capacity, bufferEnd;
    if (!polynomialAt(borrowedOutput(p, b->region_index())->size(), s,
                      &capacity) ||
        !end(uint32_t(i), &bufferEnd))
      return CAPM_OVERFLOW;
    if (bufferEnd > capacity)
      return CAPM_CORRUPT;
  }
  int64_t highest;
  if (!highestEnd(p->heap_terms(), &highest))
    return CAPM_OVERFLOW;
  if (heap)
    *heap = highest;
  return CAPM_OK;
}

/// An entry of the same function whose planned buffers are the piece's
/// (same ids and live ranges, in the same order; pieces may have op orders
/// of their own), one inside the piece's range first: its value and op
/// names are the parametric buffers'.
const coreai::fb::Entry *namesFor(const capm_manifest *m,
                                  const coreai::fb::Parametric *p) {
  size_t n = p->buffers() ? p->buffers()->size() : 0;
  auto same = [&](const coreai::fb::Entry *e) {
    if (std::strcmp(text(e->entry()), text(p->entry())) != 0 ||
        (e->buffers() ? e->buffers()->size() : 0) != n)
      return false;
    for (size_t i = 0; i < n; ++i) {
      const coreai::fb::Buffer *a = e->buffers()->Get(i);
      const coreai::fb::ParametricBuffer *b = p->buffers()->Get(i);
      if (std::strcmp(text(a->id()), text(b->id())) != 0 ||
          a->start() != b->start() || a->end() != b->end())
        return false;
    }
    return true;
  };
  const coreai::fb::Entry *named = nullptr;
  if (const auto *entries = m->root->entries())
    for (const coreai::fb::Entry *e : *entries) {
      bool inside = e->chunk() >= p->lo() && e->chunk() <= p->hi();
      if (same(e) && (!named || (inside && (named->chunk() < p->lo() ||
                                            named->chunk() > p->hi()))))
        named = e;
    }
  return named;
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
      for (const coreai::fb::Entry *entry : *entries) {
        if (!checkBuffers(entry->buffers(), false) ||
            !checkBuffers(entry->placed(), true))
          status = corrupt("a buffer with an unknown region or a negative "
                           "offset or size");
        else if (!checkPlan(entry))
          status = corrupt("two buffers live at the same time share bytes, "
                           "or a buffer lies outside its heap or output");
        if (status != CAPM_OK)
          break;
      }
    if (const auto *pieces = m->root->parametric())
      for (const coreai::fb::Parametric *p : *pieces)
        if (status == CAPM_OK && !checkParametric(p))
          status = corrupt("a parametric plan with a bad range, alignment, "
                           "size expression or evaluation order");
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
int capm_target_kernels_in_ir_order(const capm_manifest *m) {
  return m->root->target() && m->root->target()->kernels_in_ir_order();
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

int capm_buffer_is_workspace(const capm_manifest *m, size_t entry,
                             size_t index) {
  const coreai::fb::Entry *e = entryAt(m, entry);
  return e && e->buffers() && index < e->buffers()->size() &&
         e->buffers()->Get(index)->workspace();
}

size_t capm_workspace_count(const capm_manifest *m, size_t entry) {
  size_t count = 0;
  const coreai::fb::Entry *e = entryAt(m, entry);
  if (e && e->buffers())
    for (const coreai::fb::Buffer *b : *e->buffers())
      count += b->workspace() ? 1 : 0;
  return count;
}

capm_status capm_get_workspace(const capm_manifest *m, size_t entry,
                               size_t index, capm_buffer *out,
                               size_t *buffer) {
  const coreai::fb::Entry *e = entryAt(m, entry);
  if (!e || !e->buffers())
    return CAPM_NOT_FOUND;
  for (size_t b = 0; b < e->buffers()->size(); ++b) {
    if (!e->buffers()->Get(b)->workspace())
      continue;
    if (index-- > 0)
      continue;
    if (buffer)
      *buffer = b;
    return capm_get_buffer(m, entry, b, out);
  }
  return CAPM_NOT_FOUND;
}

size_t capm_variant_count(const capm_manifest *m, size_t entry) {
  const coreai::fb::Entry *e = entryAt(m, entry);
  return e && e->variants() ? e->variants()->size() : 0;
}

capm_status capm_get_variant(const capm_manifest *m, size_t entry,
                             size_t index, capm_variant *out) {
  const coreai::fb::Entry *e = entryAt(m, entry);
  if (!e || !e->variants() || index >= e->variants()->size() || !out)
    return CAPM_NOT_FOUND;
  const coreai::fb::VariantChoice *v = e->variants()->Get(index);
  out->op = text(v->op());
  out->location = text(v->location());
  out->variant = text(v->variant());
  out->workspace = v->bytes();
  return CAPM_OK;
}

size_t capm_parametric_count(const capm_manifest *m) {
  return m->root->parametric() ? m->root->parametric()->size() : 0;
}

capm_status capm_get_parametric(const capm_manifest *m, size_t piece,
                                capm_parametric *out) {
  const coreai::fb::Parametric *p = pieceAt(m, piece);
  if (!p)
    return CAPM_NOT_FOUND;
  out->entry = text(p->entry());
  out->symbol = text(p->symbol());
  out->lo = p->lo();
  out->hi = p->hi();
  out->alignment = p->alignment();
  out->buffer_count = p->buffers() ? p->buffers()->size() : 0;
  out->borrowed_output_count =
      p->borrowed_outputs() ? p->borrowed_outputs()->size() : 0;
  return CAPM_OK;
}

capm_status capm_parametric_borrowed_output(const capm_manifest *m,
                                            size_t piece, size_t index,
                                            int64_t s, int64_t *output,
                                            int64_t *size,
                                            int64_t *available_until) {
  const coreai::fb::Parametric *p = pieceAt(m, piece);
  if (!p || !p->borrowed_outputs() || index >= p->borrowed_outputs()->size())
    return CAPM_NOT_FOUND;
  if (s < p->lo() || s > p->hi())
    return CAPM_OUT_OF_RANGE;
  const coreai::fb::ParametricOutput *o = p->borrowed_outputs()->Get(index);
  if (!polynomialAt(o->size(), s, size))
    return CAPM_OVERFLOW;
  *output = o->output();
  *available_until = o->available_until();
  return CAPM_OK;
}

capm_status capm_parametric_range(const capm_manifest *m, const char *name,
                                  int64_t *lo, int64_t *hi) {
  bool found = false;
  for (size_t i = 0, n = capm_parametric_count(m); i < n; ++i) {
    const coreai::fb::Parametric *p = pieceAt(m, i);
    if (std::strcmp(text(p->entry()), name) != 0)
      continue;
    *lo = found && *lo < p->lo() ? *lo : p->lo();
    *hi = found && *hi > p->hi() ? *hi : p->hi();
    found = true;
  }
  return found ? CAPM_OK : CAPM_NOT_FOUND;
}

capm_status capm_find_parametric(const capm_manifest *m, const char *name,
                                 int64_t s, size_t *piece, char *error,
                                 size_t errorSize) {
  std::string ranges;
  for (size_t i = 0, n = capm_parametric_count(m); i < n; ++i) {
    const coreai::fb::Parametric *p = pieceAt(m, i);
    if (std::strcmp(text(p->entry()), name) != 0)
      continue;
    if (s >= p->lo() && s <= p->hi()) {
      *piece = i;
      return CAPM_OK;
    }
    ranges += std::string(ranges.empty() ? "" : ", ") + "[" +
              std::to_string(p->lo()) + ", " + std::to_string(p->hi()) + "]";
  }
  if (ranges.empty())
    return fail(CAPM_NOT_FOUND, error, errorSize,
                std::string("no parametric plan of '") + name + "'");
  return fail(CAPM_OUT_OF_RANGE, error, errorSize,
              "S=" + std::to_string(s) + " is outside the parametric plan of '" +
                  name + "' (S in " + ranges + ")");
}

capm_status capm_parametric_heap(const capm_manifest *m, size_t piece,
                                 int64_t s, int64_t *heap) {
  const coreai::fb::Parametric *p = pieceAt(m, piece);
  if (!p)
    return CAPM_NOT_FOUND;
  std::vector<int64_t> offsets;
  try {
    offsets.resize(p->buffers() ? p->buffers()->size() : 0);
  } catch (const std::bad_alloc &) {
    return CAPM_OUT_OF_MEMORY;
  }
  return evaluate(p, s, offsets.data(), heap);
}

capm_status capm_parametric_offsets(const capm_manifest *m, size_t piece,
                                    int64_t s, int64_t *offsets,
                                    size_t count) {
  const coreai::fb::Parametric *p = pieceAt(m, piece);
  if (!p || count != (p->buffers() ? p->buffers()->size() : 0))
    return CAPM_NOT_FOUND;
  return evaluate(p, s, offsets, nullptr);
}

capm_status capm_parametric_buffer(const capm_manifest *m, size_t piece,
                                   int64_t s, size_t index,
                                   capm_buffer *out) {
  const coreai::fb::Parametric *p = pieceAt(m, piece);
  size_t n = p && p->buffers() ? p->buffers()->size() : 0;
  if (index >= n)
    return CAPM_NOT_FOUND;
  std::vector<int64_t> offsets;
  try {
    offsets.resize(n);
  } catch (const std::bad_alloc &) {
    return CAPM_OUT_OF_MEMORY;
  }
  if (capm_status status = evaluate(p, s, offsets.data(), nullptr))
    return status;
  const coreai::fb::ParametricBuffer *b = p->buffers()->Get(index);
  const coreai::fb::Entry *names = namesFor(m, p);
  const coreai::fb::Buffer *named =
      names ? names->buffers()->Get(index) : nullptr;
  out->value = named ? text(named->value()) : text(b->id());
  out->op = named ? text(named->op()) : "";
  out->region = static_cast<capm_region>(b->region());
  out->region_index = b->region_index();
  out->offset = offsets[index];
  sizeAt(b, s, &out->size); // evaluate() has checked it at s
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
  case CAPM_OUT_OF_RANGE:
    return "S outside the parametric plan's range";
  case CAPM_OVERFLOW:
    return "an expression overflows at S";
  }
  return "unknown status";
}

} // extern "C"

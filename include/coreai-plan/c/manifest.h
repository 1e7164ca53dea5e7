/*===- manifest.h - C reader of coreai-plan manifests for runtimes -------===*
 *
 * What a runtime links to bind every buffer of a planned bundle: open and
 * verify a plan.manifest (FlatBuffers, format version 2), read the bundle
 * heap, and per entry point and chunk size S the region (heap, output k,
 * state k) and offset of each buffer, and a parametric plan (`plan --chunks
 * A..B`) evaluated at any S of its range. C ABI; no MLIR or LLVM needed: the
 * library is the FlatBuffers verifier and accessors behind these calls.
 * docs/MANIFEST.md describes the fields.
 *
 *===----------------------------------------------------------------------===*/
#ifndef COREAI_PLAN_C_MANIFEST_H
#define COREAI_PLAN_C_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The manifest format version this reader reads. */
#define CAPM_FORMAT_VERSION 3u

typedef struct capm_manifest capm_manifest;

typedef enum capm_status {
  CAPM_OK = 0,
  CAPM_IO_ERROR = 1,      /* the file cannot be read */
  CAPM_CORRUPT = 2,       /* not a manifest, truncated or failing verification */
  CAPM_WRONG_VERSION = 3, /* a manifest of another format version */
  CAPM_NOT_FOUND = 4,     /* no such entry point, S or index */
  CAPM_OUT_OF_MEMORY = 5,
  CAPM_OUT_OF_RANGE = 6,  /* S outside every range of a parametric plan */
  CAPM_OVERFLOW = 7       /* an expression leaves int64 (or a size < 0) at S */
} capm_status;

typedef enum capm_region {
  CAPM_REGION_HEAP = 0,   /* the bundle's scratch heap */
  CAPM_REGION_OUTPUT = 1, /* the storage of output `region_index` */
  CAPM_REGION_STATE = 2   /* the storage of state argument `region_index` */
} capm_region;

typedef struct capm_buffer {
  const char *value;    /* SSA name in the graph (`%30`) */
  const char *op;       /* producing op */
  capm_region region;
  int64_t region_index; /* output position or state argument; 0 for heap */
  int64_t offset;       /* bytes from the start of the region */
  int64_t size;         /* bytes */
  int64_t start, end;   /* live on [start, end) of op positions */
} capm_buffer;

/* Reads and verifies `path`. On success *out owns the manifest (free it
 * with capm_close). On failure *out is NULL and, when `error` is not NULL,
 * a message naming the path and the reason is written into it
 * (NUL-terminated, at most `error_size` bytes). */
capm_status capm_open(const char *path, capm_manifest **out, char *error,
                      size_t error_size);
/* The same over bytes in memory (copied). `source` names them in errors. */
capm_status capm_open_bytes(const void *bytes, size_t size, const char *source,
                            capm_manifest **out, char *error,
                            size_t error_size);
void capm_close(capm_manifest *manifest);

uint32_t capm_format_version(const capm_manifest *manifest);
const char *capm_target_name(const capm_manifest *manifest);
int64_t capm_target_alignment(const capm_manifest *manifest);
/* 1 when the plan relies on the runtime running each fused kernel's ops in
   the order the planned IR lists them (docs/FUSION.md); a runtime that
   reorders a kernel's ops must refuse such a manifest. 0 otherwise. */
int capm_target_kernels_in_ir_order(const capm_manifest *manifest);
/* The heap every entry of the bundle fits in (bytes). */
int64_t capm_bundle_heap(const capm_manifest *manifest);

size_t capm_entry_count(const capm_manifest *manifest);
const char *capm_entry_name(const capm_manifest *manifest, size_t entry);
int64_t capm_entry_chunk(const capm_manifest *manifest, size_t entry);
int64_t capm_entry_heap(const capm_manifest *manifest, size_t entry);
/* The entry planned for function `name` at chunk size `chunk`. */
capm_status capm_find_entry(const capm_manifest *manifest, const char *name,
                            int64_t chunk, size_t *entry);

/* Every buffer the runtime binds for one entry: first the planned
 * intermediates (heap or borrowed in an output), then the values written
 * straight into an output's or a state's storage. */
size_t capm_buffer_count(const capm_manifest *manifest, size_t entry);
capm_status capm_get_buffer(const capm_manifest *manifest, size_t entry,
                            size_t index, capm_buffer *out);

/* The kernels' workspaces of one entry (docs/WORKSPACE.md): scratch an op's
 * kernel uses only while it runs, planned like a buffer (in the heap or
 * borrowed in an output) and counted among capm_buffer_count's buffers.
 * `index` < capm_workspace_count; *out describes it as a buffer (`value`
 * its id, `op` the op whose kernel uses it, live on [start, end): that op
 * or the fused kernel it ends), *buffer (when not NULL) its index for
 * capm_get_buffer. */
size_t capm_workspace_count(const capm_manifest *manifest, size_t entry);
capm_status capm_get_workspace(const capm_manifest *manifest, size_t entry,
                               size_t index, capm_buffer *out,
                               size_t *buffer);
/* Whether buffer `index` of the entry is a workspace (0 or 1; 0 when there
 * is no such buffer). */
int capm_buffer_is_workspace(const capm_manifest *manifest, size_t entry,
                             size_t index);

/* The kernel variant the runtime must run for each op of one entry whose
 * target rule offers several needing different workspace (docs/WORKSPACE.md,
 * "Kernel variants"): `op` the op's name (`torch.aten.mm`), `location` its
 * source location, `variant` the variant's name in the target (`direct`),
 * `workspace` the bytes it needs (the entry's workspace buffer of its step
 * holds them). Every op with such a choice is listed, in the entries of
 * parametric plans too (one variant per op for every S of a piece); an op
 * not listed has none there: it runs its rule's only
 * variant, or the cheapest among those needing the same workspace. Strings
 * live as long as the manifest. `index` < capm_variant_count. */
typedef struct capm_variant {
  const char *op;
  const char *location;
  const char *variant;
  int64_t workspace;
} capm_variant;
size_t capm_variant_count(const capm_manifest *manifest, size_t entry);
capm_status capm_get_variant(const capm_manifest *manifest, size_t entry,
                             size_t index, capm_variant *out);

/* Parametric plans: an entry point planned once for every integer S in a
 * range, in one or more pieces with disjoint ranges. Sizes are polynomials
 * in S, offsets aligned maxima over the buffers below (docs/PARAMETRIC.md);
 * these calls evaluate them with checked 64-bit arithmetic, exactly as the
 * planner does. A buffer is in the heap (CAPM_REGION_HEAP) or borrowed in
 * an output (CAPM_REGION_OUTPUT, region_index its result position) at every
 * S of the piece, its offset relative to that region; the outputs' sizes are
 * polynomials in S too (capm_parametric_borrowed_output), and a borrowed
 * buffer that would end beyond its output at S is CAPM_CORRUPT. Values
 * placed straight into an output's or a state's storage are not part of
 * it (they sit at offset 0 there, as in the entries at any S). */
typedef struct capm_parametric {
  const char *entry;   /* function name */
  const char *symbol;  /* the shape symbol bound to S */
  int64_t lo, hi;      /* the piece holds for every integer S in [lo, hi] */
  int64_t alignment;
  size_t buffer_count;
  size_t borrowed_output_count; /* outputs lent to the plan */
} capm_parametric;

size_t capm_parametric_count(const capm_manifest *manifest);
capm_status capm_get_parametric(const capm_manifest *manifest, size_t piece,
                                capm_parametric *out);
/* The smallest lo and largest hi over the pieces of entry point `name`;
 * CAPM_NOT_FOUND when it has no parametric plan. */
capm_status capm_parametric_range(const capm_manifest *manifest,
                                  const char *name, int64_t *lo, int64_t *hi);
/* The piece of `name` whose range holds `s`. CAPM_NOT_FOUND when `name`
 * has no parametric plan, CAPM_OUT_OF_RANGE when no piece holds `s`; the
 * message (when `error` is not NULL) names the ranges. */
capm_status capm_find_parametric(const capm_manifest *manifest,
                                 const char *name, int64_t s, size_t *piece,
                                 char *error, size_t error_size);
/* heap(S) of one piece; CAPM_OUT_OF_RANGE when `s` is outside its range. */
capm_status capm_parametric_heap(const capm_manifest *manifest, size_t piece,
                                 int64_t s, int64_t *heap);
/* Every buffer's offset at S, in one pass: `offsets` holds `count` values
 * and `count` must be the piece's buffer_count (else CAPM_NOT_FOUND). */
capm_status capm_parametric_offsets(const capm_manifest *manifest,
                                    size_t piece, int64_t s, int64_t *offsets,
                                    size_t count);
/* One buffer at S (value and op from an entry of the same function when
 * the manifest has one, else the buffer id and ""). Evaluates the whole
 * piece: to bind every buffer, prefer capm_parametric_offsets. */
capm_status capm_parametric_buffer(const capm_manifest *manifest,
                                   size_t piece, int64_t s, size_t index,
                                   capm_buffer *out);

/* Borrowed output `index` (< borrowed_output_count) of a piece at S: its
 * result position, its bytes at S, and the op position that first writes
 * its own value (every buffer borrowed there has ended by then). */
capm_status capm_parametric_borrowed_output(const capm_manifest *manifest,
                                            size_t piece, size_t index,
                                            int64_t s, int64_t *output,
                                            int64_t *size,
                                            int64_t *available_until);

/* A static description of a status ("corrupt manifest", ...). */
const char *capm_status_string(capm_status status);

#ifdef __cplusplus
}
#endif

#endif /* COREAI_PLAN_C_MANIFEST_H */

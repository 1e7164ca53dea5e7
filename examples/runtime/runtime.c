/* A stand-in for a runtime binding a planned bundle, through the installed
 * C reader only (coreai-plan/c/manifest.h).
 *
 *   coreai-runtime-example MANIFEST           every entry, "NAME S" a line
 *   coreai-runtime-example MANIFEST NAME S    bind entry NAME at chunk S
 *
 * Binding is what a runtime does before it calls the entry: allocate one
 * scratch heap of the bundle's size at the target's alignment (the same
 * heap serves every entry), take the caller's output and state storages,
 * and give every buffer its address: heap + offset, or the lent output's
 * (or the state's) storage + offset. It then checks what it relies on: each
 * buffer lies inside its storage at an aligned address, and no two buffers
 * whose live ranges meet share a byte of memory. Exits 0 when all holds,
 * 1 when the manifest or the entry cannot be read, 2 when a check fails. */
#include "coreai-plan/c/manifest.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One storage the runtime owns: the heap, an output or a state tensor. */
typedef struct storage {
  unsigned char *base;
  int64_t size;
  int used; /* some buffer of the entry is bound in it */
} storage;

typedef struct binding {
  capm_buffer buffer;
  unsigned char *address;
} binding;

static int64_t round_up(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/* aligned_alloc wants a size that is a multiple of the alignment. */
static unsigned char *allocate(int64_t size, int64_t alignment) {
  return aligned_alloc((size_t)alignment,
                       (size_t)round_up(size > 0 ? size : 1, alignment));
}

static int by_address(const void *a, const void *b) {
  const binding *x = a, *y = b;
  return x->address < y->address ? -1 : x->address > y->address;
}

static int list_entries(const capm_manifest *m) {
  for (size_t e = 0; e < capm_entry_count(m); ++e)
    printf("%s %" PRId64 "\n", capm_entry_name(m, e), capm_entry_chunk(m, e));
  return 0;
}

/* The caller's output and state tensors, indexed by result or argument
 * position. Their sizes come from the graph's signature in a real runtime;
 * here each is as large as the furthest byte any buffer of the entry uses
 * in it. `used` counts those the entry binds anything in. */
static storage *allocate_storages(const binding *bindings, size_t count,
                                  capm_region region, int64_t alignment,
                                  size_t *storage_count, size_t *used) {
  size_t n = 0;
  for (size_t i = 0; i < count; ++i)
    if (bindings[i].buffer.region == region &&
        (size_t)bindings[i].buffer.region_index + 1 > n)
      n = (size_t)bindings[i].buffer.region_index + 1;
  storage *storages = calloc(n ? n : 1, sizeof *storages);
  for (size_t i = 0; i < count; ++i) {
    const capm_buffer *b = &bindings[i].buffer;
    if (b->region != region)
      continue;
    storages[b->region_index].used = 1;
    if (b->offset + b->size > storages[b->region_index].size)
      storages[b->region_index].size = b->offset + b->size;
  }
  *used = 0;
  for (size_t k = 0; k < n; ++k) {
    storages[k].base = allocate(storages[k].size, alignment);
    *used += (size_t)storages[k].used;
  }
  *storage_count = n;
  return storages;
}

static void free_storages(storage *storages, size_t count) {
  for (size_t k = 0; k < count; ++k)
    free(storages[k].base);
  free(storages);
}

/* Two buffers conflict when their bytes meet while both are live. Sorted
 * by address, a buffer can only meet those after it that start before it
 * ends. */
static int check_no_live_overlap(binding *bindings, size_t count) {
  qsort(bindings, count, sizeof *bindings, by_address);
  for (size_t i = 0; i < count; ++i) {
    const capm_buffer *a = &bindings[i].buffer;
    unsigned char *end = bindings[i].address + a->size;
    for (size_t j = i + 1; j < count && bindings[j].address < end; ++j) {
      const capm_buffer *b = &bindings[j].buffer;
      if (b->size > 0 && a->start < b->end && b->start < a->end) {
        fprintf(stderr,
                "%s and %s share memory while both are live ([%" PRId64
                ", %" PRId64 ") and [%" PRId64 ", %" PRId64 "))\n",
                a->value, b->value, a->start, a->end, b->start, b->end);
        return 2;
      }
    }
  }
  return 0;
}

static int bind_entry(const capm_manifest *m, const char *name, int64_t s) {
  size_t entry;
  if (capm_find_entry(m, name, s, &entry) != CAPM_OK) {
    fprintf(stderr, "no entry %s at S=%" PRId64 "\n", name, s);
    return 1;
  }
  int64_t alignment = capm_target_alignment(m);
  int64_t entry_heap = capm_entry_heap(m, entry);
  storage heap = {allocate(capm_bundle_heap(m), alignment),
                  capm_bundle_heap(m), 1};
  size_t count = capm_buffer_count(m, entry);
  binding *bindings = calloc(count ? count : 1, sizeof *bindings);
  int status = 0;
  for (size_t i = 0; i < count && status == 0; ++i)
    if (capm_get_buffer(m, entry, i, &bindings[i].buffer) != CAPM_OK) {
      fprintf(stderr, "buffer %zu unreadable\n", i);
      status = 1;
    }
  size_t output_count, outputs_used, state_count, states_used;
  storage *outputs = allocate_storages(bindings, count, CAPM_REGION_OUTPUT,
                                       alignment, &output_count, &outputs_used);
  storage *states = allocate_storages(bindings, count, CAPM_REGION_STATE,
                                      alignment, &state_count, &states_used);

  size_t in_heap = 0, in_outputs = 0, in_state = 0;
  int64_t heap_top = 0;
  for (size_t i = 0; i < count && status == 0; ++i) {
    const capm_buffer *b = &bindings[i].buffer;
    const storage *in = &heap;
    if (b->region == CAPM_REGION_HEAP) {
      ++in_heap;
      if (b->offset + b->size > heap_top)
        heap_top = b->offset + b->size;
    } else if (b->region == CAPM_REGION_OUTPUT) {
      ++in_outputs;
      in = &outputs[b->region_index];
    } else {
      ++in_state;
      in = &states[b->region_index];
    }
    bindings[i].address = in->base + b->offset;
    if (b->offset < 0 || b->offset + b->size > in->size ||
        (b->region == CAPM_REGION_HEAP && b->offset + b->size > entry_heap)) {
      fprintf(stderr, "%s: outside its storage\n", b->value);
      status = 2;
    } else if (b->region != CAPM_REGION_STATE &&
               (uintptr_t)bindings[i].address % (uintptr_t)alignment != 0) {
      fprintf(stderr, "%s: address not aligned to %" PRId64 "\n", b->value,
              alignment);
      status = 2;
    }
  }
  if (status == 0)
    status = check_no_live_overlap(bindings, count);
  if (status == 0)
    printf("%s S=%" PRId64 ": %zu buffers bound, %zu in the heap (%" PRId64
           " of its %" PRId64 " bytes, alignment %" PRId64 "), %zu in "
           "%zu outputs (lent, or the output's own value), %zu in %zu "
           "states; no two live buffers overlap\n",
           name, s, count, in_heap, heap_top, heap.size, alignment, in_outputs,
           outputs_used, in_state, states_used);
  free_storages(outputs, output_count);
  free_storages(states, state_count);
  free(bindings);
  free(heap.base);
  return status;
}

/* The manifest at `path`, or NULL after saying why on stderr. */
static capm_manifest *open_manifest(const char *path) {
  char why[512];
  capm_manifest *m = NULL;
  capm_status status = capm_open(path, &m, why, sizeof why);
  if (status == CAPM_OK)
    return m;
  fprintf(stderr, "error (%s): %s\n", capm_status_string(status), why);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 4) {
    fprintf(stderr, "usage: %s MANIFEST [ENTRY S]\n", argv[0]);
    return 1;
  }
  capm_manifest *m = open_manifest(argv[1]);
  if (!m)
    return 1;
  int code = argc == 2 ? list_entries(m)
                       : bind_entry(m, argv[2], strtoll(argv[3], NULL, 10));
  capm_close(m);
  return code;
}

/* A runtime's view of a manifest through the C reader, compiled as C.
 *
 *   coreai-plan-c-reader MANIFEST            summary of every entry
 *   coreai-plan-c-reader MANIFEST ENTRY S    every buffer of one entry
 *   coreai-plan-c-reader MANIFEST --parametric ENTRY S...
 *                                            the parametric plan at each S
 *
 * Checks what a runtime relies on while binding: heap buffers lie inside
 * the entry's heap, the entry's heap inside the bundle heap, and offsets
 * in the heap or an output are multiples of the target's alignment. A
 * parametric plan evaluated at S must also give the offsets and sizes of
 * the manifest's entry at S when it has one (an instance the planner
 * wrote). Exits 1 with the reader's message when the file is refused, 2 when a
 * check fails. */
#include "coreai-plan/c/manifest.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *region_name(capm_region region) {
  switch (region) {
  case CAPM_REGION_HEAP:
    return "heap";
  case CAPM_REGION_OUTPUT:
    return "output";
  case CAPM_REGION_STATE:
    return "state";
  }
  return "?";
}

static int check_entry(const capm_manifest *m, size_t e, int print) {
  int64_t heap = capm_entry_heap(m, e);
  int64_t alignment = capm_target_alignment(m);
  size_t count = capm_buffer_count(m, e), in_heap = 0, in_output = 0,
         in_state = 0;
  if (heap > capm_bundle_heap(m)) {
    fprintf(stderr, "entry %s: heap above the bundle heap\n",
            capm_entry_name(m, e));
    return 2;
  }
  for (size_t i = 0; i < count; ++i) {
    capm_buffer b;
    if (capm_get_buffer(m, e, i, &b) != CAPM_OK)
      return 2;
    if (b.region == CAPM_REGION_HEAP) {
      ++in_heap;
      if (b.offset + b.size > heap) {
        fprintf(stderr, "%s: outside the heap\n", b.value);
        return 2;
      }
    } else if (b.region == CAPM_REGION_OUTPUT) {
      ++in_output;
    } else {
      ++in_state;
    }
    if (b.region != CAPM_REGION_STATE && b.offset % alignment != 0) {
      fprintf(stderr, "%s: offset %" PRId64 " not aligned\n", b.value,
              b.offset);
      return 2;
    }
    if (print)
      printf("%s %s %" PRId64 " offset %" PRId64 " size %" PRId64 "\n",
             b.value, region_name(b.region), b.region_index, b.offset, b.size);
  }
  /* Workspaces are buffers too: each found among them by its index. */
  for (size_t i = 0; i < capm_workspace_count(m, e); ++i) {
    capm_buffer b;
    size_t index;
    if (capm_get_workspace(m, e, i, &b, &index) != CAPM_OK ||
        !capm_buffer_is_workspace(m, e, index) || b.end <= b.start ||
        b.size <= 0) {
      fprintf(stderr, "workspace %zu: not a workspace buffer\n",
              i);
      return 2;
    }
    if (print)
      printf("workspace %s of %s: %s %" PRId64 " offset %" PRId64
             " size %" PRId64 " during [%" PRId64 ", %" PRId64 ")\n",
             b.value, b.op, region_name(b.region), b.region_index, b.offset,
             b.size, b.start, b.end);
  }
  /* The kernel variant of each op with a choice. */
  for (size_t i = 0; i < capm_variant_count(m, e); ++i) {
    capm_variant v;
    if (capm_get_variant(m, e, i, &v) != CAPM_OK || v.workspace < 0) {
      fprintf(stderr, "variant %zu: unreadable\n", i);
      return 2;
    }
    if (print)
      printf("variant %s of %s at %s: workspace %" PRId64 "\n", v.variant,
             v.op, v.location, v.workspace);
  }
  printf("entry %s S=%" PRId64 " heap %" PRId64 ": %zu in heap, %zu in "
         "outputs, %zu in state\n",
         capm_entry_name(m, e), capm_entry_chunk(m, e), heap, in_heap,
         in_output, in_state);
  return 0;
}

/* The parametric plan of `name` at `s`: heap, then every buffer. */
static int check_parametric(const capm_manifest *m, const char *name,
                            int64_t s) {
  char error[512];
  size_t piece, instance;
  capm_status status = capm_find_parametric(m, name, s, &piece, error,
                                            sizeof error);
  if (status != CAPM_OK) {
    fprintf(stderr, "error (%s): %s\n", capm_status_string(status), error);
    return 1;
  }
  capm_parametric p;
  int64_t heap, alignment = capm_target_alignment(m);
  capm_get_parametric(m, piece, &p);
  status = capm_parametric_heap(m, piece, s, &heap);
  if (status != CAPM_OK) {
    fprintf(stderr, "error (%s) at S=%" PRId64 "\n",
            capm_status_string(status), s);
    return 1;
  }
  int has_instance = capm_find_entry(m, name, s, &instance) == CAPM_OK;
  printf("parametric %s S=%" PRId64 " in [%" PRId64 ", %" PRId64
         "] heap %" PRId64 "\n",
         name, s, p.lo, p.hi, heap);
  for (size_t k = 0; k < p.borrowed_output_count; ++k) {
    int64_t output, size, until;
    status = capm_parametric_borrowed_output(m, piece, k, s, &output, &size,
                                             &until);
    if (status != CAPM_OK) {
      fprintf(stderr, "error (%s) at S=%" PRId64 "\n",
              capm_status_string(status), s);
      return 1;
    }
    printf("borrowed output %" PRId64 " size %" PRId64 " until %" PRId64 "\n",
           output, size, until);
  }
  if (heap > capm_bundle_heap(m) ||
      (has_instance && heap != capm_entry_heap(m, instance))) {
    fprintf(stderr, "S=%" PRId64 ": heap above the bundle heap or not the "
                    "entry's\n", s);
    return 2;
  }
  for (size_t i = 0; i < p.buffer_count; ++i) {
    capm_buffer b, expected;
    status = capm_parametric_buffer(m, piece, s, i, &b);
    if (status != CAPM_OK) {
      fprintf(stderr, "error (%s) at S=%" PRId64 "\n",
              capm_status_string(status), s);
      return 1;
    }
    int64_t region_size = heap;
    if (b.region == CAPM_REGION_OUTPUT) {
      region_size = -1;
      for (size_t k = 0; k < p.borrowed_output_count; ++k) {
        int64_t output, size, until;
        if (capm_parametric_borrowed_output(m, piece, k, s, &output, &size,
                                            &until) == CAPM_OK &&
            output == b.region_index && b.end <= until)
          region_size = size;
      }
    }
    if (b.offset + b.size > region_size || b.offset % alignment != 0) {
      fprintf(stderr, "%s: outside its region or not aligned\n", b.value);
      return 2;
    }
    if (has_instance &&
        (capm_get_buffer(m, instance, i, &expected) != CAPM_OK ||
         expected.offset != b.offset || expected.size != b.size ||
         expected.region != b.region)) {
      fprintf(stderr, "%s: not where the entry at S=%" PRId64 " has it\n",
              b.value, s);
      return 2;
    }
    printf("%s %s offset %" PRId64 " size %" PRId64 "\n", b.value,
           region_name(b.region), b.offset, b.size);
  }
  return 0;
}

int main(int argc, char **argv) {
  int parametric = argc >= 5 && strcmp(argv[2], "--parametric") == 0;
  if (argc != 2 && argc != 4 && !parametric) {
    fprintf(stderr, "usage: %s MANIFEST [ENTRY S | --parametric ENTRY S...]\n",
            argv[0]);
    return 1;
  }
  char error[512];
  capm_manifest *m = NULL;
  capm_status status = capm_open(argv[1], &m, error, sizeof error);
  if (status != CAPM_OK) {
    fprintf(stderr, "error (%s): %s\n", capm_status_string(status), error);
    return 1;
  }
  printf("format %u target %s alignment %" PRId64 " bundle heap %" PRId64
         "\n",
         capm_format_version(m), capm_target_name(m), capm_target_alignment(m),
         capm_bundle_heap(m));
  if (capm_target_kernels_in_ir_order(m))
    printf("kernels run their ops in IR order\n");
  int result = 0;
  if (parametric) {
    int64_t lo, hi;
    if (capm_parametric_range(m, argv[3], &lo, &hi) == CAPM_OK)
      printf("parametric %s range [%" PRId64 ", %" PRId64 "]\n", argv[3], lo,
             hi);
    for (int i = 4; i < argc && result == 0; ++i)
      result = check_parametric(m, argv[3], strtoll(argv[i], NULL, 10));
  } else if (argc == 4) {
    size_t e;
    if (capm_find_entry(m, argv[2], strtoll(argv[3], NULL, 10), &e) !=
        CAPM_OK) {
      fprintf(stderr, "error: no entry %s at S=%s\n", argv[2], argv[3]);
      result = 1;
    } else {
      result = check_entry(m, e, 1);
    }
  } else {
    for (size_t e = 0; e < capm_entry_count(m) && result == 0; ++e)
      result = check_entry(m, e, 0);
    for (size_t i = 0; i < capm_parametric_count(m); ++i) {
      capm_parametric p;
      capm_get_parametric(m, i, &p);
      printf("parametric %s %s in [%" PRId64 ", %" PRId64 "]: %zu buffers\n",
             p.entry, p.symbol, p.lo, p.hi, p.buffer_count);
    }
  }
  capm_close(m);
  return result;
}

//===- CReaderFuzzer.cpp - the runtimes' C reader under libFuzzer ---------===//
//
// Any bytes go into capm_open_bytes; what it accepts is walked entry by
// entry and buffer by buffer, and each parametric piece evaluated at its
// ends (heap, buffers with their regions, borrowed outputs), as a runtime
// binding it would.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/c/manifest.h"

#include "FuzzCheck.h"

#include <initializer_list>

using coreai::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  capm_manifest *manifest = nullptr;
  char error[256];
  if (capm_open_bytes(data, size, "fuzz.manifest", &manifest, error,
                      sizeof error) != CAPM_OK) {
    check(!manifest, "a refused file was opened");
    return 0;
  }
  for (size_t e = 0, n = capm_entry_count(manifest); e < n; ++e) {
    size_t found = 0;
    check(capm_find_entry(manifest, capm_entry_name(manifest, e),
                          capm_entry_chunk(manifest, e), &found) == CAPM_OK,
          "an entry is found by its name and chunk");
    for (size_t b = 0, count = capm_buffer_count(manifest, e); b < count;
         ++b) {
      capm_buffer buffer;
      check(capm_get_buffer(manifest, e, b, &buffer) == CAPM_OK &&
                buffer.offset >= 0 && buffer.size >= 0 && buffer.value,
            "a listed buffer reads back whole");
    }
  }
  for (size_t piece = 0, n = capm_parametric_count(manifest); piece < n;
       ++piece) {
    capm_parametric p;
    check(capm_get_parametric(manifest, piece, &p) == CAPM_OK,
          "a listed parametric piece reads back");
    for (int64_t s : {p.lo, p.hi}) {
      int64_t heap = 0;
      // Overflowing expressions and outputs too small at S are statuses.
      if (capm_parametric_heap(manifest, piece, s, &heap) != CAPM_OK)
        continue;
      for (size_t b = 0; b < p.buffer_count; ++b) {
        capm_buffer buffer;
        check(capm_parametric_buffer(manifest, piece, s, b, &buffer) ==
                      CAPM_OK &&
                  buffer.offset >= 0 && buffer.size >= 0 &&
                  (buffer.region == CAPM_REGION_HEAP ||
                   buffer.region == CAPM_REGION_OUTPUT),
              "a parametric buffer evaluates, in the heap or an output");
      }
      for (size_t k = 0; k < p.borrowed_output_count; ++k) {
        int64_t output, bytes, until;
        capm_status status = capm_parametric_borrowed_output(
            manifest, piece, k, s, &output, &bytes, &until);
        check(status == CAPM_OVERFLOW || (status == CAPM_OK && bytes >= 0),
              "a borrowed output's size at S is a size or an overflow");
      }
    }
  }
  capm_close(manifest);
  return 0;
}

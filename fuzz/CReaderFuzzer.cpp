//===- CReaderFuzzer.cpp - the runtimes' C reader under libFuzzer ---------===//
//
// Any bytes go into capm_open_bytes; what it accepts is walked entry by
// entry and buffer by buffer, as a runtime binding it would.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/c/manifest.h"

#include "FuzzCheck.h"

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
  capm_close(manifest);
  return 0;
}

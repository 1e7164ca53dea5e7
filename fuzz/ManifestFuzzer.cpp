//===- ManifestFuzzer.cpp - manifest readers under libFuzzer --------------===//
//
// Any bytes go into the manifest reader (binary or JSON). What it accepts
// must survive both encodings unchanged: binary -> model -> JSON -> model
// -> binary gives the same bytes.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Manifest/Manifest.h"

#include "FuzzCheck.h"

#include <cstdio>

using namespace coreai;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto manifest = readManifest(bytes, "fuzz.manifest");
  if (!manifest) {
    llvm::consumeError(manifest.takeError());
    return 0;
  }
  std::string binary = writeManifestBinary(*manifest);
  auto fromJson =
      readManifestJson(writeManifestJson(*manifest), "roundtrip.json");
  if (!fromJson || writeManifestBinary(*fromJson) != binary) {
    if (!fromJson)
      std::fprintf(stderr, "%s\n",
                   llvm::toString(fromJson.takeError()).c_str());
    fuzz::check(false, "JSON and binary disagree");
  }
  return 0;
}

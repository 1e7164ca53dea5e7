//===- Format.cpp - Number formatting shared by the reports ---------------===//
#include "Format.h"

#include "llvm/Support/FormatVariadic.h"

namespace coreai::report {

std::string humanBytes(int64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0)
    return llvm::formatv("{0} B", bytes).str();
  return llvm::formatv("{0:F1} {1}", value, units[unit]).str();
}

std::string colourFor(llvm::StringRef opName) {
  // FNV-1a: cheap, stable across runs and platforms (unlike std::hash).
  uint32_t hash = 2166136261u;
  for (char c : opName) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return llvm::formatv("hsl({0},{1}%,{2}%)", hash % 360, 45 + (hash >> 9) % 30,
                       52 + (hash >> 17) % 18)
      .str();
}

} // namespace coreai::report

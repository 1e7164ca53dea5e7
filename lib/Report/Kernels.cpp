//===- Kernels.cpp - What fused kernels keep out of memory, in words ------===//
#include "coreai-plan/Report/Report.h"

#include "llvm/Support/FormatVariadic.h"

namespace coreai {

std::string kernelSourceText(llvm::StringRef source) {
  if (source == "input")
    return "marked in the input";
  if (source == "target")
    return "formed by the target's fusion rules";
  return "";
}

std::string kernelSummary(const PlannedEntry &entry) {
  if (entry.kernels.empty())
    return "";
  size_t kernels = entry.kernels.size();
  int64_t values = entry.fusedValues();
  return llvm::formatv("{0} kernel{1} keep{2} {3} value{4} ({5} bytes) out "
                       "of memory",
                       kernels, kernels == 1 ? "" : "s",
                       kernels == 1 ? "s" : "", values,
                       values == 1 ? "" : "s", entry.fusedBytes())
      .str();
}

const PlannedEntry::Kernel *kernelWriting(const PlannedEntry &entry,
                                          size_t buffer) {
  for (const PlannedEntry::Kernel &kernel : entry.kernels)
    if (llvm::is_contained(kernel.writes, int64_t(buffer)))
      return &kernel;
  return nullptr;
}

} // namespace coreai

//===- Advice.cpp - What a user should know about a program's buffers -----===//
//
// ExecuTorch's default export of several methods gives each its own copy
// of every mutable buffer (a KV cache), at offsets of its own: a runtime
// that runs prefill then decode does not carry the cache across. The
// program says so only through its buffers' names; without names nothing
// can tell which buffers are one, and nothing is paired.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/ProgramPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

namespace coreai::pte {

std::vector<std::string>
mutableBufferAdvice(const Program &program,
                    const std::vector<MethodMemory> &memories, bool sharing) {
  std::vector<std::string> lines;
  if (program.methods.size() < 2)
    return lines;
  // name -> (method, memory id, offset) of each holder.
  std::map<std::string, std::vector<std::tuple<size_t, int64_t, int64_t>>>
      byName;
  std::set<size_t> unnamedIn;
  for (size_t i = 0; i < memories.size(); ++i)
    for (const Storage &s : memories[i].storages) {
      if (!s.state || s.input || s.delegateOutput)
        continue;
      if (s.name.empty())
        unnamedIn.insert(i);
      else
        byName[s.name].push_back({i, s.memoryId, s.base});
    }
  std::vector<std::string> apart;
  std::string example;
  for (const auto &[name, holders] : byName) {
    std::set<size_t> methods;
    std::set<std::pair<int64_t, int64_t>> places;
    for (const auto &[method, memoryId, offset] : holders) {
      methods.insert(method);
      places.insert({memoryId, offset});
    }
    if (methods.size() < 2 || places.size() < 2)
      continue;
    apart.push_back(name);
    if (example.empty())
      example = llvm::formatv(
          "'{0}': {1}", name,
          llvm::join(llvm::map_range(holders,
                                     [&](const auto &holder) {
                                       auto [method, memoryId, offset] =
                                           holder;
                                       return llvm::formatv(
                                                  "{0} at {1}",
                                                  arenaName(
                                                      program.methods[method]
                                                          .name,
                                                      memoryId),
                                                  offset)
                                           .str();
                                     }),
                     ", "));
  }
  if (!apart.empty() && !sharing)
    lines.push_back(llvm::formatv(
        "warning: {0} mutable buffer{1} of one name {2} kept at different "
        "offsets by different methods ({3}): a runtime that runs one method "
        "after another does not carry the buffer over (ExecuTorch's default "
        "export); `coreai-plan plan {4} --share-mutable-buffers -o OUT.pte` "
        "puts each at one offset in every method",
        apart.size(), apart.size() == 1 ? "" : "s",
        apart.size() == 1 ? "is" : "are", example, program.source));
  if (unnamedIn.size() >= 2)
    lines.push_back(llvm::formatv(
        "note: {0} methods hold mutable buffers without names, so none is "
        "paired across methods{1} (equal offsets do not show that two "
        "buffers are one); export with "
        "ExecutorchBackendConfig(emit_mutable_buffer_names=True) to pair "
        "them by name",
        unnamedIn.size(),
        sharing ? ", --share-mutable-buffers included" : ""));
  return lines;
}

} // namespace coreai::pte

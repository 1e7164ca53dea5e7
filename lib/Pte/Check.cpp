//===- Check.cpp - A rewritten program, read back and verified ------------===//
//
// What `plan` checks before it writes a re-planned program: the bytes are
// read as any program is, and must say what the re-plan meant and pass the
// verifier, independently of how they were produced.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/ProgramPlan.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdint>

namespace coreai::pte {
namespace {

llvm::Error notAsPlanned(llvm::StringRef source, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the rewritten " + source + " " + what);
}

/// The storages of the program as first read, at the offsets the
/// rewritten program gives their members: each storage's members must
/// keep their places relative to each other.
llvm::Expected<MethodMemory> rebased(const MethodMemory &memory,
                                     const Method &original,
                                     const Method &rewritten,
                                     llvm::StringRef source) {
  MethodMemory moved = memory;
  for (Storage &s : moved.storages) {
    int64_t base = INT64_MAX;
    for (int64_t p : s.members)
      base = std::min(base, rewritten.placed[p].offset);
    for (int64_t p : s.members)
      if (rewritten.placed[p].offset - base !=
          original.placed[p].offset - s.base)
        return notAsPlanned(source,
                            llvm::formatv("moves value {0} of '{1}' within "
                                          "its storage",
                                          original.placed[p].value,
                                          original.name));
    s.base = base;
  }
  return moved;
}

} // namespace

llvm::Error checkRewritten(llvm::StringRef bytes, const Program &original,
                           const std::vector<MethodMemory> &memories,
                           const ReplanResult &replan, uint64_t fileSize) {
  llvm::StringRef source = original.source;
  ReadOptions options;
  options.fileSize = fileSize;
  llvm::Expected<Program> reread = readProgram(bytes, source, options);
  if (!reread)
    return notAsPlanned(source, "does not read back: " +
                                llvm::toString(reread.takeError()));
  if (reread->methods.size() != original.methods.size())
    return notAsPlanned(source, "has another number of methods");
  std::vector<MethodMemory> after;
  for (size_t i = 0; i < reread->methods.size(); ++i) {
    const Method &method = reread->methods[i];
    if (method.placed.size() != original.methods[i].placed.size())
      return notAsPlanned(source, "places other tensors in '" + method.name +
                                      "'");
    for (size_t p = 0; p < method.placed.size(); ++p)
      if (method.placed[p].offset != replan.placements.offsets[i][p] ||
          method.placed[p].memoryId != original.methods[i].placed[p].memoryId)
        return notAsPlanned(source, llvm::formatv("places value {0} of '{1}' at "
                                              "{2}, not at {3}",
                                              method.placed[p].value,
                                              method.name,
                                              method.placed[p].offset,
                                              replan.placements.offsets[i][p]));
    if (method.arenaSizes != replan.placements.arenaSizes[i])
      return notAsPlanned(source, "sizes the arenas of '" + method.name +
                                  "' otherwise");
    llvm::Expected<MethodMemory> moved =
        rebased(memories[i], original.methods[i], method, source);
    if (!moved)
      return moved.takeError();
    after.push_back(std::move(*moved));
  }
  // Every arena of every method passes the verifier, with the storages
  // and live ranges read from the program as it was (what it computes).
  llvm::Expected<std::vector<ArenaEntry>> arenas =
      programArenas(*reread, after);
  if (!arenas)
    return arenas.takeError();
  for (const auto &slot : replan.shared) {
    auto [method, storage] = slot.front();
    int64_t offset = after[method].storages[storage].base;
    for (auto [other, otherStorage] : slot)
      if (after[other].storages[otherStorage].base != offset)
        return notAsPlanned(source, "places a shared mutable buffer at " +
                                    llvm::Twine(offset) + " in '" +
                                    reread->methods[method].name +
                                    "' but elsewhere in '" +
                                    reread->methods[other].name + "'");
  }
  return llvm::Error::success();
}

} // namespace coreai::pte

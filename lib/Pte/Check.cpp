//===- Check.cpp - A rewritten program, read back and verified ------------===//
//
// What `plan` checks before it writes a re-planned program: the bytes are
// read as any program is, and must say what the re-plan meant and pass the
// verifier, independently of how they were produced.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/ProgramPlan.h"

#include "llvm/Support/FormatVariadic.h"

namespace coreai::pte {
namespace {

llvm::Error notAsPlanned(llvm::StringRef source, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the rewritten " + source + " " + what);
}

/// The same tensors, grouped into the same storages.
bool sameStorages(const MethodMemory &a, const MethodMemory &b) {
  if (a.storages.size() != b.storages.size())
    return false;
  for (size_t s = 0; s < a.storages.size(); ++s)
    if (a.storages[s].members != b.storages[s].members)
      return false;
  return true;
}

} // namespace

llvm::Error checkRewritten(llvm::StringRef bytes, const Program &original,
                           const std::vector<MethodMemory> &memories,
                           const ReplanResult &replan) {
  llvm::StringRef source = original.source;
  llvm::Expected<Program> reread = readProgram(bytes, source);
  if (!reread)
    return notAsPlanned(source, "does not read back: " +
                                llvm::toString(reread.takeError()));
  if (reread->methods.size() != original.methods.size())
    return notAsPlanned(source, "has another number of methods");
  std::vector<MethodMemory> after;
  for (size_t i = 0; i < reread->methods.size(); ++i) {
    const Method &method = reread->methods[i];
    after.push_back(analyseMemory(method));
    if (method.placed.size() != original.methods[i].placed.size() ||
        !sameStorages(after.back(), memories[i]))
      return notAsPlanned(source, "groups the tensors of '" + method.name +
                                  "' otherwise");
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
  }
  // Every arena of every method passes the verifier.
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

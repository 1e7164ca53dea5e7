//===- ProgramPage.cpp - What the page of a program shows -----------------===//
#include "ProgramPage.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <set>

namespace coreai::cli {
namespace {

/// Mutable buffers that several methods name alike but keep at different
/// places (memory id and offset): in a runtime that gives the methods one
/// arena, one does not see what the other wrote.
std::vector<std::string> apartByName(const ReportInput &input) {
  struct Holders {
    std::set<size_t> methods;
    std::set<std::pair<int64_t, int64_t>> places;
  };
  std::map<std::string, Holders> byName;
  for (size_t m = 0; m < input.memories.size(); ++m)
    for (const pte::Storage &storage : input.memories[m].storages)
      if (storage.state && !storage.name.empty()) {
        Holders &holders = byName[storage.name];
        holders.methods.insert(m);
        holders.places.insert({storage.memoryId, storage.base});
      }
  std::vector<std::string> apart;
  for (const auto &[name, holders] : byName)
    if (holders.methods.size() > 1 && holders.places.size() > 1)
      apart.push_back(name);
  return apart;
}

std::vector<std::string> notesOf(const ReportInput &input,
                                 const pte::ReplanResult &replan) {
  std::vector<std::string> notes;
  for (size_t m = 0; m < input.memories.size(); ++m)
    if (input.memories[m].controlFlow)
      notes.push_back(llvm::formatv("method {0} jumps (control flow): every "
                                    "tensor is taken as live throughout",
                                    input.program->methods[m].name));
  for (int64_t memoryId : replan.kept)
    notes.push_back(llvm::formatv("memory id {0}: the re-plan keeps the "
                                  "program's own plan (a new one would not "
                                  "be smaller)",
                                  memoryId));
  std::vector<std::string> apart = apartByName(input);
  if (!apart.empty()) {
    size_t shown = std::min<size_t>(apart.size(), 3);
    std::string names = llvm::join(apart.begin(), apart.begin() + shown, ", ");
    if (apart.size() > shown)
      names += llvm::formatv(" and {0} more", apart.size() - shown);
    notes.push_back(llvm::formatv(
        "{0} mutable buffer{1} ({2}) named alike in several methods but "
        "kept at different offsets: where the methods share an arena, as "
        "in ExecuTorch's runtime, one method does not see what another "
        "wrote. `coreai-plan plan --share-mutable-buffers` (or exporting "
        "with share_mutable_buffers) keeps each at one offset.",
        apart.size(), apart.size() == 1 ? "" : "s", names));
  }
  if (!replan.shared.empty())
    notes.push_back(llvm::formatv("{0} mutable buffers stay at one offset in "
                                  "every method holding them",
                                  replan.shared.size()));
  return notes;
}

} // namespace

llvm::Expected<ProgramPage> programPageOf(const ReportInput &input) {
  const pte::Program &program = *input.program;
  pte::ReplanOptions options;
  llvm::Expected<pte::ReplanResult> replan =
      pte::replanProgram(program, input.memories, options);
  if (!replan)
    return replan.takeError();
  // By memory id, then method (lib/Pte's order): every method's main
  // arena comes before the arenas holding only shared mutable buffers.
  ProgramPage page;
  page.file = input.manifest.inputs.front().file;
  page.alignment = options.alignment;
  page.replanCommand = "coreai-plan plan " + page.file;
  for (size_t k = 0; k < replan->after.size(); ++k) {
    const pte::ArenaEntry &before = replan->before[k];
    const pte::ArenaEntry &after = replan->after[k];
    const pte::MethodMemory &memory = input.memories[before.method];
    ProgramArena arena;
    arena.method = program.methods[before.method].name;
    arena.memoryId = before.memoryId;
    for (const pte::Instruction &instruction :
         program.methods[before.method].instructions)
      arena.instructionOps.push_back(instruction.op);
    arena.instructions = int64_t(arena.instructionOps.size());
    for (int64_t s : before.storages) {
      arena.tensors += int64_t(memory.storages[s].members.size());
      arena.state.push_back(memory.storages[s].state);
    }
    arena.before = before.entry;
    arena.after = after.entry;
    arena.arenaBefore = before.arenaBytes;
    arena.arenaAfter = after.arenaBytes;
    arena.kept = llvm::is_contained(replan->kept, before.memoryId);
    page.arenas.push_back(std::move(arena));
  }
  page.notes = notesOf(input, *replan);
  return page;
}

} // namespace coreai::cli

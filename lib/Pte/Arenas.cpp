//===- Arenas.cpp - A program's arenas as planned entries -----------------===//
//
// The program's own plan of each arena, in the form the reports read: a
// buffer per storage (named after its first tensor value), its producer
// and source line as the buffer's origin, the offsets the file records.
//
//===----------------------------------------------------------------------===//
#include "Arenas.h"

#include "coreai-plan/Verify.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <set>

namespace coreai::pte {

std::string arenaName(llvm::StringRef method, int64_t memoryId) {
  if (memoryId == 1)
    return method.str();
  return (method + ".mem" + llvm::Twine(memoryId)).str();
}

std::vector<int64_t> memoryIdsOf(const std::vector<MethodMemory> &memories) {
  std::set<int64_t> ids;
  for (const MethodMemory &memory : memories)
    for (const Storage &s : memory.storages)
      ids.insert(s.memoryId);
  return {ids.begin(), ids.end()};
}

ArenaEntry arenaProblem(const Program &program,
                        const std::vector<MethodMemory> &memories,
                        size_t method, int64_t memoryId, int64_t alignment) {
  const Method &m = program.methods[method];
  const MethodMemory &memory = memories[method];
  ArenaEntry arena;
  arena.method = method;
  arena.memoryId = memoryId;
  PlannedEntry &e = arena.entry;
  e.entry = arenaName(m.name, memoryId);
  e.alignment = alignment;
  for (size_t s = 0; s < memory.storages.size(); ++s) {
    const Storage &storage = memory.storages[s];
    if (storage.memoryId != memoryId)
      continue;
    arena.storages.push_back(int64_t(s));
    const PlacedTensor &first = m.placed[storage.members.front()];
    Buffer buffer;
    buffer.id = "v" + std::to_string(first.value);
    buffer.start = storage.start;
    buffer.end = storage.end;
    // ExecuTorch sizes a tensor at its bytes rounded up to the alignment
    // (as the package does): so does the arena holding it.
    buffer.size = alignTo(storage.bytes, alignment);
    buffer.alignment = alignment;
    e.problem.buffers.push_back(buffer);
    BufferOrigin origin;
    origin.value = storage.name.empty() ? buffer.id : storage.name;
    if (storage.writer >= 0) {
      origin.op = m.instructions[storage.writer].op;
      origin.location = m.instructions[storage.writer].location;
    } else {
      origin.op = storage.input            ? "input"
                  : storage.delegateOutput ? "delegate output"
                  : storage.state          ? "mutable buffer"
                                           : "?";
    }
    origin.viewCount = int64_t(storage.members.size()) - 1;
    e.origins.push_back(origin);
  }
  return arena;
}

namespace {

/// The largest power of two, at most `cap`, dividing every offset.
int64_t commonAlignment(const std::vector<int64_t> &offsets, int64_t cap) {
  int64_t alignment = cap;
  for (int64_t offset : offsets)
    while (alignment > 1 && offset % alignment)
      alignment /= 2;
  return alignment;
}

} // namespace

llvm::Expected<std::vector<ArenaEntry>>
programArenas(const Program &program,
              const std::vector<MethodMemory> &memories) {
  std::vector<ArenaEntry> arenas;
  for (int64_t memoryId : memoryIdsOf(memories))
    for (size_t i = 0; i < program.methods.size(); ++i) {
      const MethodMemory &memory = memories[i];
      if (llvm::none_of(memory.storages, [&](const Storage &s) {
            return s.memoryId == memoryId;
          }))
        continue;
      std::vector<int64_t> offsets;
      for (const Storage &s : memory.storages)
        if (s.memoryId == memoryId)
          offsets.push_back(s.base);
      // The program's offsets, checked at the alignment they keep.
      ArenaEntry arena =
          arenaProblem(program, memories, i, memoryId,
                       commonAlignment(offsets, kExecuTorchAlignment));
      Plan &plan = arena.entry.plan;
      plan.offsets = std::move(offsets);
      plan.heap = heapOf(arena.entry.problem, plan.offsets);
      arena.arenaBytes = program.methods[i].arenaSizes[memoryId];
      plan.lowerBound = lowerBound(arena.entry.problem);
      plan.optimal = plan.heap <= plan.lowerBound;
      plan.algorithm = "recorded"; // the offsets as the file has them
      if (llvm::Error error = verifyPlan(arena.entry.problem, plan))
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            llvm::formatv("{0}: the program's own plan of arena {1} fails "
                          "the verifier under the live ranges derived from "
                          "its instructions: {2}",
                          program.source, arena.entry.entry,
                          llvm::toString(std::move(error)))
                .str());
      arenas.push_back(std::move(arena));
    }
  return arenas;
}

Manifest arenaManifest(const std::vector<ArenaEntry> &arenas,
                       llvm::StringRef file, llvm::StringRef sha256,
                       int64_t alignment) {
  Manifest manifest;
  manifest.target.name = "executorch";
  manifest.target.alignment = alignment;
  manifest.inputs.push_back({file.str(), sha256.str()});
  for (const ArenaEntry &arena : arenas) {
    ManifestEntry entry;
    entry.planned = arena.entry;
    entry.plannedFunction = arena.entry.entry;
    entry.plannedFile = file.str();
    manifest.entries.push_back(std::move(entry));
  }
  manifest.bundleHeap = bundleHeapOf(manifest.entries);
  return manifest;
}

} // namespace coreai::pte

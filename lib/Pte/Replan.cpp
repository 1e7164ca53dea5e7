//===- Replan.cpp - Re-planning an ExecuTorch program's arenas ------------===//
//
// Per memory id, every method's storages are packed by the solvers. States
// that several methods hold at one place (ExecuTorch's shared mutable
// buffers) stay at one place in all of them, and with the option so do
// mutable buffers of the same name: those go to the bottom of the arena,
// in one order for every method (a state is live throughout, so putting it
// at the bottom costs no packing anything), and each method's other
// storages are packed above them. Every arena then gets the largest
// method's size: a runtime may hand all methods one arena.
//
//===----------------------------------------------------------------------===//
#include "Arenas.h"

#include "coreai-plan/Verify.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>

namespace coreai::pte {
namespace {

llvm::Error internal(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), what);
}

/// States placed at one offset in every method that holds them.
struct SharedSlots {
  /// (method, storage) -> offset in the arena.
  std::map<std::pair<size_t, int64_t>, int64_t> offsetOf;
  int64_t bytes = 0; ///< the slots' extent, aligned
  std::vector<std::vector<std::pair<size_t, int64_t>>> holders;
};

/// Which states of memory id `memoryId` share a slot: a mutable buffer
/// of one name that the program keeps at one place in several methods
/// (ExecuTorch's shared mutable buffers), and with `byName` every one of
/// one name wherever the program put it. A state without a name is paired
/// with nothing: equal offsets in two methods are no evidence that they
/// hold one buffer (greedy may put two layers' caches at one offset).
SharedSlots sharedSlots(const std::vector<MethodMemory> &memories,
                        int64_t memoryId, bool byName, int64_t alignment) {
  std::map<std::string, std::vector<std::pair<size_t, int64_t>>> byKey;
  std::vector<std::string> keys; // in order of first appearance
  for (size_t i = 0; i < memories.size(); ++i)
    for (size_t s = 0; s < memories[i].storages.size(); ++s) {
      const Storage &storage = memories[i].storages[s];
      if (storage.memoryId != memoryId || !storage.state ||
          storage.name.empty())
        continue;
      std::string key =
          byName ? storage.name
                 : llvm::formatv("{0} at {1} {2}", storage.name, storage.base,
                                 storage.bytes)
                       .str();
      auto &holders = byKey[key];
      if (holders.empty())
        keys.push_back(key);
      holders.push_back({i, int64_t(s)});
    }
  SharedSlots slots;
  for (const std::string &key : keys) {
    const auto &holders = byKey[key];
    size_t methods = 0;
    for (size_t k = 0; k < holders.size(); ++k)
      methods += k == 0 || holders[k].first != holders[k - 1].first;
    if (methods < 2 || methods != holders.size())
      continue; // held by one method, or twice by one: planned as usual
    int64_t bytes = 0;
    for (auto [method, storage] : holders) {
      slots.offsetOf[{method, storage}] = slots.bytes;
      bytes = std::max(bytes, memories[method].storages[storage].bytes);
    }
    slots.bytes = alignTo(slots.bytes + bytes, alignment);
    slots.holders.push_back(holders);
  }
  return slots;
}

/// Method `method`'s arena: its shared states in their slots, everything
/// else packed by the solvers above them.
llvm::Expected<ArenaEntry> planArena(const Program &program,
                                     const std::vector<MethodMemory> &memories,
                                     size_t method, int64_t memoryId,
                                     const SharedSlots &slots,
                                     const ReplanOptions &options) {
  ArenaEntry arena =
      arenaProblem(program, memories, method, memoryId, options.alignment);
  const BufferProblem &full = arena.entry.problem;
  BufferProblem rest;
  std::vector<size_t> restIndex;
  for (size_t b = 0; b < full.buffers.size(); ++b)
    if (!slots.offsetOf.count({method, arena.storages[b]})) {
      restIndex.push_back(b);
      rest.buffers.push_back(full.buffers[b]);
    }
  SolveResult solved = solve(rest, options.solve);
  if (!solved.plan)
    return internal("solver failed on arena " + arena.entry.entry + ": " +
                    solved.internalError);
  Plan &plan = arena.entry.plan;
  plan = *solved.plan;
  plan.offsets.assign(full.buffers.size(), 0);
  for (size_t b = 0; b < full.buffers.size(); ++b) {
    auto slot = slots.offsetOf.find({method, arena.storages[b]});
    if (slot != slots.offsetOf.end())
      plan.offsets[b] = slot->second;
  }
  for (size_t k = 0; k < restIndex.size(); ++k)
    plan.offsets[restIndex[k]] = slots.bytes + solved.plan->offsets[k];
  plan.heap = heapOf(full, plan.offsets);
  plan.lowerBound = lowerBound(full);
  plan.optimal = slots.bytes == 0 ? solved.plan->optimal
                                  : plan.heap <= plan.lowerBound;
  if (llvm::Error error = verifyPlan(full, plan))
    return internal("the new plan of arena " + arena.entry.entry +
                    " fails the verifier: " + llvm::toString(std::move(error)));
  return arena;
}

/// The new offset of every placed tensor: its storage's, plus where it
/// sat in its storage.
void placeMembers(const Program &program,
                  const std::vector<MethodMemory> &memories,
                  const ArenaEntry &arena, Placements &placements) {
  const Method &method = program.methods[arena.method];
  const MethodMemory &memory = memories[arena.method];
  for (size_t b = 0; b < arena.storages.size(); ++b) {
    const Storage &storage = memory.storages[arena.storages[b]];
    for (int64_t p : storage.members)
      placements.offsets[arena.method][p] = arena.entry.plan.offsets[b] +
                                            method.placed[p].offset -
                                            storage.base;
  }
}

} // namespace

llvm::Expected<ReplanResult>
replanProgram(const Program &program,
              const std::vector<MethodMemory> &memories,
              const ReplanOptions &options) {
  llvm::Expected<std::vector<ArenaEntry>> before =
      programArenas(program, memories);
  if (!before)
    return before.takeError();
  ReplanResult result;
  for (const Method &method : program.methods) {
    std::vector<int64_t> offsets;
    for (const PlacedTensor &t : method.placed)
      offsets.push_back(t.offset);
    result.placements.offsets.push_back(std::move(offsets));
    result.placements.arenaSizes.push_back(method.arenaSizes);
  }
  for (int64_t memoryId : memoryIdsOf(memories)) {
    SharedSlots slots = sharedSlots(memories, memoryId,
                                    options.shareMutableBuffers,
                                    options.alignment);
    std::vector<ArenaEntry> planned;
    int64_t size = 0, programSize = 0;
    for (const ArenaEntry &old : *before) {
      if (old.memoryId != memoryId)
        continue;
      llvm::Expected<ArenaEntry> arena = planArena(
          program, memories, old.method, memoryId, slots, options);
      if (!arena)
        return arena.takeError();
      // The heap is a multiple of the alignment (every size is); the
      // padding ExecuTorch adds for a delegate goes on top, as in the
      // program's own sizes.
      size = std::max(size, arena->entry.plan.heap +
                                arenaPadding(program.methods[old.method]));
      programSize = std::max(programSize, old.arenaBytes);
      planned.push_back(std::move(*arena));
    }
    // Never worse than the program's own plan, and no change for nothing:
    // a plan no smaller is taken only to share the mutable buffers.
    bool keep = size > programSize ||
                (size == programSize && !options.shareMutableBuffers);
    for (size_t k = 0, i = 0; k < before->size(); ++k) {
      if ((*before)[k].memoryId != memoryId)
        continue;
      const ArenaEntry &arena = keep ? (*before)[k] : planned[i++];
      result.before.push_back((*before)[k]);
      result.after.push_back(arena);
      if (!keep)
        placeMembers(program, memories, arena, result.placements);
    }
    if (keep) {
      result.kept.push_back(memoryId);
      continue;
    }
    llvm::append_range(result.shared, slots.holders);
    result.arenaSizes[memoryId] = size;
    for (std::vector<int64_t> &sizes : result.placements.arenaSizes)
      if (memoryId < int64_t(sizes.size()))
        sizes[memoryId] = size;
    for (ArenaEntry &arena : result.after)
      if (arena.memoryId == memoryId)
        arena.arenaBytes = size;
  }
  return result;
}

} // namespace coreai::pte

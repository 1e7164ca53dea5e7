//===- ProgramPlan.h - An ExecuTorch program's arenas, shown and re-planned -*- C++ -*-===//
//
// Each method's arena (memory id) as a planned entry, the same data the
// manifest's reports draw and explain: a buffer per storage, live over the
// instructions that use it. The program's own plan reads its offsets from
// the file; a re-plan packs the same buffers with the solvers, gives every
// method's arena one size (the largest method's), can keep the mutable
// buffers methods share at one offset in all of them, and yields the
// placements rewriteProgram() writes. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PTE_PROGRAMPLAN_H
#define COREAI_PLAN_PTE_PROGRAMPLAN_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Pte/Memory.h"
#include "coreai-plan/Pte/Program.h"
#include "coreai-plan/Solve/Solve.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <vector>

namespace coreai::pte {

/// ExecuTorch's alignment of planned tensors (its MemoryPlanningPass's
/// default): what a re-plan keeps unless told otherwise.
constexpr int64_t kExecuTorchAlignment = 16;

/// One method's arena: a buffer per storage of that memory id. The
/// entry's heap is the bytes the method uses (the highest end of a
/// storage); the arena the program sizes may be larger (several methods
/// sized alike).
struct ArenaEntry {
  size_t method = 0;
  int64_t memoryId = 0;
  std::vector<int64_t> storages; ///< parallel to entry.problem.buffers
  PlannedEntry entry;
  int64_t arenaBytes = 0; ///< the size the program records
};

/// An arena's name in tables and pictures: the method's for memory id 1,
/// `<method>.mem<id>` for the others.
std::string arenaName(llvm::StringRef method, int64_t memoryId);

/// Every method's arenas as the program plans them: offsets from the
/// file, each arena's size as recorded, the lower bound of the live
/// ranges. The program's plan is verified under the derived live ranges
/// (docs/PTE.md); a failure is returned as an error.
llvm::Expected<std::vector<ArenaEntry>>
programArenas(const Program &program,
              const std::vector<MethodMemory> &memories);

struct ReplanOptions {
  SolveOptions solve;
  int64_t alignment = kExecuTorchAlignment;
  /// Place each mutable buffer that several methods name alike at one
  /// offset in all of them (the KV cache of prefill and decode).
  bool shareMutableBuffers = false;
};

struct ReplanResult {
  std::vector<ArenaEntry> before, after; ///< parallel
  Placements placements;
  /// Per memory id: the size every method's arena now has.
  std::map<int64_t, int64_t> arenaSizes;
  /// Memory ids where the program's own plan is kept: the new one was
  /// larger, or no smaller and nothing asked to share mutable buffers.
  std::vector<int64_t> kept;
  /// Storages placed at one offset in several methods: per slot, its
  /// holders as (method, storage index).
  std::vector<std::vector<std::pair<size_t, int64_t>>> shared;
};

/// Re-plans every arena of every method. Each plan passes verifyPlan; an
/// arena is never larger than the program's largest for that memory id.
llvm::Expected<ReplanResult>
replanProgram(const Program &program,
              const std::vector<MethodMemory> &memories,
              const ReplanOptions &options);

/// Checks a rewritten program: it reads back, every placed tensor is where
/// the re-plan put it (a storage's members still where they were relative
/// to each other), every arena passes verifyPlan under the storages and
/// live ranges of the program as first read, and every storage placed at
/// one offset in several methods is there in each. `bytes` may be the
/// file's first bytes only (at least the program) when `fileSize` gives
/// its size.
llvm::Error checkRewritten(llvm::StringRef bytes, const Program &original,
                           const std::vector<MethodMemory> &memories,
                           const ReplanResult &replan, uint64_t fileSize = 0);

/// What is wrong with a program's own memory plan, if anything.
struct PlanFinding {
  enum class Kind {
    Overlap,         ///< two live tensors share bytes
    UndeclaredAlias, ///< ... and one instruction names both
    OutsideArena,    ///< a tensor ends past its arena
  };
  size_t method = 0;
  int64_t memoryId = 0;
  int64_t instruction = -1; ///< where it first shows
  Kind kind = Kind::Overlap;
  std::string text; ///< one line: method, instruction, tensors, bytes
};

/// The findings of a program's plan under the live ranges derived from
/// its instructions: tensors of different storages sharing bytes while
/// live, and tensors past the end of their arena (read the program with
/// ReadOptions::keepTensorsOutsideArenas to see those). Empty: sound.
std::vector<PlanFinding>
checkProgramPlan(const Program &program,
                 const std::vector<MethodMemory> &memories);

/// What a user should know about the mutable buffers of a program with
/// several methods, a line each (`warning: ...`, `note: ...`): buffers of
/// one name that methods keep at different offsets (unless `sharing`, the
/// re-plan that puts them at one), and buffers without names, which
/// nothing pairs (and how to export them with names).
std::vector<std::string>
mutableBufferAdvice(const Program &program,
                    const std::vector<MethodMemory> &memories, bool sharing);

/// The arenas as a manifest, for the reports (inspect, explain,
/// check-heap, the pictures and the page): one entry per arena, S = 0.
Manifest arenaManifest(const std::vector<ArenaEntry> &arenas,
                       llvm::StringRef file, llvm::StringRef sha256,
                       int64_t alignment);

} // namespace coreai::pte

#endif // COREAI_PLAN_PTE_PROGRAMPLAN_H

//===- Memory.h - A method's planned tensors, their storage and live ranges -*- C++ -*-===//
//
// An ExecuTorch program records where each planned tensor lives (arena and
// offset), not when it is live. This derives it from the instructions, in
// the order the runtime runs them (docs/PTE.md, "Live ranges"): a tensor
// is live from the instruction that first writes it to the last that names
// it; inputs from the start, outputs to the end; a tensor read before any
// instruction writes it holds state kept between calls (a mutable buffer)
// and is live throughout. Tensors the program made share bytes on purpose
// (views over a tensor, values moved into another) are one storage, planned
// as one buffer. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PTE_MEMORY_H
#define COREAI_PLAN_PTE_MEMORY_H

#include "coreai-plan/Pte/Program.h"

#include <cstdint>
#include <vector>

namespace coreai::pte {

/// Planned tensors that keep their bytes together: one, or several that
/// alias (a view over a tensor, a value moved into another). Members keep
/// their offsets relative to each other when re-planned.
struct Storage {
  int64_t memoryId = 0;
  /// Indices into Method::placed, ascending.
  std::vector<int64_t> members;
  /// The lowest original offset of a member, and the bytes from there to
  /// the highest end of a member.
  int64_t base = 0;
  int64_t bytes = 0;
  /// Live over the instructions [start, end).
  int64_t start = 0;
  int64_t end = 0;
  bool input = false;  ///< a member is a method input
  bool output = false; ///< a member is a method output
  /// Kept between calls (a mutable buffer): live throughout, and its bytes
  /// are never lent to another tensor.
  bool state = false;
  /// A state only because a delegate call names it first (most likely its
  /// output; which arguments a delegate writes the program does not say):
  /// no mutable buffer, but kept live throughout all the same.
  bool delegateOutput = false;
  /// The instruction that first writes a member; -1 when it is written
  /// before the call (an input, a state) or by no instruction known to
  /// write it.
  int64_t writer = -1;
  /// A member's name (a mutable buffer's), when the program has one.
  std::string name;
};

/// Two tensors the program's plan puts on shared bytes while both are
/// live, with no view or move making one stand for the other: a plan that
/// is not sound (or aliasing its instructions do not declare).
struct PlanConflict {
  int64_t a = 0, b = 0;    ///< indices into Method::placed, a < b
  int64_t instruction = 0; ///< the first instruction where both are live
  int64_t lo = 0, hi = 0;  ///< the bytes both take, [lo, hi) in the arena
};

struct MethodMemory {
  /// The time axis: one step per instruction, at least one.
  int64_t steps = 1;
  /// The method jumps (control flow): every tensor is taken as live
  /// throughout, which is safe whatever path runs.
  bool controlFlow = false;
  /// In the order of their first member.
  std::vector<Storage> storages;
  /// Per placed tensor: its storage.
  std::vector<int64_t> storageOf;
  /// Per placed tensor: its live range on its own, [start, end), as the
  /// check of the program's plan reads it (a storage lives over the union
  /// of its members'; a tensor first named by a delegate call, holding
  /// nothing before, is taken as that delegate's output here, while the
  /// storage stays live throughout, the safe side for a re-plan).
  std::vector<int64_t> start, end;
  /// Tensors the program's plan lets share live bytes (each pair once);
  /// they are one storage above, so a re-plan keeps them apart no more
  /// than the program did.
  std::vector<PlanConflict> conflicts;
};

/// The storages of `method` and their live ranges.
MethodMemory analyseMemory(const Method &method);

} // namespace coreai::pte

#endif // COREAI_PLAN_PTE_MEMORY_H

//===- PlanCheck.cpp - Is a program's memory plan sound? -------------------===//
//
// What a user asks of a program: do two tensors that are live together
// share bytes, does an instruction write a tensor over bytes it reads
// without the program saying that one is a view of the other, does every
// tensor fit in its arena. Each finding names the method, the instruction
// and the tensors; the live ranges are those derived from the
// instructions (docs/PTE.md), the offsets those the file records.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/ProgramPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace coreai::pte {
namespace {

std::string describeTensor(const PlacedTensor &t) {
  return llvm::formatv("v{0} ({1}, bytes [{2}, {3}) of arena {4}{5})",
                       t.value, t.type, t.offset, t.offset + t.bytes,
                       t.memoryId, t.name.empty() ? "" : ", " + t.name)
      .str();
}

std::string describeInstruction(const Method &method, int64_t at) {
  if (at < 0 || at >= int64_t(method.instructions.size()))
    return "before the first instruction";
  const Instruction &call = method.instructions[at];
  return llvm::formatv("instruction {0} ({1}{2})", at, call.op,
                       call.location.empty() ? "" : ", at " + call.location)
      .str();
}

/// Whether instruction `at` names placed tensor `p`.
bool names(const Method &method, int64_t at, int64_t p) {
  if (at < 0 || at >= int64_t(method.instructions.size()))
    return false;
  for (int64_t value : method.instructions[at].args)
    for (int64_t tensor : method.tensorsOf[value])
      if (method.placedIndex[tensor] == p)
        return true;
  return false;
}

} // namespace

std::vector<PlanFinding>
checkProgramPlan(const Program &program,
                 const std::vector<MethodMemory> &memories) {
  std::vector<PlanFinding> findings;
  for (size_t i = 0; i < program.methods.size(); ++i) {
    const Method &method = program.methods[i];
    const MethodMemory &memory = memories[i];
    std::string where = "method '" + method.name + "', ";
    for (size_t p = 0; p < method.placed.size(); ++p) {
      const PlacedTensor &t = method.placed[p];
      int64_t arena = method.arenaSizes[t.memoryId];
      if (t.offset + t.bytes <= arena)
        continue;
      int64_t first = memory.start[p];
      findings.push_back(
          {i, t.memoryId, first, PlanFinding::Kind::OutsideArena,
           where + describeInstruction(method, first) + ": " +
               describeTensor(t) + " ends past its arena, which the method "
               "sizes " + std::to_string(arena) + " bytes"});
    }
    for (const PlanConflict &c : memory.conflicts) {
      const PlacedTensor &a = method.placed[c.a], &b = method.placed[c.b];
      bool both = names(method, c.instruction, c.a) &&
                  names(method, c.instruction, c.b);
      std::string text =
          where + describeInstruction(method, c.instruction) + ": " +
          describeTensor(a) + " and " + describeTensor(b) +
          llvm::formatv(" share bytes [{0}, {1}) while both are live", c.lo,
                        c.hi)
              .str();
      if (both)
        text += "; the instruction names both, and nothing declares one a "
                "view of the other (aliasing the instructions do not "
                "declare)";
      findings.push_back({i, a.memoryId, c.instruction,
                          both ? PlanFinding::Kind::UndeclaredAlias
                               : PlanFinding::Kind::Overlap,
                          text});
    }
  }
  return findings;
}

} // namespace coreai::pte

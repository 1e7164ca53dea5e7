//===- Arenas.h - Building a method's arena problem -------------*- C++ -*-===//
//
// Shared by the program's own plan (Arenas.cpp) and the re-plan
// (Replan.cpp). Private to lib/Pte.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_PTE_ARENAS_H
#define COREAI_PLAN_LIB_PTE_ARENAS_H

#include "coreai-plan/Pte/ProgramPlan.h"

namespace coreai::pte {

/// The memory ids any method places a tensor in, ascending.
std::vector<int64_t> memoryIdsOf(const std::vector<MethodMemory> &memories);

/// Method `method`'s arena `memoryId` as a planned entry without a plan:
/// a buffer per storage, each offset a multiple of `alignment`.
ArenaEntry arenaProblem(const Program &program,
                        const std::vector<MethodMemory> &memories,
                        size_t method, int64_t memoryId, int64_t alignment);

} // namespace coreai::pte

#endif // COREAI_PLAN_LIB_PTE_ARENAS_H

//===- PlanProgram.h - coreai-plan plan PROGRAM.pte -------------*- C++ -*-===//
#ifndef COREAI_PLAN_TOOLS_PLANPROGRAM_H
#define COREAI_PLAN_TOOLS_PLANPROGRAM_H

#include "coreai-plan/Pte/ProgramPlan.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace coreai::cli {

struct ProgramPlanRequest {
  std::string input;  ///< the program
  std::string output; ///< `-o`: a `.pte` file, or a directory for one
  pte::ReplanOptions options;
  bool quiet = false, json = false, explain = false;
};

/// Re-plans the program's arenas and writes the program with the new
/// offsets and arena sizes (atomically, after reading it back through the
/// verifier); prints a row per arena. Returns the exit code.
int runPlanProgram(const ProgramPlanRequest &request);

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_PLANPROGRAM_H

//===- PlanCommand.cpp - coreai-plan plan ------------------------------===//
#include "Commands.h"

namespace coreai::cli {

llvm::cl::SubCommand planCommand("plan", "(not yet available)");

int runPlan() {
  return fail(InputError, "'plan' is not implemented yet");
}

} // namespace coreai::cli

//===- InspectCommand.cpp - coreai-plan inspect ------------------------------===//
#include "Commands.h"

namespace coreai::cli {

llvm::cl::SubCommand inspectCommand("inspect", "(not yet available)");

int runInspect() {
  return fail(InputError, "'inspect' is not implemented yet");
}

} // namespace coreai::cli

//===- CheckHeapCommand.cpp - coreai-plan check-heap ------------------------------===//
#include "Commands.h"

namespace coreai::cli {

llvm::cl::SubCommand checkHeapCommand("check-heap", "(not yet available)");

int runCheckHeap() {
  return fail(InputError, "'check-heap' is not implemented yet");
}

} // namespace coreai::cli

//===- BuffersCommand.cpp - coreai-plan buffers ------------------------------===//
#include "Commands.h"

namespace coreai::cli {

llvm::cl::SubCommand buffersCommand("buffers", "(not yet available)");

int runBuffers() {
  return fail(InputError, "'buffers' is not implemented yet");
}

} // namespace coreai::cli

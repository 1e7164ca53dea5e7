//===- ChunkSize.cpp - The chunk size a static graph was exported at ------===//
#include "coreai-plan/Exporter/ChunkSize.h"

namespace coreai {

int64_t exportedChunkSize(std::optional<int64_t> seqLen,
                          llvm::ArrayRef<ExportedArgument> arguments) {
  if (seqLen)
    return *seqLen;
  for (const ExportedArgument &argument : arguments)
    if (argument.name == tokenIdsArgument && argument.staticShape &&
        argument.staticShape->size() == 2)
      return (*argument.staticShape)[1];
  return 0;
}

} // namespace coreai

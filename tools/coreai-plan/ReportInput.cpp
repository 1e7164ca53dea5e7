//===- ReportInput.cpp - What the report subcommands read -----------------===//
#include "ReportInput.h"

#include "coreai-plan/Pte/InputKind.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace coreai::cli {

llvm::Expected<ReportInput> readProgramInput(llvm::StringRef bytes,
                                             llvm::StringRef path,
                                             uint64_t fileSize) {
  pte::ReadOptions options;
  options.fileSize = fileSize;
  llvm::Expected<pte::Program> program = pte::readProgram(bytes, path, options);
  if (!program)
    return program.takeError();
  ReportInput input;
  for (const pte::Method &method : program->methods)
    input.memories.push_back(pte::analyseMemory(method));
  llvm::Expected<std::vector<pte::ArenaEntry>> arenas =
      pte::programArenas(*program, input.memories);
  if (!arenas)
    return arenas.takeError();
  input.arenas = std::move(*arenas);
  input.manifest = pte::arenaManifest(
      input.arenas, llvm::sys::path::filename(path), sha256Hex(bytes),
      pte::kExecuTorchAlignment);
  input.program = std::move(*program);
  return input;
}

llvm::Expected<ReportInput> readReportInput(llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError(file.getError(), "cannot read '%s': %s",
                                   path.str().c_str(),
                                   file.getError().message().c_str());
  llvm::StringRef bytes = (*file)->getBuffer();
  // A `.pte` that is not a program (or an identifier a bit away from a
  // program's) is refused as a program, not as a manifest.
  pte::InputKind kind =
      pte::inputKind(bytes.take_front(pte::kInputKindBytes), path);
  if (kind == pte::InputKind::Program || kind == pte::InputKind::NotProgram)
    return readProgramInput(bytes, path);
  llvm::Expected<Manifest> manifest = readManifest(bytes, path);
  if (!manifest)
    return manifest.takeError();
  ReportInput input;
  input.manifest = std::move(*manifest);
  return input;
}

} // namespace coreai::cli

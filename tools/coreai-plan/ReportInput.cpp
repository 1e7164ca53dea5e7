//===- ReportInput.cpp - What the report subcommands read -----------------===//
#include "ReportInput.h"

#include "coreai-plan/Pte/InputKind.h"
#include "coreai-plan/Pte/ProgramFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace coreai::cli {

llvm::Expected<ReportInput> readProgramInput(llvm::StringRef bytes,
                                             llvm::StringRef path,
                                             uint64_t fileSize,
                                             llvm::StringRef sha256) {
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
      input.arenas, llvm::sys::path::filename(path),
      sha256.empty() ? sha256Hex(bytes) : sha256.str(),
      pte::kExecuTorchAlignment);
  input.program = std::move(*program);
  return input;
}

llvm::Expected<ReportInput> readReportInput(llvm::StringRef path) {
  // A program is read without its segments (its weights may be gigabytes)
  // and named by the hash of the whole file, read in chunks.
  llvm::Expected<std::string> first = pte::readHead(path);
  if (first && pte::inputKind(*first, path) == pte::InputKind::Program) {
    llvm::Expected<pte::ProgramHead> head = pte::readProgramHead(path);
    if (!head)
      return head.takeError();
    llvm::Expected<std::string> sha256 = pte::fileSha256Hex(path);
    if (!sha256)
      return sha256.takeError();
    return readProgramInput(head->bytes, path, head->fileSize, *sha256);
  }
  if (!first)
    llvm::consumeError(first.takeError());
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

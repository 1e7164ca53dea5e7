//===- InputCheck.cpp - Refusing inputs a subcommand does not read --------===//
#include "InputCheck.h"

#include "coreai-plan/Pte/InputKind.h"
#include "coreai-plan/Pte/ProgramFile.h"

namespace coreai::cli {

bool isProgramFile(llvm::StringRef path) {
  llvm::Expected<std::string> head = pte::readHead(path, 8);
  if (!head) {
    llvm::consumeError(head.takeError());
    return false;
  }
  return pte::inputKind(*head, path) == pte::InputKind::Program;
}

llvm::Error refuseProgramInput(llvm::StringRef path,
                               llvm::StringRef subcommand,
                               llvm::StringRef reads,
                               llvm::StringRef instead) {
  llvm::Expected<std::string> head = pte::readHead(path);
  if (!head) {
    llvm::consumeError(head.takeError());
    return llvm::Error::success();
  }
  auto refuse = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  switch (pte::inputKind(*head, path)) {
  case pte::InputKind::Program: {
    // A file with the identifier but not readable is told as what it is.
    llvm::Expected<pte::ProgramHead> program = pte::readProgramHead(path);
    llvm::Error bad = program ? pte::readProgram(program->bytes, path,
                                                 {program->fileSize, false})
                                    .takeError()
                              : program.takeError();
    if (bad)
      return bad;
    return refuse("'" + path + "' is an ExecuTorch program; " + subcommand +
                  " reads " + reads + ", not programs (" + instead + ")");
  }
  case pte::InputKind::NotProgram:
    return refuse("'" + path + "': " + pte::whyNotProgram(*head));
  case pte::InputKind::Binary:
    return refuse("'" + path + "' is binary, not " + reads + " (what " +
                  subcommand + " reads)");
  case pte::InputKind::Other:
    break;
  }
  return llvm::Error::success();
}

} // namespace coreai::cli

//===- CheckCommand.cpp - coreai-plan check PROGRAM.pte -------------------===//
//
// "Is this program's memory plan sound?": every finding of
// pte::checkProgramPlan, one line each with the method, the instruction
// and the tensors; exit 2 when there is one (a "no" answer), 0 when none.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "coreai-plan/Pte/InputKind.h"
#include "coreai-plan/Pte/ProgramFile.h"
#include "coreai-plan/Pte/ProgramPlan.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

int runCheck();
Command checkCommand("check",
                     "Check an ExecuTorch program's own memory plan: no two "
                     "live tensors share bytes, every tensor fits its arena",
                     runCheck);

namespace {
InputArgument programPath(checkCommand, "<PROGRAM.pte>");
} // namespace

int runCheck() {
  llvm::Expected<std::string> first = pte::readHead(programPath);
  if (!first)
    return fail(InputError, first.takeError());
  pte::InputKind kind = pte::inputKind(*first, programPath);
  if (kind == pte::InputKind::NotProgram)
    return fail(InputError, "'" + programPath + "': " +
                                pte::whyNotProgram(*first));
  if (kind != pte::InputKind::Program)
    return fail(InputError,
                "'" + programPath +
                    "' is not an ExecuTorch program; coreai-plan check reads "
                    "programs (a manifest's plans are verified when they are "
                    "written)");
  llvm::Expected<pte::ProgramHead> head = pte::readProgramHead(programPath);
  if (!head)
    return fail(InputError, head.takeError());
  pte::ReadOptions options;
  options.fileSize = head->fileSize;
  options.keepTensorsOutsideArenas = true;
  llvm::Expected<pte::Program> program =
      pte::readProgram(head->bytes, programPath, options);
  if (!program)
    return fail(InputError, program.takeError());
  std::vector<pte::MethodMemory> memories;
  size_t tensors = 0;
  for (const pte::Method &method : program->methods) {
    memories.push_back(pte::analyseMemory(method));
    tensors += method.placed.size();
  }
  std::vector<pte::PlanFinding> findings =
      pte::checkProgramPlan(*program, memories);
  llvm::outs() << llvm::formatv("program {0} (ExecuTorch): {1} method{2}, "
                                "{3} planned tensors\n",
                                programPath, program->methods.size(),
                                program->methods.size() == 1 ? "" : "s",
                                tensors);
  for (const pte::PlanFinding &finding : findings)
    llvm::outs() << finding.text << "\n";
  if (findings.empty()) {
    llvm::outs() << "sound: no two tensors share bytes while both are live, "
                    "every tensor inside its arena\n";
    return Success;
  }
  llvm::outs() << llvm::formatv("{0} finding{1}: the program's memory plan "
                                "is not sound\n",
                                findings.size(),
                                findings.size() == 1 ? "" : "s");
  return AnswerNo;
}

} // namespace coreai::cli

//===- ProgramPage.h - What the page of a program shows ---------*- C++ -*-===//
//
// `inspect PROGRAM.pte --html` draws the program's own plan beside the
// re-plan `coreai-plan plan` (default options) would write: this gathers
// both from lib/Pte into the page's plain data (Report/ProgramPage.h).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TOOLS_PROGRAMPAGE_H
#define COREAI_PLAN_TOOLS_PROGRAMPAGE_H

#include "ReportInput.h"

#include "coreai-plan/Report/ProgramPage.h"

#include "llvm/Support/Error.h"

namespace coreai::cli {

/// The page of `input` (an ExecuTorch program): every arena as exported
/// and re-planned, its mutable buffers, notes on what the re-plan kept and
/// on mutable buffers of one name that methods keep apart.
llvm::Expected<ProgramPage> programPageOf(const ReportInput &input);

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_PROGRAMPAGE_H

//===- ReportInput.h - What the report subcommands read ---------*- C++ -*-===//
//
// inspect, explain and check-heap read a manifest (either encoding) or an
// ExecuTorch program (.pte, recognised by its identifier whatever its
// name), whose methods' arenas become the manifest's entries: the same
// tables, pictures and explanations for both.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TOOLS_REPORTINPUT_H
#define COREAI_PLAN_TOOLS_REPORTINPUT_H

#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Pte/ProgramPlan.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace coreai::cli {

struct ReportInput {
  Manifest manifest;
  /// Set when the file is an ExecuTorch program; then `arenas` are the
  /// manifest's entries, in order.
  std::optional<pte::Program> program;
  std::vector<pte::MethodMemory> memories;
  std::vector<pte::ArenaEntry> arenas;
};

/// Reads `path` as an ExecuTorch program when it looks like one, else as
/// a manifest. Errors name the file.
llvm::Expected<ReportInput> readReportInput(llvm::StringRef path);

/// Reads, analyses and plans-as-recorded an ExecuTorch program's bytes
/// (the whole file, or its first bytes, at least the program, of a file of
/// `fileSize` bytes). `sha256`: the file's, when known (else that of
/// `bytes`).
llvm::Expected<ReportInput> readProgramInput(llvm::StringRef bytes,
                                             llvm::StringRef path,
                                             uint64_t fileSize = 0,
                                             llvm::StringRef sha256 = "");

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_REPORTINPUT_H

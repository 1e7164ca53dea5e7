//===- InputCheck.h - Refusing inputs a subcommand does not read -*- C++ -*-===//
//
// Subcommands that read MLIR, archives, manifests or CSV refuse an
// ExecuTorch program (or a file that claims to be one, or binary) in one
// line, before their parser can print the file's bytes.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TOOLS_INPUTCHECK_H
#define COREAI_PLAN_TOOLS_INPUTCHECK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace coreai::cli {

/// Whether the file at `path` is an ExecuTorch program (its identifier).
bool isProgramFile(llvm::StringRef path);

/// An error when `path` is an ExecuTorch program, claims to be one or is
/// binary: `subcommand` reads `reads`; `instead` says what to run on a
/// program. A file that cannot be read passes (its reader says why).
llvm::Error refuseProgramInput(llvm::StringRef path,
                               llvm::StringRef subcommand,
                               llvm::StringRef reads,
                               llvm::StringRef instead);

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_INPUTCHECK_H

//===- InputKind.h - What a file given to coreai-plan is ----------*- C++ -*-===//
//
// Every subcommand reads one kind of input (MLIR, a .pt2 archive, a
// manifest, a CSV problem, an ExecuTorch program). Before a reader of
// another kind sees a file, its first bytes say whether it is an ExecuTorch
// program, something that claims to be one (its name, an identifier a bit
// away from ExecuTorch's) or binary no text reader takes: each gets a
// one-line message instead of a parser's error with the file's bytes in
// it. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PTE_INPUTKIND_H
#define COREAI_PLAN_PTE_INPUTKIND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace coreai::pte {

enum class InputKind {
  Program,    ///< ExecuTorch's identifier (`ET` and two digits) at byte 4
  NotProgram, ///< named `.pte`, or an identifier a bit or two from `ET12`
  Binary,     ///< control bytes at the start or many; not MLIR bytecode,
              ///< not a zip
  Other,      ///< text, MLIR bytecode, a zip: for the other readers
};

/// How many bytes of a file inputKind() looks at.
constexpr size_t kInputKindBytes = 4096;

/// What `head` (the first kInputKindBytes of the file `path`, or all of a
/// shorter one) is.
InputKind inputKind(llvm::StringRef head, llvm::StringRef path);

/// Why `head` is not a program this version reads, in one line of
/// printable characters (its identifier escaped): for NotProgram.
std::string whyNotProgram(llvm::StringRef head);

/// The first kInputKindBytes of the file (fewer for a shorter file).
llvm::Expected<std::string> readHead(llvm::StringRef path,
                                     size_t bytes = kInputKindBytes);

/// `text` with bytes that are not printable ASCII written as `\xNN`.
std::string printable(llvm::StringRef text);

} // namespace coreai::pte

#endif // COREAI_PLAN_PTE_INPUTKIND_H

//===- ProgramFile.h - A program file read and written by its head -*- C++ -*-===//
//
// A program of any size: only its first bytes (the FlatBuffers program,
// the metadata) are read into memory; the segments after them (weights,
// delegate blobs; gigabytes) are copied from file to file by the kernel
// where it can (a reflink, copy_file_range), else streamed in chunks, and
// never held. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PTE_PROGRAMFILE_H
#define COREAI_PLAN_PTE_PROGRAMFILE_H

#include "coreai-plan/Pte/Program.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace coreai::pte {

struct ProgramHead {
  /// The file's first bytes: the program (the bytes its extended header
  /// gives it; a file without one is all program).
  std::string bytes;
  uint64_t fileSize = 0;
};

/// The program's bytes of the file at `path`, not the segments after
/// them. Errors name the file.
llvm::Expected<ProgramHead> readProgramHead(llvm::StringRef path);

/// The sha256 of the file at `path` (lower-case hex), read in chunks: the
/// reports name a program by it without holding its weights.
llvm::Expected<std::string> fileSha256Hex(llvm::StringRef path);

/// How the copy was made, for messages and benchmarks.
enum class CopyMethod { Reflink, CopyFileRange, Streamed };
llvm::StringRef copyMethodName(CopyMethod method);

/// Writes into the empty, open file `to` the file at `from` with its first
/// bytes replaced: `head.bytes`, then `from`'s bytes from `head.tailFrom`
/// on. Where the tail keeps its place the whole file is cloned or copied
/// first and the head written over it. Then reads the head back from `to`
/// and checks it is what was meant and the file's size.
llvm::Expected<CopyMethod> writeProgramFile(llvm::StringRef from, int to,
                                            llvm::StringRef toName,
                                            const RewrittenHead &head);

/// The first `bytes` bytes of the open file `fd`.
llvm::Expected<std::string> readBack(int fd, uint64_t bytes,
                                     llvm::StringRef name);

} // namespace coreai::pte

#endif // COREAI_PLAN_PTE_PROGRAMFILE_H

//===- OutputSet.h - Writing several files all or nothing -------*- C++ -*-===//
#ifndef COREAI_PLAN_TOOLS_OUTPUTSET_H
#define COREAI_PLAN_TOOLS_OUTPUTSET_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace coreai::cli {

/// Writes files all or nothing: each goes to a temporary name next to its
/// final one first, and only when every one is written are they renamed.
/// Directories this created are removed again on failure.
class OutputSet {
public:
  OutputSet() = default;
  OutputSet(const OutputSet &) = delete;
  OutputSet &operator=(const OutputSet &) = delete;
  ~OutputSet() { discard(); }

  /// Creates `dir` (and its parents) unless it is there; fails when it is
  /// not a directory.
  llvm::Error makeDirectory(llvm::StringRef dir);
  /// Writes `bytes` to a temporary file next to `path`.
  llvm::Error add(llvm::StringRef path, llvm::StringRef bytes);
  /// Lets `write` fill a temporary file next to `path` through its open
  /// descriptor (named `temp` in messages); closes it after.
  llvm::Error addWritten(
      llvm::StringRef path,
      llvm::function_ref<llvm::Error(int fd, llvm::StringRef temp)> write);
  /// Renames every temporary file to its final name.
  llvm::Error commit();

private:
  std::vector<std::string> createdDirs;
  /// (temporary, final) paths.
  std::vector<std::pair<std::string, std::string>> temps;

  void discard();
};

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_OUTPUTSET_H

//===- OutputSet.cpp - Writing several files all or nothing ---------------===//
#include "OutputSet.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {
namespace {
llvm::Error cannotWrite(llvm::StringRef path, std::error_code ec) {
  return llvm::createStringError(ec, "cannot write to '%s': %s",
                                 path.str().c_str(), ec.message().c_str());
}
} // namespace

llvm::Error OutputSet::makeDirectory(llvm::StringRef dir) {
  // The directories that are missing, innermost first, to undo on failure.
  std::vector<std::string> missing;
  for (llvm::StringRef d = dir; !d.empty() && !llvm::sys::fs::exists(d);
       d = llvm::sys::path::parent_path(d))
    missing.push_back(d.str());
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return cannotWrite(dir, ec);
  if (!llvm::sys::fs::is_directory(dir))
    return cannotWrite(dir, std::make_error_code(std::errc::not_a_directory));
  createdDirs.insert(createdDirs.end(), missing.rbegin(), missing.rend());
  return llvm::Error::success();
}

llvm::Error OutputSet::add(llvm::StringRef path, llvm::StringRef bytes) {
  return addWritten(path, [&](int fd, llvm::StringRef temp) -> llvm::Error {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/false);
    os << bytes;
    os.flush();
    if (!os.has_error())
      return llvm::Error::success();
    std::error_code ec = os.error();
    os.clear_error();
    return cannotWrite(temp, ec);
  });
}

llvm::Error OutputSet::addWritten(
    llvm::StringRef path,
    llvm::function_ref<llvm::Error(int fd, llvm::StringRef temp)> write) {
  llvm::SmallString<256> model(llvm::sys::path::parent_path(path));
  llvm::sys::path::append(model, "." + llvm::sys::path::filename(path) +
                                     "-%%%%%%.tmp");
  int fd;
  llvm::SmallString<256> temp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp))
    return cannotWrite(llvm::sys::path::parent_path(path), ec);
  temps.push_back({temp.str().str(), path.str()});
  llvm::Error error = write(fd, temp);
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  return error;
}

llvm::Error OutputSet::commit() {
  for (const auto &[temp, final] : temps)
    if (std::error_code ec = llvm::sys::fs::rename(temp, final))
      return cannotWrite(final, ec);
  temps.clear();
  createdDirs.clear();
  return llvm::Error::success();
}

void OutputSet::discard() {
  for (const auto &temp : temps)
    llvm::sys::fs::remove(temp.first);
  temps.clear();
  // Innermost first; removal only succeeds while a directory is empty.
  for (const std::string &dir : llvm::reverse(createdDirs))
    llvm::sys::fs::remove(dir);
  createdDirs.clear();
}

} // namespace coreai::cli

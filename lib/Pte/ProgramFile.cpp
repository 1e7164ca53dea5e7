//===- ProgramFile.cpp - A program file read and written by its head ------===//
//
// `plan` of a multi-gigabyte program changes a few hundred offsets in its
// first megabytes. So the file is copied whole by the kernel (a reflink
// shares the blocks; copy_file_range copies them without passing through
// this process), and only the program's bytes are written over the copy.
// Where appended placement records moved the segments, the new head is
// written and the segments are copied after it. Without either system
// call, the copy is streamed in chunks of a few MiB: memory stays flat.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/ProgramFile.h"

#include "FileLayout.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/FormatVariadic.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#ifdef __linux__
#include <linux/fs.h>
#include <sys/ioctl.h>
#endif

namespace coreai::pte {
namespace {

llvm::Error ioError(const llvm::Twine &what, llvm::StringRef name) {
  return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                 "%s '%s': %s", what.str().c_str(),
                                 name.str().c_str(), std::strerror(errno));
}

/// A file opened for reading, closed when this goes; its size and whether
/// it is a regular file, from fstat.
struct ReadOnlyFile {
  int fd = -1;
  uint64_t size = 0;
  bool regular = false;
  ReadOnlyFile() = default;
  ReadOnlyFile(ReadOnlyFile &&other)
      : fd(std::exchange(other.fd, -1)), size(other.size),
        regular(other.regular) {}
  ReadOnlyFile &operator=(ReadOnlyFile &&) = delete;
  ~ReadOnlyFile() {
    if (fd >= 0)
      ::close(fd);
  }
};

llvm::Expected<ReadOnlyFile> openReadOnly(llvm::StringRef path) {
  ReadOnlyFile file;
  file.fd = ::open(path.str().c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd < 0)
    return ioError("cannot read", path);
  struct stat status;
  if (::fstat(file.fd, &status) != 0)
    return ioError("cannot read", path);
  file.size = uint64_t(status.st_size);
  file.regular = S_ISREG(status.st_mode);
  return file;
}

/// Reads `bytes` bytes at `offset` of `fd` into `out`.
llvm::Error readAt(int fd, uint64_t offset, uint64_t bytes, std::string &out,
                   llvm::StringRef name) {
  out.resize(bytes);
  uint64_t got = 0;
  while (got < bytes) {
    ssize_t n = ::pread(fd, out.data() + got, bytes - got, off_t(offset + got));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return ioError("cannot read", name);
    if (n == 0)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "'%s' ended early", name.str().c_str());
    got += uint64_t(n);
  }
  return llvm::Error::success();
}

llvm::Error writeAt(int fd, uint64_t offset, llvm::StringRef bytes,
                    llvm::StringRef name) {
  uint64_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::pwrite(fd, bytes.data() + done, bytes.size() - done,
                         off_t(offset + done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return ioError("cannot write", name);
    done += uint64_t(n);
  }
  return llvm::Error::success();
}

/// Copies `bytes` bytes from `in` at `from` to `out` at `to`: by
/// copy_file_range where the system has it, else streamed.
llvm::Expected<CopyMethod> copyRange(int in, uint64_t from, int out,
                                     uint64_t to, uint64_t bytes,
                                     llvm::StringRef name) {
  CopyMethod method = CopyMethod::CopyFileRange;
#ifdef __linux__
  while (bytes > 0) {
    loff_t inAt = loff_t(from), outAt = loff_t(to);
    ssize_t n = ::copy_file_range(in, &inAt, out, &outAt, size_t(bytes), 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; // not supported here (another filesystem, an old kernel)
    from += uint64_t(n), to += uint64_t(n), bytes -= uint64_t(n);
  }
#endif
  if (bytes == 0)
    return method;
  method = CopyMethod::Streamed;
  constexpr uint64_t kChunk = 4 << 20;
  std::string chunk;
  while (bytes > 0) {
    uint64_t n = std::min(bytes, kChunk);
    if (llvm::Error error = readAt(in, from, n, chunk, name))
      return error;
    if (llvm::Error error = writeAt(out, to, chunk, name))
      return error;
    from += n, to += n, bytes -= n;
  }
  return method;
}

} // namespace

llvm::StringRef copyMethodName(CopyMethod method) {
  switch (method) {
  case CopyMethod::Reflink:
    return "reflink";
  case CopyMethod::CopyFileRange:
    return "copy_file_range";
  case CopyMethod::Streamed:
    return "streamed copy";
  }
  return "?";
}

llvm::Expected<ProgramHead> readProgramHead(llvm::StringRef path) {
  llvm::Expected<ReadOnlyFile> file = openReadOnly(path);
  if (!file)
    return file.takeError();
  if (!file->regular)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s' is not a regular file",
                                   path.str().c_str());
  int fd = file->fd;
  ProgramHead head;
  head.fileSize = file->size;
  // The extended header sits in the first 40 bytes.
  uint64_t first = std::min<uint64_t>(head.fileSize, kSegmentSizeAt + 8);
  if (llvm::Error error = readAt(fd, 0, first, head.bytes, path))
    return error;
  llvm::Expected<FileLayout> layout =
      readFileLayout(head.bytes, head.fileSize, path);
  if (!layout)
    return layout.takeError();
  if (llvm::Error error =
          readAt(fd, 0, layout->programSize, head.bytes, path))
    return error;
  return head;
}

llvm::Expected<std::string> fileSha256Hex(llvm::StringRef path) {
  llvm::Expected<ReadOnlyFile> file = openReadOnly(path);
  if (!file)
    return file.takeError();
  llvm::SHA256 hash;
  constexpr uint64_t kChunk = 4 << 20;
  std::string chunk;
  for (uint64_t at = 0, size = file->size; at < size; at += kChunk) {
    if (llvm::Error error =
            readAt(file->fd, at, std::min(kChunk, size - at), chunk, path))
      return error;
    hash.update(llvm::arrayRefFromStringRef(chunk));
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

llvm::Expected<std::string> readBack(int fd, uint64_t bytes,
                                     llvm::StringRef name) {
  std::string out;
  if (llvm::Error error = readAt(fd, 0, bytes, out, name))
    return error;
  return out;
}

llvm::Expected<CopyMethod> writeProgramFile(llvm::StringRef from, int to,
                                            llvm::StringRef toName,
                                            const RewrittenHead &head) {
  llvm::Expected<ReadOnlyFile> file = openReadOnly(from);
  if (!file)
    return file.takeError();
  int in = file->fd;
  uint64_t fileSize = file->size;
  if (head.tailFrom > fileSize)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s' is shorter than its program says",
                                   from.str().c_str());
  uint64_t tail = fileSize - head.tailFrom;
  CopyMethod method = CopyMethod::Streamed;
  if (head.bytes.size() == head.tailFrom) {
    // The segments keep their place: the whole file, then the head.
    bool cloned = false;
#ifdef FICLONE
    cloned = ::ioctl(to, FICLONE, in) == 0;
#endif
    if (cloned) {
      method = CopyMethod::Reflink;
    } else {
      llvm::Expected<CopyMethod> copied =
          copyRange(in, 0, to, 0, fileSize, from);
      if (!copied)
        return copied.takeError();
      method = *copied;
    }
    if (llvm::Error error = writeAt(to, 0, head.bytes, toName))
      return error;
  } else {
    if (llvm::Error error = writeAt(to, 0, head.bytes, toName))
      return error;
    llvm::Expected<CopyMethod> copied = copyRange(
        in, head.tailFrom, to, head.bytes.size(), tail, from);
    if (!copied)
      return copied.takeError();
    method = *copied;
  }
  // Read back: the head as meant, and the file as long as meant.
  struct stat written;
  if (::fstat(to, &written) != 0)
    return ioError("cannot read back", toName);
  llvm::Expected<std::string> back = readBack(to, head.bytes.size(), toName);
  if (!back)
    return back.takeError();
  if (*back != head.bytes || uint64_t(written.st_size) !=
                                 head.bytes.size() + tail)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("'{0}' does not read back as written ({1} bytes, {2} "
                      "meant)",
                      toName, uint64_t(written.st_size),
                      head.bytes.size() + tail)
            .str());
  return method;
}

} // namespace coreai::pte

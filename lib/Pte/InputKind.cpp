//===- InputKind.cpp - What a file given to coreai-plan is ----------------===//
//
// A program is taken by its identifier, never by its name. A file named
// `.pte`, or whose identifier is within two flipped bits of `ET12`, is
// refused as a program by every subcommand (a damaged program is not MLIR
// text). Binary is a NUL or control byte among the first 16 bytes, or in
// more than an eighth of the first 4 KiB (MLIR text may hold a NUL inside a
// string literal), unless the bytes start MLIR bytecode (`ML\xefR`) or a
// zip (`PK`, a .pt2 archive).
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/InputKind.h"

#include "coreai-plan/Pte/Program.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace coreai::pte {
namespace {

constexpr llvm::StringLiteral kIdentifier = "ET12";

/// Bits in which bytes 4..7 of `head` differ from `ET12`.
int identifierDistance(llvm::StringRef head) {
  if (head.size() < 8)
    return 64;
  int bits = 0;
  for (size_t i = 0; i < 4; ++i)
    bits += llvm::popcount(unsigned(uint8_t(head[4 + i])) ^
                           unsigned(uint8_t(kIdentifier[i])));
  return bits;
}

bool isBinaryByte(char c) {
  auto byte = uint8_t(c);
  return byte == 0 || (byte < 0x20 && c != '\n' && c != '\r' && c != '\t' &&
                       c != '\f' && c != '\v');
}

} // namespace

std::string printable(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    auto byte = uint8_t(c);
    if (byte >= 0x20 && byte < 0x7f)
      out += c;
    else
      out += llvm::formatv("\\x{0:x-2}", unsigned(byte)).str();
  }
  return out;
}

InputKind inputKind(llvm::StringRef head, llvm::StringRef path) {
  if (looksLikeProgram(head))
    return InputKind::Program;
  if (path.ends_with(".pte") || identifierDistance(head) <= 2)
    return InputKind::NotProgram;
  if (head.starts_with("ML\xefR") || head.starts_with("PK"))
    return InputKind::Other;
  // Text may hold a NUL (inside an MLIR string literal): binary is a
  // control byte at the start, or many of them.
  size_t control = llvm::count_if(head, isBinaryByte);
  if (llvm::any_of(head.take_front(16), isBinaryByte) ||
      control * 8 > head.size())
    return InputKind::Binary;
  return InputKind::Other;
}

std::string whyNotProgram(llvm::StringRef head) {
  if (head.size() < 8)
    return llvm::formatv("not an ExecuTorch program: {0} bytes, too short "
                         "for its identifier (`ET12` at byte 4)",
                         head.size());
  return "not an ExecuTorch program: bytes 4-7 are `" +
         printable(head.substr(4, 4)) + "`, not `ET12`";
}

llvm::Expected<std::string> readHead(llvm::StringRef path, size_t bytes) {
  llvm::Expected<llvm::sys::fs::file_t> file =
      llvm::sys::fs::openNativeFileForRead(path);
  if (!file)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "cannot read '" + path +
                                            "': " +
                                            llvm::toString(file.takeError()));
  std::string head(bytes, '\0');
  size_t got = 0;
  while (got < bytes) {
    llvm::Expected<size_t> n = llvm::sys::fs::readNativeFile(
        *file, llvm::MutableArrayRef<char>(head.data() + got, bytes - got));
    if (!n) {
      llvm::sys::fs::closeFile(*file);
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot read '" + path + "': " +
                                         llvm::toString(n.takeError()));
    }
    if (*n == 0)
      break;
    got += *n;
  }
  llvm::sys::fs::closeFile(*file);
  head.resize(got);
  return head;
}

} // namespace coreai::pte

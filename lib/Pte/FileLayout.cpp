//===- FileLayout.cpp - Where a .pte keeps its program and segments -------===//
#include "FileLayout.h"

#include "llvm/Support/FormatVariadic.h"

namespace coreai::pte {

uint64_t readLittleEndian(llvm::StringRef bytes, size_t at, size_t width) {
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i)
    value |= uint64_t(uint8_t(bytes[at + i])) << (8 * i);
  return value;
}

void writeLittleEndian(std::string &bytes, size_t at, size_t width,
                       uint64_t value) {
  for (size_t i = 0; i < width; ++i)
    bytes[at + i] = char((value >> (8 * i)) & 0xff);
}

llvm::Expected<FileLayout> readFileLayout(llvm::StringRef bytes,
                                          uint64_t fileSize,
                                          llvm::StringRef source) {
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   source + ": " + why);
  };
  FileLayout layout;
  layout.programSize = fileSize;
  // The header's magic is `eh` and two digits of its version.
  if (bytes.size() < kSegmentBaseAt + 8 ||
      bytes.substr(kHeaderMagicAt, 2) != "eh")
    return layout;
  layout.extendedHeader = true;
  layout.headerLength = uint32_t(readLittleEndian(bytes, kHeaderLengthAt, 4));
  if (layout.headerLength < kSegmentBaseAt + 8 - kHeaderMagicAt)
    return bad(llvm::formatv("the extended header is {0} bytes long, too "
                             "short for the sizes it must hold",
                             layout.headerLength));
  layout.programSize = readLittleEndian(bytes, kProgramSizeAt, 8);
  layout.segmentBase = readLittleEndian(bytes, kSegmentBaseAt, 8);
  if (layout.headerLength >= kSegmentSizeAt + 8 - kHeaderMagicAt &&
      bytes.size() >= kSegmentSizeAt + 8) {
    layout.segmentSize = readLittleEndian(bytes, kSegmentSizeAt, 8);
    layout.hasSegmentSize = true;
  }
  if (layout.programSize > fileSize)
    return bad(llvm::formatv("truncated: the header says the program takes "
                             "{0} bytes, the file has {1}",
                             layout.programSize, fileSize));
  if (layout.segmentBase != 0) {
    uint64_t end = layout.segmentBase + layout.segmentSize;
    if (layout.segmentBase < layout.programSize || end < layout.segmentBase)
      return bad(llvm::formatv("the header puts the segments at byte {0}, "
                               "inside the program's {1} bytes",
                               layout.segmentBase, layout.programSize));
    if (end > fileSize)
      return bad(llvm::formatv("truncated: the header says the segments "
                               "end at byte {0}, the file has {1}",
                               end, fileSize));
  }
  return layout;
}

} // namespace coreai::pte

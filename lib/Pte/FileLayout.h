//===- FileLayout.h - Where a .pte keeps its program and segments -*- C++ -*-===//
//
// An ExecuTorch program file is a FlatBuffers buffer, optionally followed by
// data segments (weights, delegate blobs). An "extended header" inside the
// buffer's first bytes (after the root offset and the identifier, where
// FlatBuffers never looks) says how long the buffer is and where the
// segments start. Private to lib/Pte.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_PTE_FILELAYOUT_H
#define COREAI_PLAN_LIB_PTE_FILELAYOUT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace coreai::pte {

/// Byte positions of the extended header's fields.
constexpr size_t kHeaderMagicAt = 8;
constexpr size_t kHeaderLengthAt = 12;
constexpr size_t kProgramSizeAt = 16;
constexpr size_t kSegmentBaseAt = 24;
constexpr size_t kSegmentSizeAt = 32;

struct FileLayout {
  bool extendedHeader = false;
  uint32_t headerLength = 0;
  /// Bytes of the FlatBuffers buffer (the whole file without a header).
  uint64_t programSize = 0;
  /// Where the segments start (0: no segments), and their bytes (0 when
  /// the header predates the field: then up to the end of the file).
  uint64_t segmentBase = 0;
  uint64_t segmentSize = 0;
  bool hasSegmentSize = false;
};

/// The layout of a file of `fileSize` bytes whose first bytes are `bytes`
/// (at least its extended header, if it has one); an error (naming
/// `source`) when the header promises more bytes than the file has or
/// contradicts itself.
llvm::Expected<FileLayout> readFileLayout(llvm::StringRef bytes,
                                          uint64_t fileSize,
                                          llvm::StringRef source);

uint64_t readLittleEndian(llvm::StringRef bytes, size_t at, size_t width);
void writeLittleEndian(std::string &bytes, size_t at, size_t width,
                       uint64_t value);

} // namespace coreai::pte

#endif // COREAI_PLAN_LIB_PTE_FILELAYOUT_H

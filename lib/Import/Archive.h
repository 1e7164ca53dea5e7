//===- Archive.h - The model JSON members of a `.pt2` zip -------*- C++ -*-===//
#ifndef COREAI_PLAN_LIB_IMPORT_ARCHIVE_H
#define COREAI_PLAN_LIB_IMPORT_ARCHIVE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <string>
#include <vector>

namespace coreai::import {

struct ModelMember {
  std::string path; ///< e.g. `gemma4-tiny/models/model.json`
  std::string json;
};

/// The `models/*.json` members of the zip in `archive`, in directory order;
/// an error naming the archive when it is no zip, is truncated or has none.
llvm::Expected<std::vector<ModelMember>>
readModelMembers(llvm::MemoryBufferRef archive);
/// The zip directory of `archive` as text, one `name size crc32` line per
/// member: what identifies the archive without reading its weights. Empty
/// when it is no readable zip.
std::string directoryListing(llvm::MemoryBufferRef archive);
/// The same for the file at `path`, reading only what it needs.
llvm::Expected<std::vector<ModelMember>> readModelMembers(llvm::StringRef path);

} // namespace coreai::import

#endif // COREAI_PLAN_LIB_IMPORT_ARCHIVE_H

//===- Archive.cpp - The model JSON members of a `.pt2` zip ---------------===//
//
// Only the zip's central directory and the `models/*.json` members are read
// (libzip seeks to them); the weights in `data/` are never touched.
//
//===----------------------------------------------------------------------===//
#include "Archive.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <zip.h>

#include <algorithm>
#include <memory>

namespace coreai::import {
namespace {

/// A model JSON larger than this is refused before it is allocated.
constexpr zip_uint64_t kMaxModelJsonBytes = zip_uint64_t(2) << 30;

/// The message only: the diagnostic's location names the archive.
llvm::Error archiveError(llvm::StringRef, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

/// `<name>/models/<model>.json` or `models/<model>.json`.
bool isModelMember(llvm::StringRef member) {
  llvm::StringRef dir = llvm::sys::path::parent_path(member,
                                                     llvm::sys::path::Style::posix);
  if (!member.ends_with(".json"))
    return false;
  if (dir == "models")
    return true;
  return dir.ends_with("/models") && dir.count('/') == 1;
}

struct ZipDiscard {
  void operator()(zip_t *zip) const { zip_discard(zip); }
};
struct ZipFileClose {
  void operator()(zip_file_t *file) const { zip_fclose(file); }
};

llvm::Expected<std::vector<ModelMember>>
readFromSource(zip_source_t *source, llvm::StringRef archive) {
  zip_error_t error;
  zip_error_init(&error);
  std::unique_ptr<zip_t, ZipDiscard> zip(
      zip_open_from_source(source, ZIP_RDONLY, &error));
  if (!zip) {
    std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    zip_source_free(source);
    return archiveError(archive, "not a readable zip archive (" + why +
                                     "): a torch.export `.pt2` is a zip "
                                     "written by torch.export.save");
  }
  zip_error_fini(&error);

  std::vector<ModelMember> models;
  zip_int64_t entries = zip_get_num_entries(zip.get(), 0);
  for (zip_int64_t index = 0; index < entries; ++index) {
    const char *name = zip_get_name(zip.get(), index, ZIP_FL_ENC_RAW);
    if (!name || !isModelMember(name))
      continue;
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(zip.get(), index, 0, &stat) != 0 ||
        !(stat.valid & ZIP_STAT_SIZE))
      return archiveError(archive, llvm::Twine("cannot read the entry of '") +
                                       name + "': " +
                                       zip_strerror(zip.get()));
    if (stat.size > kMaxModelJsonBytes)
      return archiveError(archive, llvm::Twine("'") + name + "' claims " +
                                       llvm::Twine(stat.size) +
                                       " bytes, more than a model JSON can be");
    std::unique_ptr<zip_file_t, ZipFileClose> file(
        zip_fopen_index(zip.get(), index, 0));
    if (!file)
      return archiveError(archive, llvm::Twine("cannot open '") + name +
                                       "': " + zip_strerror(zip.get()));
    ModelMember member;
    member.path = name;
    // The size is the directory's claim: a few bytes of a corrupt archive
    // can claim 2 GiB, so the text grows with what is read, never with
    // what is claimed (the archive fuzzer's out-of-memory).
    char chunk[1 << 16];
    zip_uint64_t done = 0;
    while (done < stat.size) {
      zip_uint64_t wanted = std::min<zip_uint64_t>(sizeof chunk,
                                                   stat.size - done);
      zip_int64_t got = zip_fread(file.get(), chunk, wanted);
      if (got < 0)
        return archiveError(archive, llvm::Twine("cannot read '") + name +
                                         "' (truncated or corrupt archive?): " +
                                         zip_file_strerror(file.get()));
      if (got == 0)
        break;
      member.json.append(chunk, got);
      done += got;
    }
    if (done != stat.size)
      return archiveError(archive, llvm::Twine("'") + name + "' ends after " +
                                       llvm::Twine(done) + " of its " +
                                       llvm::Twine(stat.size) +
                                       " bytes: the archive is truncated");
    models.push_back(std::move(member));
  }
  if (models.empty())
    return archiveError(archive,
                        "no model JSON ('<name>/models/<model>.json') in the "
                        "archive: not a torch.export `.pt2`");
  return models;
}

} // namespace

llvm::Expected<std::vector<ModelMember>>
readModelMembers(llvm::MemoryBufferRef archive) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t *source = zip_source_buffer_create(
      archive.getBufferStart(), archive.getBufferSize(), 0, &error);
  if (!source) {
    std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    return archiveError(archive.getBufferIdentifier(), why);
  }
  zip_error_fini(&error);
  return readFromSource(source, archive.getBufferIdentifier());
}

std::string directoryListing(llvm::MemoryBufferRef archive) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t *source = zip_source_buffer_create(
      archive.getBufferStart(), archive.getBufferSize(), 0, &error);
  std::unique_ptr<zip_t, ZipDiscard> zip(
      source ? zip_open_from_source(source, ZIP_RDONLY, &error) : nullptr);
  zip_error_fini(&error);
  if (!zip) {
    if (source)
      zip_source_free(source);
    return "";
  }
  std::string listing;
  zip_int64_t entries = zip_get_num_entries(zip.get(), 0);
  for (zip_int64_t index = 0; index < entries; ++index) {
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(zip.get(), index, ZIP_FL_ENC_RAW, &stat) != 0)
      return "";
    listing += (llvm::Twine(stat.name ? stat.name : "") + " " +
                llvm::Twine(stat.size) + " " + llvm::Twine(stat.crc) + "\n")
                   .str();
  }
  return listing;
}

llvm::Expected<std::vector<ModelMember>>
readModelMembers(llvm::StringRef path) {
  zip_error_t error;
  zip_error_init(&error);
  std::string pathString = path.str();
  zip_source_t *source =
      zip_source_file_create(pathString.c_str(), 0, -1, &error);
  if (!source) {
    std::string why = zip_error_strerror(&error);
    zip_error_fini(&error);
    return archiveError(path, "cannot open: " + why);
  }
  zip_error_fini(&error);
  return readFromSource(source, path);
}

} // namespace coreai::import

//===- JsonSplit.h - The parts of a JSON document, unparsed -----*- C++ -*-===//
//
// llvm::json builds every object as a hash map of 64 buckets or more: the
// 15 MB program of a full-size model would take over 500 MB at once. The
// importer instead finds the extents of the program's parts here and parses
// each node and each tensor's metadata with llvm::json on its own.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_IMPORT_JSONSPLIT_H
#define COREAI_PLAN_LIB_IMPORT_JSONSPLIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace coreai::import {

struct JsonMember {
  std::string key;
  llvm::StringRef value; ///< the member's value as text
};

/// The members of the JSON object `text`, in order; structural errors
/// (unbalanced brackets, unterminated strings, trailing text) are reported
/// with their byte offset. Values are checked when they are parsed.
llvm::Expected<std::vector<JsonMember>> splitObject(llvm::StringRef text);
/// The elements of the JSON array `text`.
llvm::Expected<std::vector<llvm::StringRef>> splitArray(llvm::StringRef text);

} // namespace coreai::import

#endif // COREAI_PLAN_LIB_IMPORT_JSONSPLIT_H

//===- TargetJson.h - Errors of a target description's fields ---*- C++ -*-===//
//
// Private to lib/Target: the error form every field of targets/*.json
// reports in (`FILE: FIELD: what`), and the check that an object holds
// only the fields its reader knows, so that a misspelt field is refused
// rather than ignored.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_TARGET_TARGETJSON_H
#define COREAI_PLAN_LIB_TARGET_TARGETJSON_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace coreai {

llvm::Error targetError(llvm::StringRef source, const llvm::Twine &message);

/// An error naming the first field of `object` not in `known`, at `where`
/// (`workspace[2]`; empty: the top level).
llvm::Error onlyKnownFields(const llvm::json::Object &object,
                            llvm::ArrayRef<llvm::StringRef> known,
                            llvm::StringRef source, const std::string &where);

} // namespace coreai

#endif // COREAI_PLAN_LIB_TARGET_TARGETJSON_H

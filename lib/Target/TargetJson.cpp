//===- TargetJson.cpp - Errors of a target description's fields -----------===//
#include "TargetJson.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace coreai {

llvm::Error targetError(llvm::StringRef source, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 source + ": " + message);
}

llvm::Error onlyKnownFields(const llvm::json::Object &object,
                            llvm::ArrayRef<llvm::StringRef> known,
                            llvm::StringRef source, const std::string &where) {
  for (const auto &field : object)
    if (!llvm::is_contained(known, llvm::StringRef(field.first)))
      return targetError(source, (where.empty() ? "" : where + ".") +
                                     field.first.str() +
                                     ": unknown field (known: " +
                                     llvm::join(known, ", ") + ")");
  return llvm::Error::success();
}

} // namespace coreai

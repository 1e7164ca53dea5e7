//===- Options.cpp - Option values every front end checks the same way ----===//
#include "coreai-plan/Options.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

namespace coreai {

bool isValidAlignment(int64_t alignment) {
  return alignment > 0 && llvm::isPowerOf2_64(uint64_t(alignment));
}

llvm::Error checkAlignment(int64_t alignment) {
  if (isValidAlignment(alignment))
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "alignment must be a positive power of two, got " +
          llvm::Twine(alignment));
}

llvm::Error checkNotNegative(llvm::StringRef name, int64_t value) {
  if (value >= 0)
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 name + " must not be negative, got " +
                                     llvm::Twine(value));
}

llvm::Expected<int64_t> parseByteSize(llvm::StringRef text,
                                      llvm::StringRef option) {
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad " + option + " '" + text + "': " + why);
  };
  llvm::StringRef number = text.trim();
  int64_t unit = 1;
  for (auto [suffix, scale] :
       {std::pair<llvm::StringRef, int64_t>{"KiB", int64_t(1) << 10},
        {"MiB", int64_t(1) << 20},
        {"GiB", int64_t(1) << 30}})
    if (number.consume_back(suffix)) {
      unit = scale;
      break;
    }
  int64_t value;
  if (number.trim().getAsInteger(10, value))
    return bad("expected a number of bytes, e.g. 145920 or 64MiB");
  if (value <= 0)
    return bad("must be a positive number of bytes");
  int64_t bytes;
  if (llvm::MulOverflow(value, unit, bytes))
    return bad("too large");
  return bytes;
}

} // namespace coreai

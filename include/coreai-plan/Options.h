//===- Options.h - Option values every front end checks the same way -*- C++
//-*-===//
//
// The CLI's flags and the passes' options name the same planning choices;
// their values are checked here, once, with one message each, and the
// grammars they share (byte sizes) are parsed here. Names and help of the
// algorithms are in Solve.h (algorithmValues()).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_OPTIONS_H
#define COREAI_PLAN_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace coreai {

/// Buffer alignment where no target gives one (passes, `buffers`). A
/// target's `alignment` replaces it; `solve` keeps MiniMalloc's byte-exact
/// problems (1) unless told otherwise.
constexpr int64_t defaultAlignment = 64;
/// The cap on planning one function (ms): every search of its plan
/// together (the heap and the lent outputs, both op orders, the plan
/// without reuse the savings are measured against). Each stops earlier
/// once its heap is proven minimal, and most are within milliseconds
/// (docs/SOLVERS.md, "Budget").
constexpr int64_t defaultTimeLimitMs = 1500;
/// The cap on `solve` of a raw problem (ms): MiniMalloc's published task
/// gives each instance 10 s.
constexpr int64_t defaultSolveTimeLimitMs = 10000;

/// A buffer alignment: a positive power of two.
bool isValidAlignment(int64_t alignment);

/// "alignment must be a positive power of two, got 48".
llvm::Error checkAlignment(int64_t alignment);
/// "NAME must not be negative, got -1".
llvm::Error checkNotNegative(llvm::StringRef name, int64_t value);

/// A positive number of bytes: `145920`, or with a binary suffix `512KiB`,
/// `64MiB`, `1GiB`. Errors read "bad OPTION 'TEXT': why".
llvm::Expected<int64_t> parseByteSize(llvm::StringRef text,
                                      llvm::StringRef option);

} // namespace coreai

#endif // COREAI_PLAN_OPTIONS_H

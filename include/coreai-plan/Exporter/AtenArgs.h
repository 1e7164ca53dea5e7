//===- AtenArgs.h - The grammar of an exported op's `coreai.args` -*- C++ -*-===//
//
// The exporter writes every ATen call's arguments as their Python repr,
// tensors shown as `T` ("(T, [None, None, T], T)", "(T, dtype=torch.float16,
// layout=torch.strided)"; ../shared/graphs/README.md). The grammar this
// reader accepts (docs/LIVENESS.md, "The exporter's conventions"):
//
//   args     ::= '(' [ arg { ',' arg } [ ',' ] ] ')'
//   arg      ::= value | identifier '=' value     (keywords after positionals)
//   value    ::= any text whose brackets ( [ { balance and whose quotes close
//
// Values stay text: op classes and effects read the few they depend on (a
// clone's memory_format, dropout's train flag). No MLIR here: the dialect
// checks the grammar when a file is parsed, the passes read the values.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_EXPORTER_ATENARGS_H
#define COREAI_PLAN_EXPORTER_ATENARGS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <vector>
#include <string>
#include <utility>

namespace coreai {

struct AtenArgs {
  /// Positional arguments as written (`T`, `2`, `[None, T]`, `'tanh'`).
  llvm::SmallVector<std::string, 4> positional;
  /// Keyword-only arguments as (name, value).
  llvm::SmallVector<std::pair<std::string, std::string>, 4> keywords;

  /// The keyword's value, or std::nullopt when it is not given.
  std::optional<llvm::StringRef> keyword(llvm::StringRef name) const;
};

/// Splits a Python argument tuple `(a, b, name=c)` at its top-level commas
/// (brackets and quotes respected). std::nullopt when it is not one.
std::optional<AtenArgs> parseAtenArgs(llvm::StringRef text);

/// A scalar written by the exporter: a number, a bool, None, a quoted
/// string or a symbolic size (sympy text such as `s58 + 1`). Not a tensor,
/// a list, a dtype or a device.
bool isScalarArgument(llvm::StringRef value);

/// A list of integers as the exporter writes one (`[2, 0, 1]`, `[]`), or
/// with `bare`, a single integer too (`-1`, as a `dim` argument may be).
/// std::nullopt for anything else.
std::optional<std::vector<int64_t>> parseIntegerList(llvm::StringRef text,
                                                     bool bare = false);

} // namespace coreai

#endif // COREAI_PLAN_EXPORTER_ATENARGS_H

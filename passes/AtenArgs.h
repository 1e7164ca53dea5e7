//===- AtenArgs.h - Reading an exported op's `coreai.args` ------*- C++ -*-===//
//
// The exporter writes every ATen call's arguments as their Python repr,
// tensors shown as `T` ("(T, [None, None, T], T)", "(T, dtype=torch.float16,
// layout=torch.strided)"; ../shared/graphs/README.md). Op classes and
// effects depend on some of them (a clone's memory_format, dropout's train
// flag), so they are read here; anything this reader does not understand
// is reported as such and the callers assume the worst.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_ATENARGS_H
#define COREAI_PLAN_PASSES_ATENARGS_H

#include "mlir/IR/Operation.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
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

/// The op's `coreai.args`, parsed. std::nullopt when the op has none, or
/// has one this reader cannot split; `present` says which.
std::optional<AtenArgs> atenArgsOf(mlir::Operation *op,
                                   bool *present = nullptr);

/// A scalar written by the exporter: a number, a bool, None, a quoted
/// string or a symbolic size (sympy text such as `s58 + 1`). Not a tensor,
/// a list, a dtype or a device.
bool isScalarArgument(llvm::StringRef value);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_ATENARGS_H

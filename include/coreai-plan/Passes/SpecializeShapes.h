//===- SpecializeShapes.h - Binding a graph's symbolic dims -----*- C++ -*-===//
//
// torch.export graphs with a dynamic sequence length print each symbolic
// dim as `?` and carry its expression in the symbol (`coreai.sym_shapes =
// ["1,s58,1536"]` on ops, `coreai.sym_shape` on arguments and results, the
// symbols' ranges in the module's `coreai.sym_ranges`). Binding the symbols
// to integers makes every type static, so the function can be planned.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_SPECIALIZESHAPES_H
#define COREAI_PLAN_PASSES_SPECIALIZESHAPES_H

#include "coreai-plan/Exporter/SymShape.h" // SymbolBindings, SymRange
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace coreai {

/// The module's `coreai.sym_ranges` (empty when absent). Emits an error at
/// the module and fails when the attribute is malformed.
mlir::FailureOr<std::map<std::string, SymRange>>
readSymRanges(mlir::ModuleOp module);

/// Whether any argument, result or op result of `func` has a `?` dim.
bool hasDynamicShapes(mlir::func::FuncOp func);

/// The symbols the function's shape expressions use, sorted.
std::vector<std::string> shapeSymbols(mlir::func::FuncOp func);

/// Rewrites every dynamic type of `func` (arguments, op results, results)
/// to the static type its shape expression gives under `bindings`, and
/// checks the static dims against the expressions too. Errors (an unbound
/// symbol, a bad expression, a `?` without an expression) are emitted at
/// the op; on failure the function may be partly rewritten.
mlir::LogicalResult specializeShapes(mlir::func::FuncOp func,
                                     const SymbolBindings &bindings);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_SPECIALIZESHAPES_H

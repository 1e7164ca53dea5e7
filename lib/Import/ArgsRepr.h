//===- ArgsRepr.h - A node's arguments as `coreai.args` text ----*- C++ -*-===//
//
// torch.export's serialized arguments (`{"as_int": 2}`, `{"as_tensor": ...}`)
// written as the Python tuple the graphs' `coreai.args` holds: tensors as
// `T`, keyword-only arguments as `name=value`, SymInts as their expression
// (../shared/graphs/README.md). No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_IMPORT_ARGSREPR_H
#define COREAI_PLAN_LIB_IMPORT_ARGSREPR_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace coreai::import {

/// SymInt names (`s58`, `sym_size_int_1`) -> their infix expression.
using SymIntTexts = llvm::StringMap<std::string>;

/// Python's `repr` of a float (`1e-06`, `0.5`, `inf`).
std::string pythonFloat(double value);

/// `torch.float32` for ScalarType code 7, ...; nullptr for a code torch.export
/// does not write.
const char *scalarTypeName(int64_t code);

/// One serialized argument (`{"as_ints": [1, 2]}`) as Python text.
llvm::Expected<std::string> argumentRepr(const llvm::json::Value &arg,
                                         const SymIntTexts &symInts);

/// A node's `inputs` as the `coreai.args` tuple.
llvm::Expected<std::string> argumentsRepr(const llvm::json::Array &inputs,
                                          const SymIntTexts &symInts);

} // namespace coreai::import

#endif // COREAI_PLAN_LIB_IMPORT_ARGSREPR_H

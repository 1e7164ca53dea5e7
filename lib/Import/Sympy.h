//===- Sympy.h - torch.export's symbolic sizes as infix text ----*- C++ -*-===//
#ifndef COREAI_PLAN_LIB_IMPORT_SYMPY_H
#define COREAI_PLAN_LIB_IMPORT_SYMPY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace coreai::import {

/// `Mul(Integer(64), Symbol('s58', positive=True, integer=True))` (sympy's
/// srepr, what torch.export stores) as `64*s58`, the infix form
/// `coreai.sym_shapes` uses. Plain infix input is returned as it is. Only
/// `+`, `*` and floor division are accepted: the planner evaluates nothing
/// else.
llvm::Expected<std::string> sympyToInfix(llvm::StringRef expr);

} // namespace coreai::import

#endif // COREAI_PLAN_LIB_IMPORT_SYMPY_H

//===- ImportProgram.h - A torch.export program as a func.func --*- C++ -*-===//
#ifndef COREAI_PLAN_LIB_IMPORT_IMPORTPROGRAM_H
#define COREAI_PLAN_LIB_IMPORT_IMPORTPROGRAM_H

#include "Archive.h"

#include "mlir/IR/BuiltinOps.h"

namespace coreai::import {

/// Appends the program in `member` to `module` as `func.func @funcName`
/// (and, for the first program, the module's `coreai.*` attributes).
/// Errors are emitted at `archive` or at the node's location.
mlir::LogicalResult importProgram(mlir::ModuleOp module,
                                  llvm::StringRef archive,
                                  const ModelMember &member,
                                  llvm::StringRef funcName);

} // namespace coreai::import

#endif // COREAI_PLAN_LIB_IMPORT_IMPORTPROGRAM_H

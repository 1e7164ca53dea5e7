//===- ExportArchive.h - torch.export `.pt2` archives as MLIR ---*- C++ -*-===//
//
// A `.pt2` archive (written by `torch.export.save`) is a zip whose
// `<name>/models/<model>.json` member holds the exported program; the
// weights beside it are never read. The importer turns each program into
// one `func.func` in the form of ../shared/graphs/README.md: generic
// `"torch.aten.NAME"` ops with `coreai.*` attributes, arguments and results
// with their kinds. In-place ops are functionalised on import (docs/IMPORT.md).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_IMPORT_EXPORTARCHIVE_H
#define COREAI_PLAN_IMPORT_EXPORTARCHIVE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace coreai {

/// True when `bytes` start like a zip archive (a `.pt2`), not MLIR text or
/// bytecode.
bool looksLikeExportArchive(llvm::StringRef bytes);

/// True when the file at `path` starts like a zip archive.
bool isExportArchiveFile(llvm::StringRef path);

/// Imports the archive held in `archive` (its identifier names it in
/// messages). Returns null after emitting an error at the archive or at the
/// offending node's location.
mlir::OwningOpRef<mlir::ModuleOp>
importExportArchive(llvm::MemoryBufferRef archive, mlir::MLIRContext *context);

/// The same, reading only the zip directory and the model JSON from the
/// file at `path` (a real archive holds gigabytes of weights).
mlir::OwningOpRef<mlir::ModuleOp>
importExportArchiveFile(llvm::StringRef path, mlir::MLIRContext *context);

/// What identifies the archive in `archive` without reading its weights:
/// its zip directory (each member's name, size and CRC-32) as text; empty
/// when it is no readable zip.
std::string exportArchiveIdentity(llvm::MemoryBufferRef archive);

/// The one place tools read a model: the main buffer of `sourceMgr` is
/// imported when it is a `.pt2` archive, parsed as MLIR otherwise.
mlir::OwningOpRef<mlir::ModuleOp> readModel(llvm::SourceMgr &sourceMgr,
                                            mlir::MLIRContext *context);

} // namespace coreai

#endif // COREAI_PLAN_IMPORT_EXPORTARCHIVE_H

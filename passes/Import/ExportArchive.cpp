//===- ExportArchive.cpp - torch.export `.pt2` archives as MLIR -----------===//
#include "coreai-plan/Import/ExportArchive.h"

#include "Archive.h"
#include "ImportProgram.h"

#include "coreai-plan/Passes/Functionalize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

namespace coreai {
namespace {

/// `models/model.json` is the program torch.export.save writes; any other
/// model keeps its file name as the function's.
std::string functionName(llvm::StringRef member) {
  llvm::StringRef stem = llvm::sys::path::stem(member);
  if (stem == "model")
    return "main";
  std::string name;
  for (char c : stem)
    name += llvm::isAlnum(c) ? c : '_';
  return name;
}

mlir::OwningOpRef<mlir::ModuleOp>
importMembers(llvm::Expected<std::vector<import::ModelMember>> members,
              llvm::StringRef archive, mlir::MLIRContext *context) {
  mlir::Location loc = mlir::FileLineColLoc::get(context, archive, 0, 0);
  if (!members) {
    mlir::emitError(loc) << llvm::toString(members.takeError());
    return nullptr;
  }
  context->allowUnregisteredDialects();
  context->loadDialect<mlir::func::FuncDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(loc);
  for (const import::ModelMember &member : *members)
    if (mlir::failed(import::importProgram(*module, archive, member,
                                           functionName(member.path))))
      return nullptr;
  return module;
}

} // namespace

bool looksLikeExportArchive(llvm::StringRef bytes) {
  // A zip starts with a local file header, or an empty one with the end of
  // its central directory.
  return bytes.starts_with("PK\x03\x04") || bytes.starts_with("PK\x05\x06");
}

bool isExportArchiveFile(llvm::StringRef path) {
  llvm::Expected<llvm::sys::fs::file_t> file =
      llvm::sys::fs::openNativeFileForRead(path);
  if (!file) {
    llvm::consumeError(file.takeError());
    return false;
  }
  char head[4] = {};
  llvm::Expected<size_t> got =
      llvm::sys::fs::readNativeFile(*file, llvm::MutableArrayRef(head, 4));
  llvm::sys::fs::closeFile(*file);
  if (!got) {
    llvm::consumeError(got.takeError());
    return false;
  }
  return looksLikeExportArchive(llvm::StringRef(head, *got));
}

mlir::OwningOpRef<mlir::ModuleOp>
importExportArchive(llvm::MemoryBufferRef archive, mlir::MLIRContext *context) {
  return importMembers(import::readModelMembers(archive),
                       archive.getBufferIdentifier(), context);
}

mlir::OwningOpRef<mlir::ModuleOp>
importExportArchiveFile(llvm::StringRef path, mlir::MLIRContext *context) {
  return importMembers(import::readModelMembers(path), path, context);
}

std::string exportArchiveIdentity(llvm::MemoryBufferRef archive) {
  return import::directoryListing(archive);
}

mlir::OwningOpRef<mlir::ModuleOp> readModel(llvm::SourceMgr &sourceMgr,
                                            mlir::MLIRContext *context) {
  const llvm::MemoryBuffer *main =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (looksLikeExportArchive(main->getBuffer()))
    return importExportArchive(main->getMemBufferRef(), context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, context);
  if (!module)
    return nullptr;
  // Every command plans values: in-place ops become their functional twins
  // here, once (a graph without them is left as it is).
  for (auto func : module->getOps<mlir::func::FuncOp>())
    if (mlir::failed(functionalize(func)))
      return nullptr;
  return module;
}

} // namespace coreai

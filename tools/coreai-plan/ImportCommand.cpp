//===- ImportCommand.cpp - coreai-plan import -----------------------------===//
//
// `coreai-plan import model.pt2 -o model.mlir`: the MLIR the other
// subcommands plan when given the archive, for reading and diffing. Each op
// keeps its node's Python source line as its location.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "InputCheck.h"
#include "OutputSet.h"

#include "coreai-plan/Import/ExportArchive.h"
#include "coreai-plan/Passes/Dialects.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::cli {

int runImport();
Command importCommand("import",
                      "Import a torch.export archive (.pt2) and write "
                      "it as MLIR",
                      runImport);

namespace {
namespace cl = llvm::cl;

InputArgument inputPath(importCommand, "<model.pt2>");
cl::opt<std::string> outputPath("o", cl::Required,
                                cl::desc("Where to write the MLIR ('-' for "
                                         "stdout)"),
                                cl::value_desc("FILE"), cl::sub(importCommand));
cl::opt<bool> locations("locations", cl::init(true),
                        cl::desc("Print each op's location (node name and "
                                 "Python line; default on)"),
                        cl::sub(importCommand));

} // namespace

int runImport() {
  ContextOptions contextOptions;
  contextOptions.threading = false;
  std::unique_ptr<mlir::MLIRContext> context = makeContext(contextOptions);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, context.get());
  if (llvm::Error error = refuseProgramInput(
          inputPath, "coreai-plan import", "torch.export archives (.pt2)",
          "a program needs no import: `coreai-plan inspect " + inputPath +
              "` shows its arenas, `coreai-plan plan " + inputPath +
              " -o OUT.pte` re-plans them"))
    return fail(InputError, std::move(error));
  if (!isExportArchiveFile(inputPath))
    return fail(InputError, "'" + inputPath +
                                "' is not a torch.export archive (.pt2, a "
                                "zip); MLIR needs no import");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importExportArchiveFile(inputPath, context.get());
  if (!module)
    return InputError; // the importer said where
  if (mlir::failed(mlir::verify(*module)))
    return InternalError;

  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::OpPrintingFlags flags;
  if (locations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(os, flags);
  os << "\n";
  if (outputPath == "-") {
    llvm::outs() << text;
    return Success;
  }
  // A device or pipe (`/dev/null`) is written in place: renaming a
  // temporary file over it would replace it.
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(outputPath, status) &&
      llvm::sys::fs::exists(status) && !llvm::sys::fs::is_regular_file(status)) {
    std::error_code ec;
    llvm::raw_fd_ostream out(outputPath, ec);
    if (!ec)
      out << text;
    if (ec || out.has_error())
      return fail(InputError, "cannot write '" + outputPath + "'");
    return Success;
  }
  OutputSet outputs;
  if (llvm::Error error = outputs.add(outputPath, text))
    return fail(InputError, std::move(error));
  if (llvm::Error error = outputs.commit())
    return fail(InputError, std::move(error));
  return Success;
}

} // namespace coreai::cli

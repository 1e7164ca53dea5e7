//===- coreai-plan-opt.cpp - mlir-opt with the coreai-plan passes ---------===//
//
// Reads MLIR like mlir-opt, and a torch.export archive (`.pt2`) too: the
// archive is imported first and the passes run on the imported module.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Import/ExportArchive.h"
#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Passes/Passes.h"
#include "coreai-plan/Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace {

/// The archive as MLIR text (with its locations), or null after printing
/// the importer's error.
std::unique_ptr<llvm::MemoryBuffer>
importArchive(std::unique_ptr<llvm::MemoryBuffer> archive) {
  std::unique_ptr<mlir::MLIRContext> context = coreai::makeContext();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, context.get());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      coreai::importExportArchive(archive->getMemBufferRef(), context.get());
  if (!module)
    return nullptr;
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(os, flags);
  return llvm::MemoryBuffer::getMemBufferCopy(
      text, archive->getBufferIdentifier());
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // MlirOptMain makes its own context from this registry (the same dialects
  // as coreai::makeContext; unregistered ones are allowed below for archives).
  mlir::DialectRegistry registry;
  coreai::registerInputDialects(registry);
  coreai::registerPasses();
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "coreai-plan-opt " << coreai::versionDescription() << "\n";
  });
  auto [inputPath, outputPath] = mlir::registerAndParseCLIOptions(
      argc, argv, "coreai-plan optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputPath, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (coreai::looksLikeExportArchive(input->getBuffer())) {
    input = importArchive(std::move(input));
    if (!input)
      return 1;
    config.allowUnregisteredDialects(true);
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputPath, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                                     config)))
    return 1;
  output->keep();
  return 0;
}

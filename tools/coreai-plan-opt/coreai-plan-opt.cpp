//===- coreai-plan-opt.cpp - mlir-opt with the coreai-plan passes ---------===//
#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Passes/Passes.h"
#include "coreai-plan/Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  coreai::registerInputDialects(registry);
  coreai::registerPasses();
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "coreai-plan-opt " << COREAI_PLAN_VERSION << "\n";
  });
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "coreai-plan optimizer driver\n", registry));
}

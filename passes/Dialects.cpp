//===- Dialects.cpp - The dialects coreai-plan reads ----------------------===//
#include "coreai-plan/Passes/Dialects.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

namespace coreai {

void registerInputDialects(mlir::DialectRegistry &registry) {
  registry.insert<CoreAIDialect, mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect,
                  mlir::tosa::TosaDialect>();
  // Every graph has a func.func: loading coreai with func makes the
  // dialect verify `coreai.*` attributes even in a file that names none
  // of its attributes (a context loads dialects only when a parse needs
  // them).
  registry.addExtension(+[](mlir::MLIRContext *context,
                            mlir::func::FuncDialect *) {
    context->getOrLoadDialect<CoreAIDialect>();
  });
}

std::unique_ptr<mlir::MLIRContext> makeContext(const ContextOptions &options) {
  mlir::DialectRegistry registry;
  registerInputDialects(registry);
  auto context = std::make_unique<mlir::MLIRContext>(
      registry, options.threading ? mlir::MLIRContext::Threading::ENABLED
                                  : mlir::MLIRContext::Threading::DISABLED);
  if (options.loadAllDialects)
    context->loadAllAvailableDialects();
  // Exported graphs are `torch.aten.*` ops in generic form.
  context->allowUnregisteredDialects();
  context->printOpOnDiagnostic(options.printOpOnDiagnostic);
  if (options.quietDiagnostics)
    context->getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
  return context;
}

} // namespace coreai

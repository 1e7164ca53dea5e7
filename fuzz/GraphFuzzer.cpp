//===- GraphFuzzer.cpp - importer + liveness + planning under libFuzzer ---===//
//
// Any bytes are parsed as an MLIR module; every function of what parses is
// planned. Planning may refuse with a diagnostic, but a plan it returns
// must verify and be at least the lower bound — never a crash, never a
// wrong plan.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/Verify.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cstdio>
#include <cstdlib>

using namespace coreai;

static mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    mlir::DialectRegistry registry;
    coreai::registerInputDialects(registry);
    auto *c = new mlir::MLIRContext(registry,
                                    mlir::MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    c->allowUnregisteredDialects();
    // Diagnostics are expected for most inputs; keep the fuzzer quiet.
    c->getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
    return c;
  }();
  return *ctx;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer expects a NUL after the buffer, as files read through
  // llvm::MemoryBuffer (what the tools use) have; std::string provides it.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::ParserConfig config(&context());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz.mlir");
  if (!module)
    return 0;
  FunctionPlanOptions options;
  options.solve.timeLimitMs = 5;
  for (auto func : module->getOps<mlir::func::FuncOp>()) {
    if (func.isExternal())
      continue;
    auto planned = planFunction(func, options);
    if (mlir::failed(planned))
      continue;
    if (verifyPlan(planned->problem, planned->plan) ||
        planned->plan.heap < lowerBound(planned->problem)) {
      std::fprintf(stderr, "invariant violated: an unsound plan\n");
      std::abort();
    }
  }
  return 0;
}

//===- ArchiveFuzzer.cpp - .pt2 import + planning under libFuzzer ---------===//
//
// Bytes that start like a zip are imported as a `.pt2` archive; any other
// bytes are taken as the archive's model JSON itself (most mutations of a
// zip only break its checksums, so the JSON is where the importer's logic
// is reached). What imports must verify as IR and plan to a verified plan
// at least the lower bound; every refusal is a diagnostic, never a crash.
//
//===----------------------------------------------------------------------===//
#include "../lib/Import/ImportProgram.h"

#include "coreai-plan/Import/ExportArchive.h"
#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/Verify.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"

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
    c->getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
    return c;
  }();
  return *ctx;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (looksLikeExportArchive(bytes)) {
    module = importExportArchive(llvm::MemoryBufferRef(bytes, "fuzz.pt2"),
                                 &context());
  } else {
    module = mlir::ModuleOp::create(mlir::UnknownLoc::get(&context()));
    import::ModelMember member{"fuzz/models/model.json", bytes.str()};
    if (mlir::failed(import::importProgram(*module, "fuzz.pt2", member,
                                           "main")))
      return 0;
  }
  if (!module)
    return 0;
  if (mlir::failed(mlir::verify(*module))) {
    std::fprintf(stderr, "invariant violated: the importer built invalid IR\n");
    std::abort();
  }
  FunctionPlanOptions options;
  options.solve.timeLimitMs = 5;
  for (auto func : module->getOps<mlir::func::FuncOp>()) {
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

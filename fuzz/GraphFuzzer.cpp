//===- GraphFuzzer.cpp - importer + liveness + planning under libFuzzer ---===//
//
// Any bytes are parsed as an MLIR module; every function of what parses is
// planned. Planning may refuse with a diagnostic, but a plan it returns
// must verify and be at least the lower bound — never a crash, never a
// wrong plan.
//
//===----------------------------------------------------------------------===//
#include "FuzzPlanning.h"

#include "mlir/Parser/Parser.h"

using namespace coreai;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer expects a NUL after the buffer, as files read through
  // llvm::MemoryBuffer (what the tools use) have; std::string provides it.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::ParserConfig config(&fuzz::quietContext());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz.mlir");
  if (module)
    fuzz::checkPlansOf(*module);
  return 0;
}

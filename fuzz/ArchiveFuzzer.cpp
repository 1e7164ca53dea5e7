//===- ArchiveFuzzer.cpp - .pt2 import + planning under libFuzzer ---------===//
//
// Bytes that start like a zip are imported as a `.pt2` archive; any other
// bytes are taken as the archive's model JSON itself (most mutations of a
// zip only break its checksums, so the JSON is where the importer's logic
// is reached). What imports must verify as IR and plan to a verified plan
// at least the lower bound; every refusal is a diagnostic, never a crash.
//
//===----------------------------------------------------------------------===//
#include "../passes/Import/ImportProgram.h"
#include "FuzzPlanning.h"

#include "coreai-plan/Import/ExportArchive.h"

#include "mlir/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace coreai;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  mlir::MLIRContext &context = fuzz::quietContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (looksLikeExportArchive(bytes)) {
    module = importExportArchive(llvm::MemoryBufferRef(bytes, "fuzz.pt2"),
                                 &context);
  } else {
    module = mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
    import::ModelMember member{"fuzz/models/model.json", bytes.str()};
    if (mlir::failed(import::importProgram(*module, "fuzz.pt2", member,
                                           "main")))
      return 0;
  }
  if (!module)
    return 0;
  fuzz::check(mlir::succeeded(mlir::verify(*module)),
              "the importer built invalid IR");
  fuzz::checkPlansOf(*module);
  return 0;
}

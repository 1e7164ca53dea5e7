//===- ReorderPass.cpp - The coreai-reorder pass --------------------------===//
#include "coreai-plan/Passes/Passes.h"
#include "coreai-plan/Passes/Reorder.h"

#include "mlir/IR/Diagnostics.h"

namespace coreai {
#define GEN_PASS_DEF_COREAIREORDER
#include "coreai-plan/Passes/Passes.h.inc"

namespace {
struct ReorderPass : impl::CoreAIReorderBase<ReorderPass> {
  using CoreAIReorderBase::CoreAIReorderBase;

  void runOnOperation() override {
    mlir::func::FuncOp func = getOperation();
    if (func.isDeclaration() || !func.getBody().hasOneBlock())
      return;
    if (llvm::Error error = checkAlignment(alignment)) {
      func.emitError(llvm::toString(std::move(error)));
      return signalPassFailure();
    }
    LivenessOptions options;
    options.alignment = alignment;
    options.inPlace = inPlace;
    // A function liveness cannot size keeps its order: that is a missed
    // saving, not an error (as in the arena rewrite).
    std::optional<mlir::Diagnostic> refusal;
    auto bounds = [&] {
      mlir::ScopedDiagnosticHandler capture(
          &getContext(), [&](mlir::Diagnostic &diag) {
            if (diag.getSeverity() != mlir::DiagnosticSeverity::Error ||
                refusal)
              return mlir::failure();
            refusal.emplace(std::move(diag));
            return mlir::success();
          });
      return reorderForLowerBound(func, options);
    }();
    if (mlir::failed(bounds)) {
      func.emitRemark("@") << func.getSymName() << " keeps its op order: "
                           << (refusal ? refusal->str()
                                       : std::string("liveness failed"));
      return;
    }
    if (bounds->second < bounds->first)
      func.emitRemark("reordered @")
          << func.getSymName() << ": lower bound " << bounds->first << " -> "
          << bounds->second << " bytes";
  }
};
} // namespace
} // namespace coreai

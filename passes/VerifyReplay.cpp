//===- VerifyReplay.cpp - The coreai-verify-replay pass -------------------===//
//
// For CI on planned graphs (MODEL.planned.mlir from `coreai-plan plan`):
// the replay planFunction runs on every plan, re-run from the IR alone,
// and with `original=FILE` the check that planning kept the dataflow.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/Passes.h"

#include "coreai-plan/Dialect/CoreAI.h"
#include "coreai-plan/Passes/VerifyReplay.h"
#include "coreai-plan/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/Path.h"

namespace coreai {
#define GEN_PASS_DEF_COREAIVERIFYREPLAY
#include "coreai-plan/Passes/Passes.h.inc"

namespace {
struct VerifyReplayPass : impl::CoreAIVerifyReplayBase<VerifyReplayPass> {
  using Base::Base;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    mlir::OwningOpRef<mlir::ModuleOp> originalModule;
    if (!original.empty()) {
      mlir::ParserConfig config(module.getContext());
      originalModule =
          mlir::parseSourceFile<mlir::ModuleOp>(original.getValue(), config);
      if (!originalModule) {
        module.emitError("cannot read the original graph '")
            << original.getValue() << "'";
        return signalPassFailure();
      }
    }
    std::optional<Target> planned;
    if (!target.empty()) {
      // A name from the targets folder, or the path of a target file.
      llvm::StringRef name = target.getValue();
      llvm::StringRef dir = defaultTargetsDir();
      if (name.ends_with(".json")) {
        dir = llvm::sys::path::parent_path(target.getValue());
        name = llvm::sys::path::stem(target.getValue());
      }
      llvm::Expected<Target> loaded = loadTarget(name, dir);
      if (!loaded) {
        module.emitError(llvm::toString(loaded.takeError()));
        return signalPassFailure();
      }
      planned = std::move(*loaded);
    }
    bool failedAny = false, replayedAny = false;
    for (auto func : module.getOps<mlir::func::FuncOp>()) {
      if (!func->hasAttr(coreai::attr::plan))
        continue;
      replayedAny = true;
      ReplayOptions options;
      options.alignment = alignment;
      if (planned) {
        if (alignment == 0)
          options.alignment = planned->alignment;
        options.workspaceRules = &planned->workspace;
        options.resultDtypeRules = &planned->resultDtypes;
        options.kernelsInIrOrder = planned->kernelsRunInIrOrder;
      }
      if (originalModule) {
        auto entry = func->getAttrOfType<mlir::StringAttr>(coreai::attr::entry);
        llvm::StringRef name = entry ? entry.getValue() : func.getSymName();
        options.original =
            originalModule->lookupSymbol<mlir::func::FuncOp>(name);
        if (!options.original) {
          func.emitError("the original graph has no function @") << name;
          failedAny = true;
          continue;
        }
      }
      failedAny |= failed(verifyReplay(func, options));
    }
    if (!replayedAny)
      module.emitError(
          "no function with a 'coreai.plan' to replay in this module");
    if (failedAny || !replayedAny)
      signalPassFailure();
  }
};
} // namespace
} // namespace coreai

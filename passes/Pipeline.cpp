//===- Pipeline.cpp - coreai-plan-pipeline: TOSA/linalg to arena IR -------===//
//
// One command from a TOSA or linalg-on-tensors module to bufferized IR whose
// intermediates live in a planned arena:
//
//   coreai-specialize-shapes                     (only with bind=...)
//   tosa-to-{linalg-named,linalg,arith,tensor}   (no-ops on linalg input)
//   one-shot-bufferize (function boundaries, identity layouts)
//   buffer-deallocation-pipeline                 (explicit alloc/dealloc)
//   coreai-rewrite-to-arena                      (plan + memref.view)
//   canonicalize
//
// The output is ready for the usual upstream lowering to LLVM (see
// docs/ARENA.md).
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace coreai {
namespace {

struct PlanPipelineOptions : PassPipelineOptions<PlanPipelineOptions> {
  ListOption<std::string> bind{
      *this, "bind",
      llvm::cl::desc("Bind symbolic dims first (coreai-specialize-shapes), "
                     "e.g. bind=s0=64")};
  Option<std::string> arena{*this, "arena",
                            llvm::cl::desc("alloc | argument"),
                            llvm::cl::init("alloc")};
  Option<Algorithm> algorithm{
      *this, "algorithm",
      llvm::cl::desc("Packing algorithm (docs/SOLVERS.md)"),
      llvm::cl::init(Algorithm::Best), algorithmValues()};
  Option<int64_t> alignment{*this, "alignment",
                            llvm::cl::desc("Offset alignment in bytes"),
                            llvm::cl::init(defaultAlignment)};
  ListOption<std::string> functions{
      *this, "functions",
      llvm::cl::desc("Rewrite only these functions (default: all)")};
  Option<bool> inPlace{
      *this, "in-place",
      llvm::cl::desc("Elementwise outputs written into dying inputs (the "
                     "arena rewrite's in-place)"),
      llvm::cl::init(false)};
  Option<bool> reorder{
      *this, "reorder",
      llvm::cl::desc("coreai-reorder on the linalg-on-tensors form, before "
                     "bufferization"),
      llvm::cl::init(false)};
  Option<bool> poison{*this, "poison",
                      llvm::cl::desc("Fill each arena with 0xFF on entry"),
                      llvm::cl::init(false)};
  Option<bool> testCorruptPlan{
      *this, "test-corrupt-plan",
      llvm::cl::desc("Testing only: make two live buffers share bytes"),
      llvm::cl::init(false)};
};

/// One-shot bufferization needs the bufferization models of the dialects
/// it meets. mlir-opt registers them all up front; this pipeline brings its
/// own, so any driver that registers coreai's passes can run it.
struct LoadBufferizationModelsPass
    : PassWrapper<LoadBufferizationModelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LoadBufferizationModelsPass)

  StringRef getArgument() const final {
    return "coreai-load-bufferization-models";
  }
  StringRef getDescription() const final {
    return "Load the dialects and bufferization models the pipeline needs";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                    func::FuncDialect, linalg::LinalgDialect,
                    memref::MemRefDialect, scf::SCFDialect,
                    tensor::TensorDialect>();
    arith::registerBufferizableOpInterfaceExternalModels(registry);
    bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
        registry);
    linalg::registerBufferizableOpInterfaceExternalModels(registry);
    scf::registerBufferizableOpInterfaceExternalModels(registry);
    tensor::registerBufferizableOpInterfaceExternalModels(registry);
  }
  void runOnOperation() override {}
};

void buildPlanPipeline(OpPassManager &pm, const PlanPipelineOptions &opts) {
  pm.addPass(std::make_unique<LoadBufferizationModelsPass>());
  OpPassManager &perFunction = pm.nest<func::FuncOp>();
  if (!opts.bind.empty()) {
    CoreAISpecializeShapesOptions specialize;
    specialize.bind.assign(opts.bind.begin(), opts.bind.end());
    perFunction.addPass(createCoreAISpecializeShapes(specialize));
  }
  perFunction.addPass(tosa::createTosaToLinalgNamed());
  perFunction.addPass(tosa::createTosaToLinalg());
  perFunction.addPass(createTosaToArithPass());
  perFunction.addPass(createTosaToTensorPass());
  if (opts.reorder) {
    CoreAIReorderOptions reorder;
    reorder.alignment = opts.alignment;
    reorder.inPlace = opts.inPlace;
    perFunction.addPass(createCoreAIReorder(reorder));
  }

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);

  CoreAIRewriteToArenaOptions rewrite;
  rewrite.arena = opts.arena;
  rewrite.algorithm = opts.algorithm;
  rewrite.alignment = opts.alignment;
  rewrite.functions.assign(opts.functions.begin(), opts.functions.end());
  rewrite.poison = opts.poison;
  rewrite.inPlace = opts.inPlace;
  rewrite.testCorruptPlan = opts.testCorruptPlan;
  pm.addPass(createCoreAIRewriteToArena(rewrite));
  pm.addPass(createCanonicalizerPass());
}

} // namespace

void registerPlanPipeline() {
  PassPipelineRegistration<PlanPipelineOptions>(
      "coreai-plan-pipeline",
      "TOSA or linalg-on-tensors to bufferized IR whose intermediates are "
      "views of one planned arena (docs/ARENA.md)",
      buildPlanPipeline);
}

} // namespace coreai

//===- ReplayPlacementsTest.cpp - A plan replayed without annotations -----===//
//
// replayPlan hands the replay the placements the annotations would state
// (PlannedPlacements) instead of writing them: the parametric planner
// checks most S of a range that way. The replay must judge them as it
// judges the annotations: a sound plan passes, and a plan that lets a
// value be overwritten before its last read, or that leaves the heap,
// fails.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/Passes/VerifyReplay.h"
#include "coreai-plan/Solve/Solve.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace coreai;

namespace {

/// Three values in a chain; %0 is read again by the last op, so it is
/// live while %1 and %2 are written.
constexpr const char *chain = R"mlir(
func.func @main(%x: tensor<4x16xf32> {coreai.kind = "input", coreai.name = "x"})
    -> (tensor<4x16xf32> {coreai.kind = "output"}) {
  %0 = "torch.aten.tanh"(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = "torch.aten.sigmoid"(%0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = "torch.aten.relu"(%1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %3 = "torch.aten.add"(%2, %0) {coreai.overload = "Tensor"} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %3 : tensor<4x16xf32>
}
)mlir";

struct Planned {
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  FunctionPlanOptions options;
  FunctionBuffers buffers;
  Plan plan;
  std::vector<std::string> errors;
  std::optional<mlir::ScopedDiagnosticHandler> handler;

  Planned() {
    handler.emplace(context.get(), [this](mlir::Diagnostic &diagnostic) {
      errors.push_back(diagnostic.str());
      return mlir::success();
    });
    module = mlir::parseSourceString<mlir::ModuleOp>(chain, context.get());
    REQUIRE(module);
    func = *module->getOps<mlir::func::FuncOp>().begin();
    options.liveness.alignment = 64;
    options.liveness.inPlace = false; // three buffers, no reuse
    mlir::FailureOr<FunctionBuffers> found =
        computeBuffers(func, options.liveness);
    REQUIRE(mlir::succeeded(found));
    buffers = std::move(*found);
    REQUIRE(buffers.problem.buffers.size() == 3);
    SolveResult solved = solve(buffers.problem, SolveOptions());
    REQUIRE(solved.plan);
    plan = *solved.plan;
  }

  bool replays() {
    return mlir::succeeded(replayPlan(func, buffers, plan, {}, options));
  }
  /// The buffer of the value `index` (0 for %0).
  size_t bufferOf(unsigned index) {
    mlir::Value value =
        std::next(func.getBody().front().begin(), index)->getResult(0);
    for (size_t b = 0; b < buffers.values.size(); ++b)
      if (llvm::is_contained(buffers.values[b], value))
        return b;
    FAIL("no buffer holds %" << index);
    return 0;
  }
};

} // namespace

TEST_CASE("replayPlan passes a sound plan and writes no annotation",
          "[replay]") {
  Planned planned;
  CHECK(planned.replays());
  CHECK(planned.errors.empty());
  CHECK_FALSE(planned.func->hasAttr(attr::plan));
  planned.func.walk([](mlir::Operation *op) {
    CHECK_FALSE(op->hasAttr(attr::placement));
  });
}

TEST_CASE("replayPlan fails a value overwritten before its last read",
          "[replay]") {
  Planned planned;
  // %2 over %0, which the add still reads.
  planned.plan.offsets[planned.bufferOf(2)] =
      planned.plan.offsets[planned.bufferOf(0)];
  CHECK_FALSE(planned.replays());
  REQUIRE_FALSE(planned.errors.empty());
  CHECK_THAT(planned.errors.front(),
             Catch::Contains("fails the replay") && Catch::Contains("%0"));
}

TEST_CASE("replayPlan fails a value outside the heap", "[replay]") {
  Planned planned;
  planned.plan.heap -= 64;
  CHECK_FALSE(planned.replays());
  REQUIRE_FALSE(planned.errors.empty());
  CHECK_THAT(planned.errors.front(), Catch::Contains("heap"));
}

TEST_CASE("replayPlan fails a placement whose size is not its type's",
          "[replay]") {
  // What the parametric planner relies on to check its size expressions
  // at the S it replays this way.
  Planned planned;
  planned.buffers.problem.buffers[planned.bufferOf(1)].size -= 64;
  CHECK_FALSE(planned.replays());
  REQUIRE_FALSE(planned.errors.empty());
  CHECK_THAT(planned.errors.front(), Catch::Contains("takes 256"));
}

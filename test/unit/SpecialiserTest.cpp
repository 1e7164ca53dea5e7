//===- SpecialiserTest.cpp - One clone bound to S after S -----------------===//
//
// The parametric planner replays most S of a piece on one clone whose
// types it binds to each S in turn (Specialiser::rebind) instead of a
// fresh clone per S. The clone must be, at every S and in any order of
// S, what a fresh clone in the piece's op order is there: the same ops
// in the same order with the same types, the function's type included.
//
//===----------------------------------------------------------------------===//
#include "Bundle/ParametricSpecialiser.h"

#include "coreai-plan/Passes/Dialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace coreai;

namespace {

/// Sizes linear and quadratic in s0 (attention's scores), a static weight
/// and a second symbol bound for the whole range.
constexpr const char *dynamicGraph = R"mlir(
module {
  func.func @main(%w: tensor<16x8xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %ids: tensor<1x?xi64> {coreai.kind = "input", coreai.name = "input_ids", coreai.sym_shape = "1,s0"},
                  %k: tensor<?x8xf32> {coreai.kind = "input", coreai.name = "k", coreai.sym_shape = "s1,8"})
      -> (tensor<1x?x8xf32> {coreai.kind = "output", coreai.sym_shape = "1,s0,8"}) {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,8"]} : (tensor<16x8xf32>, tensor<1x?xi64>) -> tensor<1x?x8xf32>
    %1 = "torch.aten.bmm"(%0, %0) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,s0"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x?xf32>
    %2 = "torch.aten.tanh"(%k) {coreai.overload = "default", coreai.sym_shapes = ["s1,8"]} : (tensor<?x8xf32>) -> tensor<?x8xf32>
    %3 = "torch.aten.cat"(%0, %0) {coreai.overload = "default", coreai.args = "([T, T], 1)", coreai.sym_shapes = ["1,2*s0,8"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    %4 = "torch.aten.tanh"(%0) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,8"]} : (tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    return %4 : tensor<1x?x8xf32>
  }
}
)mlir";

/// Every value's type, in the function's current order.
std::vector<mlir::Type> typesOf(mlir::func::FuncOp func) {
  std::vector<mlir::Type> types{mlir::Type(func.getFunctionType())};
  for (mlir::BlockArgument argument : func.getArguments())
    types.push_back(argument.getType());
  for (mlir::Operation *op : currentOrder(func))
    for (mlir::Value result : op->getResults())
      types.push_back(result.getType());
  return types;
}

std::vector<std::string> namesOf(mlir::func::FuncOp func) {
  std::vector<std::string> names;
  for (mlir::Operation *op : currentOrder(func))
    names.push_back(op->getName().getStringRef().str());
  return names;
}

} // namespace

TEST_CASE("a rebound clone is a fresh clone at every S, in any order",
          "[parametric]") {
  auto context = makeContext();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(dynamicGraph,
                                                        context.get());
  REQUIRE(module);
  PlanJob job;
  job.source = *module->getOps<mlir::func::FuncOp>().begin();
  job.bindings["s1"] = 5;
  job.parametric = true;
  job.lo = 1;
  job.hi = 9;
  job.chunkSymbol = "s0";
  Specialiser specialiser(job, *module);
  specialiser.symbol = "s0";
  // A piece's order, not the source's: the tanh of %k moved up, the cat last.
  specialiser.setLayout({0, 2, 1, 4, 3, 5}, {});
  Specialiser::Rebindable kept = specialiser.rebindable("main__replay");
  for (int64_t s : {9, 1, 4, 4, 2, 8}) {
    CAPTURE(s);
    REQUIRE(mlir::succeeded(specialiser.rebind(kept, s)));
    mlir::FailureOr<mlir::func::FuncOp> fresh =
        specialiser.cloneAt(s, "main__fresh");
    REQUIRE(mlir::succeeded(fresh));
    specialiser.order(*fresh);
    CHECK(namesOf(kept.func) == namesOf(*fresh));
    CHECK(typesOf(kept.func) == typesOf(*fresh));
    auto scores = llvm::cast<mlir::RankedTensorType>(
        currentOrder(kept.func)[2]->getResult(0).getType());
    CHECK(scores.getShape() == llvm::ArrayRef<int64_t>{1, s, s});
    fresh->erase();
  }
  kept.func.erase();
}

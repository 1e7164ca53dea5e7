//===- BundlePlannerTest.cpp - The bundle planner as a library ------------===//
//
// planBundle and fitBundle on small graphs written by the test: one entry
// per (entry point, S), every plan verified, the bundle heap the largest,
// errors of the right kind; the option grammars they take.
//
//===----------------------------------------------------------------------===//
#include "PlanChecks.h"
#include "coreai-plan/Bundle/Fit.h"
#include "coreai-plan/Bundle/Planner.h"
#include "coreai-plan/Verify.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

using namespace coreai;

namespace {

/// A dynamic graph: one symbol s0 in [1, 8]; its heap grows with s0.
constexpr const char *dynamicGraph = R"mlir(
module attributes {coreai.sym_ranges = "{\"s0\": [\"1\", \"8\"]}"} {
  func.func @main(%w: tensor<16x8xf32> {coreai.kind = "weight", coreai.name = "w"},
                  %ids: tensor<1x?xi64> {coreai.kind = "input", coreai.name = "input_ids", coreai.sym_shape = "1,s0"})
      -> (tensor<1x?x8xf32> {coreai.kind = "output", coreai.sym_shape = "1,s0,8"}) {
    %0 = "torch.aten.embedding"(%w, %ids) {coreai.overload = "default", coreai.sym_shapes = ["1,s0,8"]} : (tensor<16x8xf32>, tensor<1x?xi64>) -> tensor<1x?x8xf32>
    %1 = "torch.aten.cat"(%0, %0) {coreai.overload = "default", coreai.args = "([T, T], 1)", coreai.sym_shapes = ["1,2*s0,8"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    %2 = "torch.aten.tanh"(%1) {coreai.overload = "default", coreai.sym_shapes = ["1,2*s0,8"]} : (tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    %3 = "torch.aten.mul"(%0, %0) {coreai.overload = "Tensor", coreai.sym_shapes = ["1,s0,8"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    %4 = "torch.aten.sum"(%2, %3) {coreai.overload = "default", coreai.sym_shapes = ["1,(2*s0)//2,8"]} : (tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
    return %4 : tensor<1x?x8xf32>
  }
}
)mlir";

/// Writes `text` to a temporary `.mlir` file removed with the object.
struct TempGraph {
  explicit TempGraph(llvm::StringRef text) {
    llvm::SmallString<128> name;
    int fd;
    REQUIRE_FALSE(
        llvm::sys::fs::createTemporaryFile("bundle-test", "mlir", fd, name));
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    path = name.str().str();
  }
  ~TempGraph() { llvm::sys::fs::remove(path); }
  std::string path;
};

Target testTarget() {
  Target target;
  target.name = "test";
  target.alignment = 64;
  target.inPlaceOpClasses = {"elementwise"};
  return target;
}

PlanRequest requestFor(const std::string &path, std::vector<int64_t> chunks) {
  PlanRequest request;
  request.inputs = {path};
  request.target = testTarget();
  request.chunks = std::move(chunks);
  request.options =
      planOptionsFor(request.target, {}, {Algorithm::Best, 1000, {}});
  return request;
}

/// The value of `expected`, or the test fails with its error.
template <typename T> T valueOf(llvm::Expected<T> expected) {
  if (!expected)
    FAIL(llvm::toString(expected.takeError()));
  return std::move(*expected);
}

template <typename T> bool succeeded(llvm::Expected<T> &expected) {
  return static_cast<bool>(expected);
}

/// The kind of a BundleError (none for any other error).
std::optional<PlanFailure> kindOf(llvm::Error error) {
  std::optional<PlanFailure> kind;
  llvm::handleAllErrors(
      std::move(error), [&](const BundleError &e) { kind = e.kind; },
      [](const llvm::ErrorInfoBase &) {});
  return kind;
}

} // namespace

TEST_CASE("planBundle plans each entry point at each S, verified", "[bundle]") {
  TempGraph graph(dynamicGraph);
  PlannedBundle bundle = valueOf(planBundle(requestFor(graph.path, {1, 4, 8})));
  const Manifest &manifest = bundle.manifest;
  REQUIRE(manifest.entries.size() == 3);
  int64_t largest = 0, previous = 0;
  for (const ManifestEntry &entry : manifest.entries) {
    const PlannedEntry &e = entry.planned;
    CHECK(e.entry == "main");
    CHECK(entry.plannedFunction == "main__s" + std::to_string(e.chunk));
    CHECK(violationOf(verifyPlan(e.problem, e.plan)) == "");
    CHECK(e.plan.heap >= e.plan.lowerBound);
    CHECK(e.plan.heap > previous); // the graph's buffers grow with s0
    previous = e.plan.heap;
    largest = std::max(largest, e.plan.heap);
  }
  CHECK(manifest.entries[0].planned.chunk == 1);
  CHECK(manifest.entries[2].planned.chunk == 8);
  CHECK(manifest.bundleHeap == largest);
  CHECK(manifest.target.alignment == 64);
  REQUIRE(bundle.plannedFiles.size() == 1);
  CHECK(bundle.plannedFiles[0].first == plannedModelName(graph.path));
  // One planned clone per S, each marked with its entry point and S.
  const std::string &text = bundle.plannedFiles[0].second;
  for (const char *name : {"@main__s1", "@main__s4", "@main__s8"})
    CHECK(text.find(name) != std::string::npos);
  CHECK(text.find("coreai.plan.heap = " + std::to_string(largest)) !=
        std::string::npos);
}

TEST_CASE("planBundle refuses what it cannot plan, by kind", "[bundle]") {
  TempGraph graph(dynamicGraph);
  SECTION("an S outside coreai.sym_ranges is bad input") {
    auto bundle = planBundle(requestFor(graph.path, {16}));
    REQUIRE_FALSE(succeeded(bundle));
    CHECK(kindOf(bundle.takeError()) == PlanFailure::BadInput);
  }
  SECTION("an --entry the graph lacks is bad input") {
    PlanRequest request = requestFor(graph.path, {1});
    request.entries = {"@decode"};
    auto bundle = planBundle(request);
    REQUIRE_FALSE(succeeded(bundle));
    std::string message = llvm::toString(bundle.takeError());
    CHECK(message.find("@decode") != std::string::npos);
  }
  SECTION("a heap over the target's limit is a 'no', not bad input") {
    PlanRequest request = requestFor(graph.path, {8});
    request.options.maxHeap = 64;
    auto bundle = planBundle(request);
    REQUIRE_FALSE(succeeded(bundle));
    CHECK(kindOf(bundle.takeError()) == PlanFailure::OverLimit);
  }
  SECTION("a missing file is bad input naming it") {
    auto bundle = planBundle(requestFor(graph.path + ".absent", {1}));
    REQUIRE_FALSE(succeeded(bundle));
    std::string message = llvm::toString(bundle.takeError());
    CHECK(message.find(".absent") != std::string::npos);
  }
}

TEST_CASE("fitBundle answers from plans, and bisection agrees with a list",
          "[bundle]") {
  TempGraph graph(dynamicGraph);
  std::vector<int64_t> all = {1, 2, 3, 4, 5, 6, 7, 8};
  PlannedBundle every = valueOf(planBundle(requestFor(graph.path, all)));
  std::vector<int64_t> heaps;
  for (const ManifestEntry &entry : every.manifest.entries)
    heaps.push_back(entry.planned.plan.heap);
  // A budget between the heaps at S=5 and S=6: S 1..5 fit.
  int64_t budget = heaps[4];
  REQUIRE(heaps[5] > budget);

  BundleFit listed =
      valueOf(fitBundle(requestFor(graph.path, all), budget, false));
  REQUIRE(listed.entries.size() == 1);
  CHECK(listed.entries[0].fitting() == std::vector<int64_t>{1, 2, 3, 4, 5});
  CHECK(listed.entries[0].planned.size() == all.size());
  CHECK_FALSE(listed.entries[0].bisected);
  CHECK(listed.allFit());

  BundleFit bisected =
      valueOf(fitBundle(requestFor(graph.path, all), budget, true));
  const EntryFit &fit = bisected.entries[0];
  CHECK(fit.bisected);
  CHECK(fit.fitting() == listed.entries[0].fitting());
  CHECK(fit.planned.size() < all.size());
  CHECK(fit.candidates == all.size());

  BundleFit none =
      valueOf(fitBundle(requestFor(graph.path, all), heaps[0] - 1, true));
  CHECK(none.entries[0].fitting().empty());
  CHECK_FALSE(none.allFit());
}

TEST_CASE("fitBundle ignores the request's heap limit", "[bundle]") {
  TempGraph graph(dynamicGraph);
  PlanRequest request = requestFor(graph.path, {1, 8});
  request.options.maxHeap = 64; // would fail planBundle
  BundleFit fit = valueOf(fitBundle(request, 64, false));
  CHECK(fit.entries[0].fitting().empty());
}

TEST_CASE("fitBudget is the smaller of the total and the target's limit",
          "[bundle]") {
  Target target = testTarget();
  CHECK(fitBudget(target, 1000) == 1000);
  target.heapLimit = 500;
  CHECK(fitBudget(target, 1000) == 500);
  CHECK(fitBudget(target, 100) == 100);
}

TEST_CASE("planOptionsFor: reuse where the target allows, unless switched off",
          "[bundle]") {
  Target target = testTarget();
  target.heapLimit = 4096;
  FunctionPlanOptions on = planOptionsFor(target, {}, {});
  CHECK(on.liveness.alignment == 64);
  CHECK(on.liveness.inPlace);
  CHECK_FALSE(on.liveness.inPlaceSoftmax); // the target lacks "softmax"
  CHECK(on.liveness.outputPlacement);
  CHECK(on.liveness.statePlacement);
  CHECK_FALSE(on.liveness.outputsInHeap);
  CHECK(on.reorder);
  CHECK(on.maxHeap == 4096);

  ReuseSwitches off{true, true, true, true};
  FunctionPlanOptions none = planOptionsFor(target, off, {});
  CHECK_FALSE(none.liveness.inPlace);
  CHECK_FALSE(none.liveness.outputPlacement);
  CHECK_FALSE(none.liveness.statePlacement);
  CHECK_FALSE(none.reorder);

  target.outputsBoundBeforeCall = false;
  FunctionPlanOptions inHeap = planOptionsFor(target, {}, {});
  CHECK(inHeap.liveness.outputsInHeap);
  CHECK_FALSE(inHeap.liveness.outputPlacement);
}

TEST_CASE("chunk lists, ranges and bindings parse or say why", "[bundle]") {
  CHECK(valueOf(parseChunkList("32, 1,16,1")) ==
        std::vector<int64_t>{1, 16, 32});
  for (const char *bad : {"", "1,x", "0", "1,-4"}) {
    auto chunks = parseChunkList(bad);
    CHECK_FALSE(succeeded(chunks));
    llvm::consumeError(chunks.takeError());
  }

  ChunkChoice range = valueOf(parseChunkChoice("3..6"));
  CHECK(range.range);
  CHECK(range.chunks == std::vector<int64_t>{3, 4, 5, 6});
  for (const char *bad : {"6..3", "0..4", "1..x", "1..100000"}) {
    auto choice = parseChunkChoice(bad);
    CHECK_FALSE(succeeded(choice));
    llvm::consumeError(choice.takeError());
  }

  Bindings bindings = valueOf(parseBindings({"s0=S", "s1=12"}));
  CHECK(bindings.chunkSymbol == "s0");
  CHECK(bindings.fixed.at("s1") == 12);
  for (std::vector<std::string> bad :
       {std::vector<std::string>{"s0=S", "s1=S"}, {"=S"}, {"s1=twelve"}}) {
    auto parsed = parseBindings(bad);
    CHECK_FALSE(succeeded(parsed));
    llvm::consumeError(parsed.takeError());
  }
}

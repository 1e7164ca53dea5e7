//===- ParametricTest.cpp - One plan for every S: construction and checks ===//
#include "coreai-plan/Parametric.h"
#include "ParametricTesting.h"
#include "PlanChecks.h"
#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Solve/Solve.h"
#include "coreai-plan/Verify.h"

#include <catch2/catch.hpp>

#include <random>

using namespace coreai;

namespace {

std::vector<int64_t> sample(const SizeExpr &e, int64_t lo, int64_t hi) {
  std::vector<int64_t> sizes;
  for (int64_t s = lo; s <= hi; ++s)
    sizes.push_back(e.at(s));
  return sizes;
}

/// Sizes that cross over at S=32: `a` is 4096 bytes, `c` and `d` are 128*S;
/// `b` sits above `a` and `d`, whichever ends higher.
std::vector<ParametricBuffer> crossing() {
  return {{"a", 0, 3, 64, expr({4096}), {}},
          {"c", 1, 5, 64, expr({0, 128}), {}},
          {"b", 2, 4, 64, expr({128}), {}},
          {"d", 3, 5, 64, expr({0, 128}), {}}};
}

BufferProblem problemOf(const std::vector<ParametricBuffer> &buffers,
                        int64_t s) {
  ParametricPlan plan;
  plan.buffers = buffers;
  return plan.problemAt(s);
}

Plan solved(const BufferProblem &problem) {
  SolveOptions options;
  options.timeLimitMs = 200;
  SolveResult result = solve(problem, options);
  REQUIRE(result.plan);
  return *result.plan;
}

/// The crossing buffers' plan for S in [1, 64], referenced at 64.
ParametricPlan crossingPlan() {
  std::vector<ParametricBuffer> buffers = crossing();
  auto plan = buildParametricPlan(1, 64, buffers,
                                  solved(problemOf(buffers, 64)).offsets);
  REQUIRE(bool(plan));
  return std::move(*plan);
}

} // namespace

TEST_CASE("size expressions are fitted exactly or refused", "[parametric]") {
  SizeExpr affine = expr({256, 93696});
  CHECK(fitSizeExpr(1, sample(affine, 1, 64)) == affine);
  CHECK(fitSizeExpr(5, sample(expr({4096}), 5, 9)) == expr({4096}));
  CHECK(fitSizeExpr(1, sample(expr({}), 1, 4)) == expr({}));
  SizeExpr quadratic = expr({64, -8, 4});
  CHECK(fitSizeExpr(3, sample(quadratic, 3, 40)) == quadratic);
  CHECK(fitSizeExpr(7, {100}) == expr({100}));

  // 64 * ((S + 1) / 2): three points fit a polynomial, the fourth refutes
  // it.
  std::vector<int64_t> floorDiv;
  for (int64_t s = 1; s <= 8; ++s)
    floorDiv.push_back(64 * ((s + 1) / 2));
  CHECK_FALSE(fitSizeExpr(1, floorDiv));
  // S(S+1)/2 is integer everywhere but has half coefficients.
  CHECK_FALSE(fitSizeExpr(1, {1, 3, 6, 10}));
  // A cubic.
  CHECK_FALSE(fitSizeExpr(0, {0, 1, 8, 27, 64}));
  CHECK_FALSE(fitSizeExpr(1, {}));

  CHECK(expr({256, 93696}).str() == "256 + 93696*S");
  CHECK(expr({0, 1, -2}).str() == "S - 2*S^2");
  CHECK(expr({}).str() == "0");
}

TEST_CASE("crossing sizes keep a max of two terms, valid at every S",
          "[parametric]") {
  std::vector<ParametricBuffer> buffers = crossing();
  Plan reference = solved(problemOf(buffers, 64));
  auto plan = buildParametricPlan(1, 64, buffers, reference.offsets);
  REQUIRE(bool(plan));
  CHECK(violationOf(verifyParametricPlan(*plan)) == "");
  // `b` sits on both `a` and `d`: a + 0 (4096) wins below S=32, d's end
  // (256*S) above it, so neither term can be pruned.
  CHECK(plan->buffers[2].below == std::vector<uint32_t>{0, 3});
  CHECK(plan->heapAt(64) <= reference.heap);
  for (int64_t s = 1; s <= 64; ++s)
    CHECK(plan->heapAt(s) == heapOf(plan->problemAt(s), plan->offsetsAt(s)));
}

TEST_CASE("the offsets of one S do not serve another, the expressions do",
          "[parametric]") {
  // Tries to break the construction: the best plan at S=1 reused as fixed
  // offsets overlaps at S=64, where the sizes have crossed.
  std::vector<ParametricBuffer> buffers = crossing();
  Plan atOne = solved(problemOf(buffers, 1));
  bool fixedFailsSomewhere = false;
  for (int64_t s = 1; s <= 64; ++s) {
    BufferProblem problem = problemOf(buffers, s);
    Plan fixed = atOne;
    fixed.heap = heapOf(problem, fixed.offsets);
    fixedFailsSomewhere |= llvm::errorToBool(verifyPlan(problem, fixed));
  }
  CHECK(fixedFailsSomewhere);

  auto plan = buildParametricPlan(1, 64, buffers, atOne.offsets);
  REQUIRE(bool(plan));
  CHECK(violationOf(verifyParametricPlan(*plan)) == "");
  CHECK(plan->heapAt(1) <= atOne.heap);
}

TEST_CASE("a pruned term that was needed is caught by the verifier",
          "[parametric]") {
  ParametricPlan plan = crossingPlan();
  ParametricPlan broken = plan;
  broken.buffers[2].below = {0}; // drop d's term: overlaps above S=32
  std::string violation = violationOf(verifyParametricPlan(broken));
  REQUIRE(violation != "");
  CHECK(violation.find("at S=") != std::string::npos);

  broken = plan;
  broken.heapTerms = {0};
  CHECK(violationOf(verifyParametricPlan(broken)) != "");

  broken = plan;
  std::swap(broken.order.front(), broken.order.back());
  CHECK(violationOf(verifyParametricPlan(broken)) != "");

  // The graph's own sizes at S must be those of the expressions.
  BufferProblem other = plan.problemAt(10);
  other.buffers[1].size += 64;
  std::string mismatch = violationOf(verifyParametricAt(plan, 10, other));
  REQUIRE(mismatch != "");
  CHECK(mismatch.find("its expression 128*S gives 1280") != std::string::npos);
  CHECK(violationOf(verifyParametricAt(plan, 65, plan.problemAt(64))) != "");
}

TEST_CASE("random parametric plans verify at every S", "[parametric]") {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 60; ++round) {
    std::uniform_int_distribution<int> count(1, 14), time(0, 12),
        base(0, 4000), slope(-30, 300), align(0, 3);
    int64_t lo = 1 + round % 5, hi = lo + 20 + round % 40;
    std::vector<ParametricBuffer> buffers;
    int n = count(rng);
    for (int i = 0; i < n; ++i) {
      int64_t start = time(rng), end = start + 1 + time(rng) % 5;
      int64_t b = slope(rng), a = base(rng);
      // Sizes stay non-negative over the range.
      if (a + b * lo < 0 || a + b * hi < 0)
        b = 0;
      SizeExpr size = round % 7 == 0 ? expr({a, b, int64_t(round % 3)})
                                     : expr({a, b});
      while (!size.coefficients.empty() && size.coefficients.back() == 0)
        size.coefficients.pop_back();
      buffers.push_back({"b" + std::to_string(i), start, end,
                         int64_t(1) << (2 * align(rng)), size, {}});
    }
    int64_t at = lo + int64_t(rng() % uint64_t(hi - lo + 1));
    Plan reference = solved(problemOf(buffers, at));
    auto plan = buildParametricPlan(lo, hi, buffers, reference.offsets);
    REQUIRE(bool(plan));
    INFO("round " << round << ", reference at S=" << at);
    CHECK(violationOf(verifyParametricPlan(*plan)) == "");
    CHECK(plan->heapAt(at) <= reference.heap);
  }
}

TEST_CASE("sizes negative inside the range are refused", "[parametric]") {
  // Positive at both ends (71 bytes at S=1 and S=19), negative from S=7.
  std::vector<ParametricBuffer> buffers = {
      {"dip", 0, 1, 1, expr({90, -20, 1}), {}}};
  auto plan = buildParametricPlan(1, 19, buffers, {0});
  REQUIRE_FALSE(bool(plan));
  CHECK(llvm::toString(plan.takeError()).find("negative at S=7") !=
        std::string::npos);
  ParametricPlan forged;
  forged.lo = 1;
  forged.hi = 19;
  forged.buffers = buffers;
  forged.order = {0};
  forged.heapTerms = {0};
  std::string violation = violationOf(verifyParametricPlan(forged));
  REQUIRE(violation != "");
  CHECK(violation.find("size out of range at S=7") != std::string::npos);
}

TEST_CASE("largest fitting S is read off the heap expression",
          "[parametric]") {
  ParametricPlan plan = crossingPlan();
  int64_t at40 = plan.heapAt(40);
  CHECK(plan.largestFitting(at40) >= 40);
  CHECK(plan.heapAt(*plan.largestFitting(at40)) <= at40);
  CHECK_FALSE(plan.largestFitting(plan.heapAt(1) - 1));
}

TEST_CASE("a manifest's parametric section round-trips and is checked",
          "[parametric][manifest]") {
  ParametricPlan plan = crossingPlan();
  Manifest m = parametricManifest(plan, "generic");
  PlannedEntry top;
  top.entry = "main";
  top.chunk = 64;
  top.alignment = 64;
  top.problem = plan.problemAt(64);
  top.plan.offsets = plan.offsetsAt(64);
  top.plan.heap = plan.heapAt(64);
  top.origins.resize(plan.buffers.size());
  m.entries = {{top, 0, "main__s64", "g.planned.mlir"}};
  m.bundleHeap = bundleHeapOf(m);

  for (bool binary : {true, false}) {
    std::string bytes =
        binary ? writeManifestBinary(m) : writeManifestJson(m);
    auto read = readManifest(bytes, "m");
    REQUIRE(bool(read));
    REQUIRE(read->parametric.size() == 1);
    const ParametricPlan &back = read->parametric[0].plan;
    CHECK(back.buffers[2].below == plan.buffers[2].below);
    for (int64_t s = 1; s <= 64; ++s)
      CHECK(back.heapAt(s) == plan.heapAt(s));
    auto at23 = instantiate(*read, read->parametric[0], 23);
    REQUIRE(at23);
    CHECK(at23->plan.offsets == plan.offsetsAt(23));
    CHECK(violationOf(verifyPlan(at23->problem, at23->plan)) == "");
    CHECK_FALSE(instantiate(*read, read->parametric[0], 65));
  }

  // Two pieces of one entry point may not cover the same S.
  Manifest twice = m;
  twice.parametric.push_back(twice.parametric.front());
  twice.parametric.back().plan.lo = 64;
  auto reread = readManifest(writeManifestJson(twice), "twice");
  REQUIRE_FALSE(bool(reread));
  CHECK(llvm::toString(reread.takeError()).find("cover the same S") !=
        std::string::npos);

  // A reader checks every S: a manifest whose expressions overlap at some
  // S is rejected.
  Manifest broken = m;
  broken.parametric[0].plan.buffers[2].below = {0};
  broken.bundleHeap = bundleHeapOf(broken);
  auto read = readManifest(writeManifestBinary(broken), "broken");
  REQUIRE_FALSE(bool(read));
  CHECK(llvm::toString(read.takeError()).find("parametric plan of 'main'") !=
        std::string::npos);
}

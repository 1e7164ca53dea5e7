//===- ParametricBorrowTest.cpp - Parametric plans in outputs' storage ----===//
#include "ParametricTesting.h"
#include "PlanChecks.h"
#include "coreai-plan/Borrow.h"
#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Parametric.h"

#include <catch2/catch.hpp>

using namespace coreai;

namespace {

/// Output 3 (256*S bytes, written at op 6) lends its storage. `x` and `z`
/// are borrowed there and live together; `y` is in the heap, live with
/// both, and `w` is in the heap after the output is written.
std::vector<ParametricBuffer> lent() {
  return {{"x", 0, 4, 64, expr({0, 128}), {}, 0},
          {"y", 1, 8, 64, expr({0, 64}), {}, -1},
          {"z", 2, 5, 64, expr({0, 64}), {}, 0},
          {"w", 6, 8, 64, expr({512}), {}, -1}};
}

std::vector<ParametricBin> outputThree() { return {{3, expr({0, 256}), 6}}; }

} // namespace

TEST_CASE("regions never constrain each other; the heap is the heap's",
          "[parametric][borrow]") {
  // Reference offsets in each buffer's region at S=64: x at 0 and z above
  // it in the output, y at 0 and w above it in the heap.
  auto plan = buildParametricPlan(1, 64, lent(), {0, 0, 8192, 4096},
                                  outputThree());
  REQUIRE(bool(plan));
  CHECK(plan->buffers[2].below == std::vector<uint32_t>{0});
  CHECK(plan->buffers[3].below == std::vector<uint32_t>{1});
  CHECK(plan->buffers[1].below.empty());
  // Only heap buffers are heap terms; the borrowed ones would give 192*S.
  for (uint32_t i : plan->heapTerms)
    CHECK(plan->buffers[i].bin < 0);
  for (int64_t s = 1; s <= 64; ++s) {
    int64_t y = alignTo(64 * s, 64);
    CHECK(plan->heapAt(s) == std::max(y, alignTo(y, 64) + 512));
    CHECK(plan->offsetsAt(s)[2] == 128 * s);
    CHECK(plan->lowerBoundAt(s) ==
          borrowingLowerBound(plan->problemAt(s), plan->binsAt(s)));
  }
  CHECK(plan->binOf() == BinAssignment{0, -1, 0, -1});
  CHECK(plan->binsAt(10) == std::vector<OutputBin>{{3, 2560, 6}});
  CHECK_FALSE(highestOverflow(*plan));
  CHECK(violationOf(verifyParametricPlan(*plan)) == "");
}

TEST_CASE("a buffer that outgrows a shrinking bin is caught at each S",
          "[parametric][borrow]") {
  // A constant 4096-byte buffer in an output of 128*S bytes: it fits from
  // S=32 up, not below.
  std::vector<ParametricBuffer> buffers = {
      {"k", 0, 2, 64, expr({4096}), {}, 0},
      {"h", 0, 4, 64, expr({0, 32}), {}, -1}};
  std::vector<ParametricBin> bins = {{1, expr({0, 128}), 3}};
  auto plan = buildParametricPlan(1, 64, buffers, {0, 0}, bins);
  REQUIRE(bool(plan));
  CHECK(highestOverflow(*plan) == 31);
  CHECK(overflowingAt(*plan, 31) == std::vector<uint32_t>{0});
  CHECK(overflowingAt(*plan, 32).empty());
  CHECK_THAT(violationOf(verifyParametricPlan(*plan)),
             Catch::Contains("at S=1: output 1:"));
  // The part of the range where it fits verifies.
  auto upper = buildParametricPlan(32, 64, buffers, {0, 0}, bins);
  REQUIRE(bool(upper));
  CHECK_FALSE(highestOverflow(*upper));
  CHECK(violationOf(verifyParametricPlan(*upper)) == "");
  // Moved to the heap, it fits everywhere.
  buffers[0].bin = -1;
  auto inHeap = buildParametricPlan(1, 64, buffers, {0, 4096}, bins);
  REQUIRE(bool(inHeap));
  CHECK_FALSE(highestOverflow(*inHeap));
  CHECK(violationOf(verifyParametricPlan(*inHeap)) == "");
  CHECK(inHeap->heapAt(1) == 4096 + 32);
}

TEST_CASE("borrowed parametric plans that break the rules are refused",
          "[parametric][borrow]") {
  auto plan = buildParametricPlan(1, 64, lent(), {0, 0, 8192, 4096},
                                  outputThree());
  REQUIRE(bool(plan));
  // A buffer that outlives its output's first write.
  ParametricPlan late = *plan;
  late.buffers[2].end = 7;
  CHECK_THAT(violationOf(verifyParametricPlan(late)),
             Catch::Contains("whose own value is written at 6"));
  // A region that names no bin, and below lists across regions.
  ParametricPlan nowhere = *plan;
  nowhere.buffers[0].bin = 1;
  CHECK_THAT(violationOf(verifyParametricPlan(nowhere)),
             Catch::Contains("region 1, but there are 1 output bins"));
  ParametricPlan across = *plan;
  across.buffers[3].below = {0};
  CHECK_THAT(violationOf(verifyParametricPlan(across)),
             Catch::Contains("another region"));
  // A heap term in an output.
  ParametricPlan term = *plan;
  term.heapTerms.push_back(0);
  CHECK(violationOf(verifyParametricPlan(term)) != "");
  // The same output lent twice.
  ParametricPlan twice = *plan;
  twice.bins.push_back(twice.bins.front());
  CHECK_THAT(violationOf(verifyParametricPlan(twice)),
             Catch::Contains("lent twice"));
  // The graph at S lends another size or time than the plan says.
  std::vector<OutputBin> other = {{3, 256 * 9, 5}};
  CHECK_THAT(violationOf(verifyParametricAt(*plan, 9, plan->problemAt(9),
                                            &other)),
             Catch::Contains("output bin 0 is output 3 of 2304 bytes until 5"));
  std::vector<OutputBin> same = plan->binsAt(9);
  CHECK(violationOf(verifyParametricAt(*plan, 9, plan->problemAt(9), &same)) ==
        "");
  // buildParametricPlan refuses regions and capacities out of range.
  std::vector<ParametricBuffer> bad = lent();
  bad[0].bin = 2;
  CHECK_FALSE(bool(buildParametricPlan(1, 64, bad, {0, 0, 8192, 4096},
                                       outputThree())));
  std::vector<ParametricBin> shrinking = {{3, expr({100, -10}), 6}};
  auto negative =
      buildParametricPlan(1, 64, lent(), {0, 0, 8192, 4096}, shrinking);
  REQUIRE_FALSE(bool(negative));
  CHECK_THAT(llvm::toString(negative.takeError()),
             Catch::Contains("output 3: capacity 100 - 10*S is out of range "
                             "at S=11"));
}

TEST_CASE("a manifest carries each buffer's region and the outputs' sizes",
          "[parametric][borrow][manifest]") {
  auto plan = buildParametricPlan(1, 64, lent(), {0, 0, 8192, 4096},
                                  outputThree());
  REQUIRE(bool(plan));
  Manifest m = parametricManifest(*plan, "h18p");
  m.bundleHeap = bundleHeapOf(m);
  for (bool binary : {true, false}) {
    auto read = readManifest(binary ? writeManifestBinary(m)
                                    : writeManifestJson(m),
                             "m");
    REQUIRE(bool(read));
    const ParametricPlan &back = read->parametric.at(0).plan;
    CHECK(back.bins == plan->bins);
    CHECK(back.binOf() == plan->binOf());
    auto at23 = instantiate(*read, read->parametric[0], 23);
    REQUIRE(at23);
    CHECK(at23->outputBins == plan->binsAt(23));
    CHECK(at23->binOf == plan->binOf());
    CHECK(at23->borrowedOutput(2) == 3);
    CHECK(at23->plan.heap == plan->heapAt(23));
    CHECK(at23->plan.lowerBound == plan->lowerBoundAt(23));
    CHECK(violationOf(verifyBorrowedPlan(at23->problem, at23->outputBins,
                                         at23->binOf, at23->plan)) == "");
  }
  // An output too small somewhere in the range is refused at reading.
  Manifest small = m;
  small.parametric[0].plan.bins[0].capacity = expr({0, 160});
  auto read = readManifest(writeManifestBinary(small), "small");
  REQUIRE_FALSE(bool(read));
  CHECK_THAT(llvm::toString(read.takeError()),
             Catch::Contains("parametric plan of 'main'"));
  // A region that names an output the plan does not borrow.
  std::string json = writeManifestJson(m);
  size_t at = json.find("\"region_index\": 3");
  REQUIRE(at != std::string::npos);
  json.replace(at, 17, "\"region_index\": 4");
  auto renamed = readManifest(json, "renamed.json");
  REQUIRE_FALSE(bool(renamed));
  CHECK_THAT(llvm::toString(renamed.takeError()),
             Catch::Contains("buffer 'x' is in output 4, which is not "
                             "borrowed"));
}

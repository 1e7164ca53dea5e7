//===- BorrowTest.cpp - Packing into the heap and the outputs' storage ----===//
#include "coreai-plan/Borrow.h"
#include "coreai-plan/Solve/LentRegions.h"
#include "PlanChecks.h"

#include <catch2/catch.hpp>

#include <random>

using namespace coreai;

namespace {

BufferProblem problemOf(std::vector<Buffer> buffers) {
  BufferProblem problem;
  problem.buffers = std::move(buffers);
  return problem;
}

/// The smallest heap over every choice of buffers to borrow (each subset
/// for each bin, packed by the exact search within the bin's capacity):
/// the optimum the borrowing solver and bound are checked against.
int64_t bruteForceHeap(const BufferProblem &problem,
                       const std::vector<OutputBin> &bins) {
  size_t n = problem.buffers.size();
  size_t choices = 1;
  for (size_t i = 0; i < n; ++i)
    choices *= bins.size() + 1;
  SolveOptions exact;
  exact.timeLimitMs = 10000;
  int64_t best = -1;
  for (size_t code = 0; code < choices; ++code) {
    std::vector<BufferProblem> regions(bins.size() + 1);
    bool allowed = true;
    size_t rest = code;
    for (size_t i = 0; i < n; ++i) {
      size_t region = rest % (bins.size() + 1);
      rest /= bins.size() + 1;
      if (region > 0 && !fitsBin(problem.buffers[i], bins[region - 1]))
        allowed = false;
      regions[region].buffers.push_back(problem.buffers[i]);
    }
    if (!allowed)
      continue;
    for (size_t k = 0; k < bins.size() && allowed; ++k) {
      regions[k + 1].capacity = bins[k].capacity;
      SolveResult packed = solve(regions[k + 1], exact);
      allowed = packed.plan.has_value();
      if (!allowed)
        REQUIRE(packed.infeasibleProven);
    }
    if (!allowed)
      continue;
    SolveResult heap = solve(regions[0], exact);
    REQUIRE(heap.plan);
    REQUIRE(heap.plan->optimal);
    if (best < 0 || heap.plan->heap < best)
      best = heap.plan->heap;
  }
  return best;
}

} // namespace

TEST_CASE("a buffer read by the op that writes the output is not borrowed",
          "[borrow]") {
  // mm -> div -> tanh, then the output's op reads tanh at op 3.
  BufferProblem problem = problemOf({{"mm", 0, 2, 512, 64},
                                     {"div", 1, 3, 512, 64},
                                     {"tanh", 2, 4, 512, 64}});
  std::vector<OutputBin> bins = {{0, 512, 3}};
  CHECK(fitsBin(problem.buffers[1], bins[0]));
  CHECK_FALSE(fitsBin(problem.buffers[2], bins[0]));
  BorrowResult result = solveWithBorrowing(problem, bins, {});
  REQUIRE(result.plan);
  // Borrowing div (not mm) keeps mm and tanh apart in the heap.
  CHECK(result.binOf == BinAssignment{-1, 0, -1});
  CHECK(result.plan->heap == 512);
  CHECK(result.plan->lowerBound == 512);
  CHECK(result.plan->optimal);
}

TEST_CASE("the verifier refuses a buffer that outlives its output's bin",
          "[borrow]") {
  BufferProblem problem =
      problemOf({{"a", 0, 2, 64, 64}, {"b", 1, 3, 64, 64}});
  std::vector<OutputBin> bins = {{4, 128, 2}};
  Plan plan;
  plan.offsets = {0, 0};
  plan.heap = 64;
  CHECK(violationOf(verifyBorrowedPlan(problem, bins, {0, -1}, plan)) == "");
  std::string late =
      violationOf(verifyBorrowedPlan(problem, bins, {-1, 0}, plan));
  REQUIRE(late != "");
  CHECK_THAT(late, Catch::Contains("is in output 4, whose own value is "
                                   "written at 2"));
  std::string overlap = violationOf(
      verifyBorrowedPlan(problemOf({{"a", 0, 2, 64, 64}, {"b", 1, 2, 64, 64}}),
                         bins, {0, 0}, plan));
  REQUIRE(overlap != "");
  CHECK_THAT(overlap, Catch::Contains("output 4"));
  CHECK_THAT(overlap, Catch::Contains("overlaps"));
  plan.offsets = {64, 0};
  CHECK(violationOf(verifyBorrowedPlan(
            problemOf({{"a", 0, 2, 64, 64}, {"b", 1, 2, 64, 64}}), bins, {0, 0},
            plan)) == "");
  plan.offsets = {96, 0}; // inside, but not a multiple of 64
  CHECK(violationOf(verifyBorrowedPlan(
            problemOf({{"a", 0, 2, 32, 64}, {"b", 1, 2, 64, 64}}), bins, {0, 0},
            plan)) != "");
}

TEST_CASE("borrowing bound and plans against brute force", "[borrow][property]") {
  std::mt19937 rng(14);
  int proven = 0;
  for (int round = 0; round < 150; ++round) {
    size_t n = 2 + rng() % 4;
    std::vector<Buffer> buffers;
    for (size_t i = 0; i < n; ++i) {
      int64_t start = rng() % 6;
      buffers.push_back({"b" + std::to_string(i), start,
                         start + 1 + int64_t(rng() % 4),
                         int64_t(16 + rng() % 4 * 16), 16});
    }
    BufferProblem problem = problemOf(buffers);
    std::vector<OutputBin> bins;
    for (size_t k = 0, count = 1 + rng() % 2; k < count; ++k)
      bins.push_back({int64_t(k), int64_t(16 + rng() % 6 * 16),
                      int64_t(1 + rng() % 8)});
    INFO("round " << round);
    BorrowResult result = solveWithBorrowing(problem, bins, {});
    REQUIRE(result.plan);
    REQUIRE(violationOf(verifyBorrowedPlan(problem, bins, result.binOf,
                                           *result.plan)) == "");
    int64_t optimum = bruteForceHeap(problem, bins);
    int64_t bound = borrowingLowerBound(problem, bins);
    CHECK(bound <= optimum);
    CHECK(result.plan->lowerBound <= optimum);
    CHECK(result.plan->heap >= optimum);
    CHECK(bound <= lowerBound(problem));
    if (result.plan->optimal) {
      ++proven;
      CHECK(result.plan->heap == optimum);
    }
  }
  // The proof is not vacuous on these sizes.
  CHECK(proven > 50);
}

TEST_CASE("the indivisible bound at a Llama-like prefill peak",
          "[borrow][bound]") {
  // S = 32: two f32 attention buffers of 4 MiB and two small ones live at
  // once, all ending before the logits (32 x 128256 x 2 bytes) are written.
  // Both 4 MiB buffers do not fit the logits together, so one stays in the
  // heap whatever the plan.
  const int64_t mib4 = 4 << 20, logits = 32 * 128256 * 2;
  BufferProblem problem = problemOf({{"scores", 0, 3, mib4, 256},
                                     {"probs", 1, 3, mib4, 256},
                                     {"q", 1, 3, 196608, 256},
                                     {"k", 2, 3, 192000, 256}});
  std::vector<OutputBin> bins = {{0, logits, 4}};
  BorrowingBounds bounds = borrowingBounds(problem, bins);
  CHECK(bounds.splittable == 2 * mib4 + 196608 + 192000 - logits);
  CHECK(bounds.indivisible == mib4);
  CHECK(bounds.complete);
  CHECK(borrowingLowerBound(problem, bins) == mib4);
  BorrowResult result = solveWithBorrowing(problem, bins, {});
  REQUIRE(result.plan);
  CHECK(result.plan->heap == mib4);
  CHECK(result.plan->lowerBound == mib4);
  CHECK(result.plan->optimal);
}

TEST_CASE("the indivisible bound against brute force",
          "[borrow][bound][property]") {
  std::mt19937 rng(25);
  int raised = 0;
  for (int round = 0; round < 160; ++round) {
    size_t binCount = 1 + rng() % 3;
    size_t n = 2 + rng() % (binCount == 3 ? 3 : 4);
    std::vector<Buffer> buffers;
    for (size_t i = 0; i < n; ++i) {
      int64_t start = rng() % 4;
      int64_t alignment = rng() % 4 == 0 ? 32 : 16;
      // Sizes not always a multiple of the alignment.
      int64_t size = 16 * (1 + int64_t(rng() % 5)) - int64_t(rng() % 3) * 5;
      buffers.push_back({"b" + std::to_string(i), start,
                         start + 1 + int64_t(rng() % 4), size, alignment});
    }
    BufferProblem problem = problemOf(buffers);
    std::vector<OutputBin> bins;
    for (size_t k = 0; k < binCount; ++k)
      bins.push_back({int64_t(k), int64_t(16 + rng() % 6 * 16 - rng() % 2 * 7),
                      int64_t(2 + rng() % 7)});
    INFO("round " << round);
    int64_t optimum = bruteForceHeap(problem, bins);
    BorrowingBounds bounds = borrowingBounds(problem, bins);
    CHECK(bounds.complete);
    CHECK(bounds.splittable == splittableBorrowingLowerBound(problem, bins));
    CHECK(bounds.indivisible >= bounds.splittable);
    CHECK(bounds.indivisible <= optimum);
    CHECK(borrowingLowerBound(problem, bins) == bounds.indivisible);
    BorrowResult result = solveWithBorrowing(problem, bins, {});
    REQUIRE(result.plan);
    CHECK(result.plan->lowerBound <= optimum);
    if (result.plan->optimal)
      CHECK(result.plan->heap == optimum);
    raised += bounds.indivisible > bounds.splittable;
  }
  // Indivisibility matters on these sizes.
  CHECK(raised > 15);
}

TEST_CASE("the indivisible bound falls back to the splittable one past its "
          "budget",
          "[borrow][bound]") {
  // Byte alignment and a 1 GiB output: a subset-sum over 2^30 units for 20
  // buffers is over the budget, so the step keeps the splittable figure.
  std::vector<Buffer> buffers;
  for (int i = 0; i < 20; ++i)
    buffers.push_back({"b" + std::to_string(i), 0, 2,
                       int64_t(60000001 + 2 * i), 1});
  BufferProblem problem = problemOf(buffers);
  std::vector<OutputBin> bins = {{0, int64_t(1) << 30, 3}};
  BorrowingBounds bounds = borrowingBounds(problem, bins);
  CHECK_FALSE(bounds.complete);
  CHECK(bounds.indivisible == bounds.splittable);
  CHECK(bounds.splittable == 20 * int64_t(60000001) + 380 - (int64_t(1) << 30));
}

namespace {

/// A random instance where choosing the borrowed buffers matters: several
/// buffers of mixed sizes and alignments, bins that close at different
/// times and that hold only some of them.
BufferProblem randomLentProblem(std::mt19937 &rng,
                                std::vector<OutputBin> &bins) {
  size_t binCount = 1 + rng() % 2;
  size_t n = 3 + rng() % (binCount == 2 ? 3 : 4);
  std::vector<Buffer> buffers;
  for (size_t i = 0; i < n; ++i) {
    int64_t start = rng() % 5;
    int64_t alignment = rng() % 3 == 0 ? 32 : 16;
    int64_t size = 16 * (1 + int64_t(rng() % 4)) - int64_t(rng() % 2) * 7;
    buffers.push_back({"b" + std::to_string(i), start,
                       start + 1 + int64_t(rng() % 4), size, alignment});
  }
  bins.clear();
  for (size_t k = 0; k < binCount; ++k)
    bins.push_back({int64_t(k), int64_t(32 + rng() % 4 * 16 - rng() % 2 * 9),
                    int64_t(2 + rng() % 6)});
  return problemOf(buffers);
}

} // namespace

TEST_CASE("the search over the heap and the lent outputs together is exact",
          "[borrow][property]") {
  std::mt19937 rng(26);
  int improved = 0;
  for (int round = 0; round < 1000; ++round) {
    std::vector<OutputBin> bins;
    BufferProblem problem = randomLentProblem(rng, bins);
    INFO("round " << round);
    int64_t optimum = bruteForceHeap(problem, bins);
    BorrowResult result = solveWithBorrowing(problem, bins, {});
    REQUIRE(result.plan);
    REQUIRE(violationOf(verifyBorrowedPlan(problem, bins, result.binOf,
                                           *result.plan)) == "");
    // Exact: the optimum found and proven, never a bound above it.
    CHECK(result.plan->optimal);
    CHECK(result.plan->heap == optimum);
    CHECK(result.plan->lowerBound <= optimum);
    improved += result.plan->algorithm.find("+lent-exact") != std::string::npos;
  }
  INFO("improved by the search: " << improved);
  // Filling the bins first is not optimal on these sizes: the search had
  // something to find.
  CHECK(improved > 20);
}

TEST_CASE("the search over the heap and the lent outputs stops at its budget "
          "with a sound plan",
          "[borrow]") {
  std::mt19937 rng(27);
  std::vector<OutputBin> bins;
  BufferProblem problem;
  BorrowResult heuristic;
  do { // an instance with something left in the heap
    problem = randomLentProblem(rng, bins);
    heuristic = solveWithBorrowing(problem, bins, {});
    REQUIRE(heuristic.plan);
  } while (heuristic.plan->heap == 0);
  // No nodes at all: the packing it was given and the bound it was given.
  LentRegionsOptions none;
  none.nodeLimit = 0;
  LentRegionsResult found = minimiseWithLentOutputs(
      problem, bins, heuristic.binOf, heuristic.plan->offsets, 0, none);
  CHECK(found.heap == heuristic.plan->heap);
  CHECK(found.binOf == heuristic.binOf);
  CHECK(found.low == 0);
  CHECK_FALSE(found.optimal);
}

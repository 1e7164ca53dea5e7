//===- VerifyTest.cpp - The verifier rejects planted faults ---------------===//
#include "coreai-plan/Verify.h"
#include "PlanChecks.h"
#include "RandomTrace.h"
#include "coreai-plan/Solve/Solve.h"

#include <catch2/catch.hpp>

#include <random>

using namespace coreai;

namespace {

BufferProblem twoBuffers() {
  BufferProblem problem;
  problem.buffers = {{"a", 0, 10, 8, 4}, {"b", 5, 15, 8, 4}};
  return problem;
}

std::string errorOf(const BufferProblem &problem, const Plan &plan) {
  return violationOf(verifyPlan(problem, plan));
}

} // namespace

TEST_CASE("a sound plan passes", "[verify]") {
  CHECK(violationOf(verifyPlan(twoBuffers(), planOf({0, 8}, 16))) == "");
  // Half-open lifetimes: one ends at 10, the other starts at 10.
  BufferProblem problem;
  problem.buffers = {{"a", 0, 10, 8}, {"b", 10, 15, 8}};
  CHECK(violationOf(verifyPlan(problem, planOf({0, 0}, 8))) == "");
}

TEST_CASE("the verifier rejects planted faults", "[verify]") {
  BufferProblem problem = twoBuffers();
  CHECK_THAT(errorOf(problem, planOf({0, 4}, 16)),
             Catch::Contains("overlaps"));
  CHECK_THAT(errorOf(problem, planOf({0, 10}, 24)),
             Catch::Contains("not aligned to 4"));
  CHECK_THAT(errorOf(problem, planOf({0, 12}, 16)),
             Catch::Contains("outside the heap"));
  CHECK_THAT(errorOf(problem, planOf({-8, 8}, 16)),
             Catch::Contains("negative offset"));
  CHECK_THAT(errorOf(problem, planOf({0}, 16)),
             Catch::Contains("1 offsets for 2 buffers"));
  problem.capacity = 12;
  CHECK_THAT(errorOf(problem, planOf({0, 8}, 16)),
             Catch::Contains("exceeds capacity 12"));
}

TEST_CASE("every planted overlap in a solver's plan is caught",
          "[verify][property]") {
  std::mt19937_64 rng(1234);
  for (int round = 0; round < 40; ++round) {
    BufferProblem problem = test::randomIntervals(rng, 30, 50, 20, 64, 1, "b");
    SolveResult result = solve(problem, {Algorithm::GreedyBySize, 0});
    REQUIRE(result.plan);
    REQUIRE(violationOf(verifyPlan(problem, *result.plan)) == "");
    // Move one buffer onto a time-overlapping neighbour's address.
    for (size_t i = 0; i < problem.buffers.size(); ++i)
      for (size_t j = 0; j < problem.buffers.size(); ++j) {
        if (i == j || !problem.buffers[i].overlapsInTime(problem.buffers[j]))
          continue;
        Plan broken = *result.plan;
        broken.offsets[i] = broken.offsets[j];
        broken.heap = heapOf(problem, broken.offsets);
        CHECK(violationOf(verifyPlan(problem, broken)) != "");
      }
  }
}

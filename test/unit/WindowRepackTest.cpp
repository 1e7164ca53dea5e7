//===- WindowRepackTest.cpp - Exact re-packing of windows at the top ------===//
//
// From a greedy packing, windows around the buffers at the top are packed
// again by the exact search around the buffers crossing their edges. The
// result must verify, never be worse than where it started, lower the heap
// of a fragmented random trace, and depend only on the node budget.
//
//===----------------------------------------------------------------------===//
#include "../../lib/Solve/Solvers.h"

#include "coreai-plan/Verify.h"

#include <catch2/catch.hpp>

#include <random>

using namespace coreai;
using namespace coreai::solvers;

namespace {

/// Like coreai-plan-bench --random: about a hundred buffers live at once,
/// sizes 64 B to 16 KiB, lifetimes 1 to 1024 steps.
BufferProblem randomTrace(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  BufferProblem problem;
  for (size_t i = 0; i < n; ++i) {
    Buffer b;
    b.id = std::to_string(i);
    b.start = int64_t(rng() % n);
    b.end = b.start + 1 + int64_t(rng() % (uint64_t(1) << (rng() % 11)));
    b.size = 64 * (1 + int64_t(rng() % 256));
    problem.buffers.push_back(b);
  }
  return problem;
}

} // namespace

TEST_CASE("re-packing windows at the top lowers a greedy heap, "
          "deterministically",
          "[solve][windows]") {
  for (uint64_t seed : {1, 2, 3}) {
    BufferProblem problem = randomTrace(3000, seed);
    Offsets greedy = greedyBySize(problem);
    int64_t before = heapOf(problem, greedy);
    WindowRepackOptions options;
    options.deadline = Clock::now() + std::chrono::minutes(5);
    options.nodeLimit = 200000;
    options.depth = before / 8;
    Offsets first = repackWindows(problem, greedy, lowerBound(problem), options);
    Offsets second =
        repackWindows(problem, greedy, lowerBound(problem), options);
    INFO("seed " << seed << ", greedy heap " << before);
    CHECK(first == second);
    Plan plan;
    plan.offsets = first;
    plan.heap = heapOf(problem, first);
    CHECK_FALSE(verifyPlan(problem, plan));
    CHECK(plan.heap < before);
    CHECK(plan.heap >= lowerBound(problem));
  }
}

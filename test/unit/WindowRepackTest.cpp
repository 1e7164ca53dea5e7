//===- WindowRepackTest.cpp - Exact re-packing of windows at the top ------===//
//
// From a greedy packing, windows around the buffers at the top are packed
// again by the exact search around the buffers crossing their edges. The
// result must verify, never be worse than where it started, lower the heap
// of a fragmented random trace, and depend only on the node budget.
//
//===----------------------------------------------------------------------===//
#include "../../lib/Solve/Solvers.h"

#include "PlanChecks.h"
#include "RandomTrace.h"
#include "coreai-plan/Verify.h"

#include <catch2/catch.hpp>

using namespace coreai;
using namespace coreai::solvers;

using coreai::test::randomTrace;

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
    CHECK(violationOfOffsets(problem, first) == "");
    CHECK(heapOf(problem, first) < before);
    CHECK(heapOf(problem, first) >= lowerBound(problem));
  }
}

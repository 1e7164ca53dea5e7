//===- BudgetTest.cpp - One budget shared by a function's searches --------===//
//
// docs/SOLVERS.md, "Budget": several solves share one deadline; each takes
// its share of what is left, and none runs past the deadline by more than
// the one greedy pass that must always complete.
//
//===----------------------------------------------------------------------===//
#include "RandomTrace.h"

#include "coreai-plan/Borrow.h"
#include "coreai-plan/Solve/Solve.h"
#include "coreai-plan/Verify.h"

#include <catch2/catch.hpp>

#include <chrono>

using namespace coreai;
using coreai::test::randomTrace;
using Clock = std::chrono::steady_clock;

TEST_CASE("a share of the budget is a share of what is left before the "
          "deadline, which it keeps",
          "[budget]") {
  SolveOptions options;
  options.timeLimitMs = 1000;
  SolveOptions all = withShareOfBudget(options, 1.0);
  REQUIRE(all.deadline);
  CHECK(all.timeLimitMs > 900);
  CHECK(all.timeLimitMs <= 1000);
  SolveOptions third = withShareOfBudget(all, 1.0 / 3);
  CHECK(third.deadline == all.deadline);
  CHECK(third.timeLimitMs <= 334);
  CHECK(third.timeLimitMs > 250);
  SolveOptions late = all;
  late.deadline = Clock::now() - std::chrono::seconds(1);
  CHECK(withShareOfBudget(late, 0.5).timeLimitMs == 0);
}

TEST_CASE("a solve stops at a shared deadline before its own time limit, "
          "with a verified plan",
          "[budget]") {
  // 2,000 random buffers of any byte size: ended 2.5 % above the bound
  // after 10 s (the bound probe's sweeps do not pack it, nor does the
  // search prove it). With 64-byte sizes (seed 11) the sweeps now pack the
  // trace at its bound within milliseconds, and the deadline went untested.
  BufferProblem problem = randomTrace(2000, 1, /*grain=*/1, /*units=*/16384);
  SolveOptions options;
  options.timeLimitMs = 60000;
  options.deadline = Clock::now() + std::chrono::milliseconds(200);
  auto begin = Clock::now();
  SolveResult result = solve(problem, options);
  double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  REQUIRE(result.plan);
  llvm::Error violation = verifyPlan(problem, *result.plan);
  CHECK(!violation);
  llvm::consumeError(std::move(violation));
  CHECK(!result.plan->optimal);
  CHECK(seconds < 10); // not the minute its own limit allows
}

TEST_CASE("with lent outputs, the heap searches and the search over heap "
          "and outputs share the one budget",
          "[budget]") {
  BufferProblem problem = randomTrace(2000, 12);
  std::vector<OutputBin> bins{{0, 1 << 16, 1 << 30}};
  SolveOptions options;
  options.timeLimitMs = 300;
  auto begin = Clock::now();
  BorrowResult result = solveWithBorrowing(problem, bins, options);
  double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  REQUIRE(result.plan);
  // Each of the three searches used to take the whole 0.3 s.
  CHECK(seconds < 0.3 * 3);
}

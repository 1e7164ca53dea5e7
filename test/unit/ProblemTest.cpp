//===- ProblemTest.cpp - Lower bound, heap, alignment ---------------------===//
#include "coreai-plan/Problem.h"

#include <catch2/catch.hpp>

using namespace coreai;

TEST_CASE("alignTo rounds up to a power of two", "[problem]") {
  CHECK(alignTo(0, 8) == 0);
  CHECK(alignTo(1, 8) == 8);
  CHECK(alignTo(16, 8) == 16);
  CHECK(alignTo(17, 1) == 17);
}

TEST_CASE("the lower bound is the peak of live bytes", "[problem]") {
  BufferProblem problem;
  CHECK(lowerBound(problem) == 0);
  problem.buffers = {{"a", 0, 10, 8}, {"b", 10, 20, 8}};
  CHECK(lowerBound(problem) == 8); // half-open: a and b never live together
  problem.buffers.push_back({"c", 5, 15, 3});
  CHECK(lowerBound(problem) == 11);
  // d's alignment forces no padding on its neighbours: d at 0, a at 1, c
  // at 9 is a heap of 12, so the bound must not exceed 12.
  problem.buffers.push_back({"d", 9, 10, 1, 16});
  CHECK(lowerBound(problem) == 12);
}

TEST_CASE("the lower bound pads every live buffer but the topmost",
          "[problem]") {
  BufferProblem problem;
  // Three 100-byte buffers at 64-byte alignment: two padded to 128, the
  // top one not, so no aligned packing is below 356, and 356 is reached.
  problem.buffers = {{"a", 0, 3, 100, 64}, {"b", 0, 3, 100, 64},
                     {"c", 0, 3, 100, 64}};
  CHECK(lowerBound(problem) == 356);
  CHECK(heapOf(problem, {0, 128, 256}) == 356);
  // A lone buffer needs only its size.
  problem.buffers = {{"a", 0, 1, 16, 64}};
  CHECK(lowerBound(problem) == 16);
}

TEST_CASE("heap and gap", "[problem]") {
  BufferProblem problem;
  problem.buffers = {{"a", 0, 10, 8}, {"b", 0, 10, 4}};
  CHECK(heapOf(problem, {0, 8}) == 12);
  CHECK(heapOf(problem, {4, 12}) == 16);
  CHECK(heapRatio(12, 12) == 1.0);
  CHECK(heapRatio(15, 12) == Approx(1.25));
  CHECK(heapRatio(0, 0) == 1.0);
  CHECK(gap(12, 12) == 0.0);
  CHECK(gap(15, 12) == Approx(0.25));
  CHECK(gap(0, 0) == 0.0);
}

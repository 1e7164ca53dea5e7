//===- CsvTest.cpp - Reading MiniMalloc CSV, and its errors ---------------===//
#include "coreai-plan/Csv.h"

#include <catch2/catch.hpp>

using namespace coreai;

namespace {

std::string errorOf(llvm::StringRef text) {
  auto problem = readProblemCsv(text, "P.csv");
  if (problem)
    return "no error";
  return llvm::toString(problem.takeError());
}

} // namespace

TEST_CASE("a well-formed file round-trips", "[csv]") {
  const char *text = "id,lower,upper,size\nb1,0,3,4\n\nb2, 3, 9 ,4\n";
  auto problem = readProblemCsv(text, "P.csv", /*alignment=*/8);
  REQUIRE(bool(problem));
  REQUIRE(problem->buffers.size() == 2);
  CHECK(problem->buffers[1].id == "b2");
  CHECK(problem->buffers[1].start == 3);
  CHECK(problem->buffers[1].end == 9);
  CHECK(problem->buffers[1].alignment == 8);
  Plan plan;
  plan.offsets = {0, 8};
  std::string written = writeProblemCsv(*problem, &plan);
  CHECK(written == "id,lower,upper,size,offset\nb1,0,3,4,0\nb2,3,9,4,8\n");
  std::vector<int64_t> offsets;
  auto again = readProblemCsv(written, "OUT.csv", 1, &offsets);
  REQUIRE(bool(again));
  CHECK(offsets == std::vector<int64_t>{0, 8});
}

TEST_CASE("columns may come in any order", "[csv]") {
  auto problem = readProblemCsv("size,id,upper,lower\n4,x,5,1\n", "P.csv");
  REQUIRE(bool(problem));
  CHECK(problem->buffers[0].size == 4);
  CHECK(problem->buffers[0].start == 1);
}

TEST_CASE("CSV errors name the file and line", "[csv]") {
  // Input, and the whole message it gets.
  const std::pair<const char *, const char *> cases[] = {
      {"", "P.csv:1: empty input: expected header id,lower,upper,size"},
      {"id,lower,upper\na,0,1\n",
       "P.csv:1: missing column 'size' (expected header id,lower,upper,size)"},
      {"id,lower,upper,size\na,0,1,4\nb,0,1\n",
       "P.csv:3: expected 4 fields, found 3"},
      {"id,lower,upper,size\na,0,1,4,5\n",
       "P.csv:2: expected 4 fields, found 5"},
      {"id,lower,upper,size\na,0,1,four\n",
       "P.csv:2: 'size' is not a 64-bit integer: 'four'"},
      {"id,lower,upper,size\na,0,1,4\nb,0,1,0\n",
       "P.csv:3: size 0 must be positive"},
      {"id,lower,upper,size\na,0,1,-4\n", "P.csv:2: size -4 must be positive"},
      {"id,lower,upper,size\na,5,5,4\n",
       "P.csv:2: upper 5 must be greater than lower 5 (intervals are [lower, "
       "upper))"},
      {"id,lower,upper,size\na,5,3,4\n",
       "P.csv:2: upper 3 must be greater than lower 5 (intervals are [lower, "
       "upper))"},
      {"id,lower,upper,size\na,-1,3,4\n", "P.csv:2: lower -1 is negative"},
      {"id,lower,upper,size\na,0,3,4\n\na,1,2,4\n",
       "P.csv:4: duplicate id 'a'"},
      {"id,lower,upper,size\n,0,3,4\n", "P.csv:2: empty id"},
      {"id,lower,upper,size\na,0,1,99999999999999999999\n",
       "P.csv:2: 'size' is not a 64-bit integer: '99999999999999999999'"},
      {"id,lower,upper,size,size\na,0,1,4,4\n",
       "P.csv:1: column 'size' appears twice"},
  };
  for (auto [text, message] : cases)
    CHECK(errorOf(text) == std::string(message));
}

TEST_CASE("sizes whose sum overflows 64 bits are rejected at the row that "
          "overflows",
          "[csv]") {
  std::string text = "id,lower,upper,size\n"
                     "a,0,1,4611686018427387904\n"  // 2^62
                     "b,0,1,4611686018427387904\n"  // 2^63: overflow
                     "c,0,1,1\n";
  CHECK(errorOf(text) == "P.csv:3: the sizes summed so far overflow 64 bits");
}

TEST_CASE("alignment must be a power of two", "[csv]") {
  auto problem = readProblemCsv("id,lower,upper,size\n", "P.csv", 3);
  REQUIRE_FALSE(bool(problem));
  CHECK(llvm::toString(problem.takeError()) ==
        "alignment must be a positive power of two, got 3");
}

//===- AtenArgsTest.cpp - Reading coreai.args -----------------------------===//
#include "coreai-plan/Exporter/AtenArgs.h"

#include <catch2/catch.hpp>

using coreai::isScalarArgument;
using coreai::parseAtenArgs;

TEST_CASE("coreai.args splits at top-level commas into positional and "
          "keyword arguments",
          "[args]") {
  auto args = parseAtenArgs(
      "(T, [None, None, T], T, dtype=torch.float16, "
      "device=device(type='cpu'), approximate='a,b')");
  REQUIRE(args);
  CHECK(args->positional.size() == 3);
  CHECK(args->positional[1] == "[None, None, T]");
  REQUIRE(args->keywords.size() == 3);
  CHECK(*args->keyword("device") == "device(type='cpu')");
  CHECK(*args->keyword("approximate") == "'a,b'");
  CHECK(!args->keyword("layout"));

  auto single = parseAtenArgs("(T,)");
  REQUIRE(single);
  CHECK(single->positional.size() == 1);
  auto none = parseAtenArgs("()");
  REQUIRE(none);
  CHECK(none->positional.empty());
}

TEST_CASE("unreadable coreai.args is reported as such", "[args]") {
  CHECK(!parseAtenArgs("T, 1"));                   // not a tuple
  CHECK(!parseAtenArgs("(T, [1, 2)"));             // unbalanced
  CHECK(!parseAtenArgs("(T, memory_format=x"));    // unclosed
  CHECK(!parseAtenArgs("(T, 'open)"));             // unterminated quote
  CHECK(!parseAtenArgs("(T, dtype=torch.f16, 1)")); // positional after keyword
  CHECK(!parseAtenArgs("(T, , 1)"));               // empty argument
}

TEST_CASE("scalars are numbers, bools, None, strings and symbolic sizes",
          "[args]") {
  for (const char *scalar : {"2", "-0.5", "1e-06", "True", "None", "'tanh'",
                             "s58", "2*s58 + 1", "inf"})
    CHECK(isScalarArgument(scalar));
  for (const char *other : {"T", "[1, 2]", "torch.float16",
                            "device(type='cpu')", "torch.channels_last", ""})
    CHECK_FALSE(isScalarArgument(other));
}

TEST_CASE("integer lists as the exporter writes them", "[aten-args]") {
  using Ints = std::vector<int64_t>;
  CHECK(coreai::parseIntegerList("[2, 0, -1]") == Ints{2, 0, -1});
  CHECK(coreai::parseIntegerList(" [] ") == Ints{});
  CHECK_FALSE(coreai::parseIntegerList("-1"));
  CHECK(coreai::parseIntegerList("-1", /*bare=*/true) == Ints{-1});
  CHECK_FALSE(coreai::parseIntegerList("[1, , 2]"));
  CHECK_FALSE(coreai::parseIntegerList("[1, 2"));
  CHECK_FALSE(coreai::parseIntegerList("None", /*bare=*/true));
  CHECK_FALSE(coreai::parseIntegerList("1, 2", /*bare=*/true));
}

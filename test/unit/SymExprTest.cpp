//===- SymExprTest.cpp - Shape expressions evaluate exactly or fail -------===//
#include "coreai-plan/Passes/SpecializeShapes.h"

#include <catch2/catch.hpp>

#include <cstdint>

using namespace coreai;

namespace {
/// The value, or the error's text prefixed with "error: ".
std::string evaluate(llvm::StringRef expr, const SymbolBindings &bindings) {
  llvm::Expected<int64_t> value = evaluateSymExpr(expr, bindings);
  if (!value)
    return "error: " + llvm::toString(value.takeError());
  return std::to_string(*value);
}
} // namespace

TEST_CASE("shape expressions evaluate as sympy prints them", "[symexpr]") {
  SymbolBindings s{{"s0", 3}, {"s1", 5}};
  CHECK(evaluate("2*s0 + s1", s) == "11");
  CHECK(evaluate("(1 - s0*3)//4", s) == "-2"); // floor, as Python's //
  CHECK(evaluate("-(-s0)", s) == "3");
  CHECK(evaluate("s2", s) == "error: in 's2': symbol 's2' is not bound");
}

TEST_CASE("shape expressions that overflow 64 bits are errors", "[symexpr]") {
  SymbolBindings s{{"s0", 2}, {"big", INT64_MAX}};
  const char *overflowing[] = {
      "big + 1",       "big*s0",          "-big - s0",
      "s0*big*big",    "-(-big - 1)",     "(-big - 1)//-1",
      "big + big - 1", "4611686018427387904*s0",
  };
  for (const char *expr : overflowing) {
    INFO(expr);
    CHECK(evaluate(expr, s) ==
          "error: in '" + std::string(expr) +
              "': the value overflows 64 bits");
  }
  // The extremes themselves are fine.
  CHECK(evaluate("big", s) == std::to_string(INT64_MAX));
  CHECK(evaluate("-big - 1", s) == std::to_string(INT64_MIN));
  CHECK(evaluate("(-big - 1)//1", s) == std::to_string(INT64_MIN));
}

TEST_CASE("a shape is parsed once and evaluated at any binding", "[symexpr]") {
  llvm::Expected<std::vector<coreai::SymExpr>> dims =
      coreai::parseSymShape("1, 2*s58 + 1,(s58 - 1)//2");
  REQUIRE(bool(dims));
  REQUIRE(dims->size() == 3);
  std::set<std::string> symbols;
  for (const coreai::SymExpr &dim : *dims)
    dim.collectSymbols(symbols);
  CHECK(symbols == std::set<std::string>{"s58"});
  for (int64_t s : {1, 7, 64}) {
    SymbolBindings bindings{{"s58", s}};
    CHECK(*(*dims)[0].evaluate(bindings) == 1);
    CHECK(*(*dims)[1].evaluate(bindings) == 2 * s + 1);
    CHECK(*(*dims)[2].evaluate(bindings) == (s - 1) / 2);
  }
  llvm::Expected<std::vector<coreai::SymExpr>> rank0 = coreai::parseSymShape("");
  REQUIRE(bool(rank0));
  CHECK(rank0->empty());
  llvm::Expected<std::vector<coreai::SymExpr>> bad =
      coreai::parseSymShape("1,s0 +* 2");
  REQUIRE(!bool(bad));
  CHECK(llvm::toString(bad.takeError()) == "in 's0 +* 2': unexpected '*'");
}

TEST_CASE("symbol ranges need [min, max] per symbol", "[symexpr]") {
  auto ranges = coreai::parseSymRanges(R"({"s0": ["1", "64"], "s1": [2, "int_oo"]})");
  REQUIRE(bool(ranges));
  CHECK(ranges->at("s0").min == 1);
  CHECK(ranges->at("s0").max == 64);
  CHECK(ranges->at("s1").max == INT64_MAX);
  for (const char *bad : {"[1, 2]", R"({"s0": [3, 2]})", R"({"s0": ["x", 2]})",
                          "{"}) {
    INFO(bad);
    auto parsed = coreai::parseSymRanges(bad);
    REQUIRE(!bool(parsed));
    CHECK(llvm::StringRef(llvm::toString(parsed.takeError()))
              .starts_with("malformed coreai.sym_ranges: "));
  }
}

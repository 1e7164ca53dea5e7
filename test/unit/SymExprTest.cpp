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

//===- EinsumTest.cpp - What an einsum equation reads ---------------------===//
#include "coreai-plan/Aten/Einsum.h"
#include "coreai-plan/Aten/OpFacts.h"

#include <catch2/catch.hpp>

using namespace coreai::aten;

TEST_CASE("Einsum: a product sums, a permutation reorders", "[aten]") {
  auto product = parseEinsumEquation("'bij,bjk->bik'");
  REQUIRE(product);
  CHECK(product->sums());
  CHECK_FALSE(product->readsInResultOrder(0)); // j is not in the result

  auto transpose = parseEinsumEquation("ij,j->ji");
  REQUIRE(transpose);
  CHECK_FALSE(transpose->sums());
  CHECK_FALSE(transpose->readsAtResultIndex(0));
  CHECK_FALSE(transpose->readsInResultOrder(0)); // i and j swapped
  CHECK(transpose->readsInResultOrder(1));       // broadcast along i

  auto scale = parseEinsumEquation("...ij, j -> ...ij");
  REQUIRE(scale);
  CHECK_FALSE(scale->sums());
  CHECK(scale->readsAtResultIndex(0));
  CHECK_FALSE(scale->readsAtResultIndex(1));
  CHECK(scale->readsInResultOrder(1));
}

TEST_CASE("Einsum: implicit results and diagonals", "[aten]") {
  // Implicit: the letters used once, alphabetically; `ba` is a transpose.
  auto implicit = parseEinsumEquation("ba");
  REQUIRE(implicit);
  REQUIRE(implicit->result == std::vector<std::string>{"a", "b"});
  CHECK_FALSE(implicit->readsInResultOrder(0));
  // A trace sums the diagonal.
  auto trace = parseEinsumEquation("ii");
  REQUIRE(trace);
  CHECK(trace->sums());
  // A diagonal reads one element of each row: not in result order.
  auto diagonal = parseEinsumEquation("ii->i");
  REQUIRE(diagonal);
  CHECK_FALSE(diagonal->sums());
  CHECK_FALSE(diagonal->readsInResultOrder(0));
}

TEST_CASE("Einsum: malformed equations are refused", "[aten]") {
  CHECK_FALSE(parseEinsumEquation("ij->k"));     // k from nowhere
  CHECK_FALSE(parseEinsumEquation("ij->ii"));    // a result label twice
  CHECK_FALSE(parseEinsumEquation("i1->i"));     // not a letter
  CHECK_FALSE(parseEinsumEquation("......->")); // two ellipses
}

TEST_CASE("AtenOpFacts: copies name the arguments that keep their order",
          "[aten]") {
  const OpFacts *clone = lookup("clone", "default");
  REQUIRE(clone);
  CHECK(clone->elementwise);
  CHECK(clone->copy);
  REQUIRE(clone->elementwiseIf.size() == 1);
  CHECK(clone->elementwiseIf[0].argument == "memory_format");
  CHECK(clone->elementwiseIf[0].keywordOnly);
  CHECK(clone->elementwiseIf[0].satisfiedBy(std::nullopt));
  CHECK_FALSE(clone->elementwiseIf[0].satisfiedBy(
      llvm::StringRef("torch.channels_last")));
  const OpFacts *toDtype = lookup("to", "dtype");
  REQUIRE(toDtype);
  CHECK(toDtype->mayAlias);
  REQUIRE(toDtype->elementwiseIf.size() == 1);
  CHECK(toDtype->elementwiseIf[0].position == 4);
  CHECK_FALSE(toDtype->elementwiseIf[0].keywordOnly);
  const OpFacts *einsum = lookup("einsum", "default");
  REQUIRE(einsum);
  CHECK(einsum->elementwiseByEquation);
  CHECK_FALSE(einsum->elementwise);
  // An op whose overload is unknown keeps no conditional fact.
  std::optional<AnyOverloadFacts> to = lookupAnyOverload("to");
  REQUIRE(to);
  CHECK_FALSE(to->facts.elementwise);
}

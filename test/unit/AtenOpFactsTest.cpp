//===- AtenOpFactsTest.cpp - The ATen op facts table's lookups ------------===//
#include "coreai-plan/Aten/OpFacts.h"

#include <catch2/catch.hpp>

using namespace coreai::aten;

TEST_CASE("AtenOpFacts: a view aliases its self", "[aten]") {
  const OpFacts *view = lookup("view", "default");
  REQUIRE(view);
  REQUIRE(view->viewSource());
  CHECK(view->viewSource()->name == "self");
  CHECK(view->viewSource()->operand == 0);
  CHECK(view->keepsLayout);
  CHECK_FALSE(view->mutates());
  CHECK_FALSE(view->random);
  // `split` returns a list of views of self.
  const OpFacts *split = lookupQualified("aten::split.Tensor");
  REQUIRE(split);
  CHECK(split->hasListReturn());
  CHECK(split->viewSource()->position == 0);
  // A permutation is a view that reorders elements.
  const OpFacts *permute = lookupQualified("torch.aten.permute", "default");
  REQUIRE(permute);
  CHECK(permute->viewSource());
  CHECK_FALSE(permute->keepsLayout);
}

TEST_CASE("AtenOpFacts: an in-place op writes self and names its twin",
          "[aten]") {
  const OpFacts *addInPlace = lookup("add_", "Tensor");
  REQUIRE(addInPlace);
  REQUIRE(addInPlace->mutated.size() == 1);
  CHECK(addInPlace->mutated[0].name == "self");
  CHECK(addInPlace->mutated[0].operand == 0);
  CHECK(addInPlace->twin == "add.Tensor");
  CHECK(addInPlace->twinParts().second == "Tensor");
  const OpFacts *add = lookup("add", "Tensor");
  REQUIRE(add);
  CHECK(add->isFunctional());
  CHECK(add->elementwise);
  // An out= variant writes its keyword-only `out`, the last operand.
  const OpFacts *addOut = lookupQualified("torch.ops.aten.add.out");
  REQUIRE(addOut);
  REQUIRE(addOut->mutated.size() == 1);
  CHECK(addOut->mutated[0].keywordOnly);
  CHECK(addOut->mutated[0].operand == 2);
  CHECK(addOut->twin == "add.Tensor");
}

TEST_CASE("AtenOpFacts: random ops are random in every overload",
          "[aten]") {
  for (llvm::StringRef name :
       {"bernoulli", "bernoulli_", "normal", "uniform", "exponential",
        "rand", "rand_like", "randperm", "multinomial"}) {
    std::optional<AnyOverloadFacts> facts = lookupAnyOverload(name);
    INFO(name.str());
    REQUIRE(facts);
    CHECK(facts->facts.random);
    CHECK_FALSE(facts->facts.randomUnless);
  }
  const OpFacts *bernoulli = lookup("bernoulli", "p");
  REQUIRE(bernoulli);
  CHECK(bernoulli->random);
  CHECK(lookup("bernoulli_", "float")->twin == "bernoulli.p");
  // Dropout is random unless its `train` argument is literally False.
  const OpFacts *dropout = lookup("dropout", "default");
  REQUIRE(dropout);
  REQUIRE(dropout->randomUnless);
  CHECK(dropout->randomUnless->satisfiedBy(llvm::StringRef("False")));
  CHECK_FALSE(dropout->randomUnless->satisfiedBy(llvm::StringRef("True")));
  CHECK_FALSE(dropout->randomUnless->satisfiedBy(std::nullopt));
  CHECK_FALSE(lookup("add", "Tensor")->random);
}

TEST_CASE("AtenOpFacts: ops newer than torch 1.13 come from the supplement",
          "[aten]") {
  const OpFacts *rmsNorm = lookup("rms_norm", "default");
  REQUIRE(rmsNorm);
  CHECK(rmsNorm->fromSupplement);
  CHECK(rmsNorm->isFunctional());
  CHECK(rmsNorm->composite);
  const OpFacts *squeezeDims = lookup("squeeze", "dims");
  REQUIRE(squeezeDims);
  CHECK(squeezeDims->fromSupplement);
  CHECK(squeezeDims->viewSource());
  // The supplement's schema replaces 1.13's: device and layout keywords.
  const OpFacts *assertMeta = lookup("_assert_tensor_metadata", "");
  REQUIRE(assertMeta);
  CHECK(assertMeta->fromSupplement);
  CHECK(assertMeta->asserts);
  const OpFacts *attention =
      lookup("scaled_dot_product_attention", "default");
  REQUIRE(attention);
  REQUIRE(attention->randomUnless);
  CHECK(attention->randomUnless->satisfiedBy(std::nullopt)); // dropout_p=0
  CHECK(attention->randomUnless->satisfiedBy(llvm::StringRef("0.0")));
  CHECK_FALSE(lookup("add", "Tensor")->fromSupplement);
}

TEST_CASE("AtenOpFacts: unknown ops are not guessed", "[aten]") {
  CHECK_FALSE(lookup("frobnicate", "default"));
  CHECK_FALSE(lookup("add", "no_such_overload"));
  CHECK_FALSE(lookupQualified("torch.aten.frobnicate", "default"));
  CHECK_FALSE(lookupQualified("tosa.add"));
  CHECK_FALSE(lookupAnyOverload("frobnicate"));
}

TEST_CASE("AtenOpFacts: overloads that disagree on writes say so",
          "[aten]") {
  std::optional<AnyOverloadFacts> max = lookupAnyOverload("max");
  REQUIRE(max);
  CHECK(max->writesAgree); // out= variants are left out
  CHECK_FALSE(max->returnsAgree);
  CHECK_FALSE(max->facts.mutates());
  // Batch norm writes its running statistics unless not training.
  const OpFacts *batchNorm = lookup("batch_norm", "default");
  REQUIRE(batchNorm);
  REQUIRE(batchNorm->writesUnless);
  CHECK(batchNorm->writesUnless->argument == "training");
  CHECK_FALSE(batchNorm->isFunctional());
}

TEST_CASE("AtenOpFacts: every row and manual entry reads", "[aten]") {
  std::vector<std::string> problems = manualFactProblems();
  for (const std::string &problem : problems)
    UNSCOPED_INFO(problem);
  CHECK(problems.empty());
  std::vector<const OpFacts *> all = allOpFacts();
  CHECK(all.size() > 2900);
  for (size_t i = 1; i < all.size(); ++i) {
    bool sorted = std::pair(all[i - 1]->name, all[i - 1]->overload) <
                  std::pair(all[i]->name, all[i]->overload);
    if (!sorted)
      FAIL_CHECK("not sorted at " << all[i]->name.str() << "."
                                  << all[i]->overload.str());
  }
}

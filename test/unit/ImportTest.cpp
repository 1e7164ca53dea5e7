//===- ImportTest.cpp - Pieces of the .pt2 importer -----------------------===//
#include "AtenOps.h"
#include "JsonSplit.h"
#include "Sympy.h"

#include <catch2/catch.hpp>

using namespace coreai::import;

namespace {

std::string infix(llvm::StringRef expr) {
  auto text = sympyToInfix(expr);
  if (!text)
    return "error: " + llvm::toString(text.takeError());
  return *text;
}

} // namespace

TEST_CASE("sympy srepr sizes become infix text", "[import]") {
  CHECK(infix("Symbol('s58', positive=True, integer=True)") == "s58");
  CHECK(infix("Integer(12)") == "12");
  CHECK(infix("Mul(Integer(64), Symbol('s58', positive=True, integer=True))") ==
        "(64*s58)");
  CHECK(infix("Add(Symbol('s0', integer=True), Integer(-1))") == "(s0 + -1)");
  CHECK(infix("FloorDiv(Symbol('s0'), Integer(2))") == "(s0//2)");
  CHECK(infix("2*s0 + 1") == "2*s0 + 1");
  // What SpecializeShapes cannot evaluate is refused, not passed on.
  CHECK(infix("Max(Symbol('s0'), Integer(2))").find("'Max' is not evaluated") !=
        std::string::npos);
  CHECK(infix("Mul(Integer(2)").find("error:") == 0);
  CHECK(infix("s0 ** 2; import os").find("error:") == 0);
}

TEST_CASE("reshape is a view exactly when torch finds strides", "[import]") {
  // Contiguous: any reshape is a view.
  CHECK(viewStridesExist({2, 3, 4}, {12, 4, 1}, {6, 4}));
  CHECK(viewStridesExist({2, 3, 4}, {12, 4, 1}, {24}));
  // A transpose cannot be flattened without a copy...
  CHECK_FALSE(viewStridesExist({4, 3}, {1, 4}, {12}));
  // ...but its dims can be split.
  CHECK(viewStridesExist({4, 3}, {1, 4}, {2, 2, 3}));
  // Repeated KV heads: [1, 1, 4, 128, 16] expanded from one head (stride 0)
  // merge into [1, 4, 128, 16] without a copy, since the merged-in dim is 1.
  CHECK(viewStridesExist({1, 1, 4, 128, 16}, {2048, 2048, 0, 16, 1},
                         {1, 4, 128, 16}));
  // With two KV heads the expanded dim cannot merge with its neighbour.
  CHECK_FALSE(viewStridesExist({1, 2, 4, 128, 16}, {4096, 2048, 0, 16, 1},
                               {1, 8, 128, 16}));
  // Sizes whose product overflows are no view (and no overflow).
  CHECK_FALSE(viewStridesExist({int64_t(1) << 40, int64_t(1) << 40},
                               {int64_t(1) << 40, 1}, {1}));
}

TEST_CASE("ATen ops are classified from their schemas", "[import]") {
  CHECK(classifyAtenOp("view", "default")->role == OpRole::View);
  CHECK(classifyAtenOp("reshape", "default")->role == OpRole::MayAlias);
  CHECK(classifyAtenOp("index_put", "default")->role == OpRole::Functional);
  auto inPlace = classifyAtenOp("index_copy_", "default");
  REQUIRE(inPlace);
  CHECK(inPlace->role == OpRole::InPlace);
  CHECK(inPlace->functional == "index_copy");
  CHECK(inPlace->functionalOverload == "default");
  // Schema writes into other arguments than self are refused.
  CHECK_FALSE(classifyAtenOp("_native_batch_norm_legit", "default"));
  // Decomposed ops (CompositeImplicitAutograd) may hand back an operand.
  CHECK(classifyAtenOp("__and__", "Tensor")->role == OpRole::MaybeShared);
  CHECK(classifyAtenOp("dropout", "default")->role == OpRole::MaybeShared);
  CHECK(classifyAtenOp("detach_", "default")->role == OpRole::DetachInPlace);
  // `.out` overloads write an argument; unknown ops are not guessed.
  CHECK_FALSE(classifyAtenOp("add", "out"));
  CHECK_FALSE(classifyAtenOp("frobnicate", "default"));
  CHECK_FALSE(classifyAtenOp("frobnicate_", "default"));
}

TEST_CASE("JSON objects and arrays split into their parts", "[import]") {
  auto members =
      splitObject(R"( {"a": [1, {"b": "]}"}], "c\"d": null , "e": -1.5e3} )");
  REQUIRE(bool(members));
  REQUIRE(members->size() == 3);
  CHECK((*members)[0].key == "a");
  CHECK((*members)[0].value == R"([1, {"b": "]}"}])");
  CHECK((*members)[1].key == "c\"d");
  CHECK((*members)[1].value == "null");
  CHECK((*members)[2].value == "-1.5e3");
  auto elements = splitArray("[{}, [], \"x\", 3]");
  REQUIRE(bool(elements));
  CHECK(elements->size() == 4);
  CHECK(splitArray("[]")->empty());
  for (const char *bad : {"{\"a\": [1, 2}", "{\"a\" 1}", "{\"a\": \"x}",
                          "[1, 2", "{} {}", "{\"a\": }", "[1,,2]", ""}) {
    INFO(bad);
    auto object = splitObject(bad);
    auto array = splitArray(bad);
    bool objectRead = bool(object), arrayRead = bool(array);
    CHECK_FALSE(objectRead);
    CHECK_FALSE(arrayRead);
    if (!objectRead)
      llvm::consumeError(object.takeError());
    if (!arrayRead)
      llvm::consumeError(array.takeError());
  }
}

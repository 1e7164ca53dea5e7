//===- TargetTest.cpp - Target descriptions -------------------------------===//
#include "coreai-plan/Target/Target.h"

#include <catch2/catch.hpp>

using namespace coreai;

TEST_CASE("shipped targets load", "[target]") {
  auto known = knownTargets(defaultTargetsDir());
  CHECK(known == std::vector<std::string>{"cuda", "generic", "h18p"});
  auto h18p = loadTarget("h18p", defaultTargetsDir());
  REQUIRE(bool(h18p));
  CHECK(h18p->alignment == 256);
  CHECK(h18p->heapLimit == 0);
  CHECK(h18p->outputsBoundBeforeCall);
  auto generic = loadTarget("generic", defaultTargetsDir());
  REQUIRE(bool(generic));
  CHECK(generic->alignment == 64);
}

TEST_CASE("unknown target lists the known ones", "[target]") {
  auto result = loadTarget("h99", defaultTargetsDir());
  REQUIRE_FALSE(bool(result));
  CHECK(llvm::toString(result.takeError()) ==
        "unknown target 'h99' (known targets: cuda, generic, h18p)");
}

TEST_CASE("bad target descriptions name the field", "[target]") {
  const char *base = R"({"name": "t", "alignment": %s, "heap_limit": %s,
    "in_place_op_classes": %s, "outputs_bound_before_call": true,
    "state_bound_before_call": false})";
  auto make = [&](const char *align, const char *limit, const char *classes) {
    char text[512];
    snprintf(text, sizeof text, base, align, limit, classes);
    return parseTarget(text, "t.json");
  };
  auto good = make("128", "1048576", "[\"elementwise\"]");
  REQUIRE(bool(good));
  CHECK(good->heapLimit == 1048576);
  CHECK(good->runsInPlace("elementwise"));
  CHECK_FALSE(good->stateBoundBeforeCall);
  auto bad = make("96", "null", "[]");
  REQUIRE_FALSE(bool(bad));
  CHECK_THAT(llvm::toString(bad.takeError()),
             Catch::Contains("t.json: invalid target description") &&
                 Catch::Contains("power of two"));
  bad = make("64", "null", "[\"matmul\"]");
  REQUIRE_FALSE(bool(bad));
  CHECK_THAT(llvm::toString(bad.takeError()), Catch::Contains("unknown op"));
  bad = parseTarget("{", "t.json");
  REQUIRE_FALSE(bool(bad));
  CHECK_THAT(llvm::toString(bad.takeError()), Catch::Contains("invalid JSON"));
}

TEST_CASE("result dtypes: read, checked, evaluated per op", "[target]") {
  auto withRules = [](const char *rules) {
    std::string text = std::string(R"({"name": "t", "alignment": 64,
      "in_place_op_classes": [], "outputs_bound_before_call": true,
      "state_bound_before_call": true, "result_dtypes": )") +
                       rules + "}";
    return parseTarget(text, "t.json");
  };
  auto good = withRules(R"([{"op": "aten.native_layer_norm", "results": [1, 2],
    "dtype": "f32", "graph_dtypes": ["f16", "bf16"], "doc": "stats"}])");
  REQUIRE(bool(good));
  const ResultDtypeRules &rules = good->resultDtypes;
  CHECK(rules.kernelDtype("aten.native_layer_norm", "default", 1, "f16") ==
        std::optional<llvm::StringRef>("f32"));
  CHECK(rules.kernelDtype("aten.native_layer_norm", "default", 2, "bf16") ==
        std::optional<llvm::StringRef>("f32"));
  // The normalised result, a graph already in f32 or f64, another op: the
  // graph's dtype holds.
  CHECK_FALSE(rules.kernelDtype("aten.native_layer_norm", "default", 0, "f16"));
  CHECK_FALSE(rules.kernelDtype("aten.native_layer_norm", "default", 1, "f32"));
  CHECK_FALSE(rules.kernelDtype("aten.native_layer_norm", "default", 1, "f64"));
  CHECK_FALSE(rules.kernelDtype("aten.native_group_norm", "default", 1, "f16"));
  CHECK(resultDtypeBits("bf16") == 16);
  CHECK(resultDtypeBits("f32") == 32);
  CHECK(resultDtypeBits("c64") == 0);

  auto error = [&](const char *rules) {
    auto target = withRules(rules);
    REQUIRE_FALSE(bool(target));
    return llvm::toString(target.takeError());
  };
  CHECK(error(R"([{"op": "aten.native_layer_norm", "results": [1],
    "dtype": "f33", "doc": "x"}])") ==
        "t.json: result_dtypes[0].dtype: must be one of f16, bf16, f32, f64, "
        "i8, i16, i32, i64");
  CHECK_THAT(error(R"([{"op": "native_layer_norm", "results": [1],
    "dtype": "f32", "doc": "x"}])"),
             Catch::Contains("result_dtypes[0].op: must be an ATen op"));
  CHECK_THAT(error(R"([{"op": "aten.x", "results": [1, 1], "dtype": "f32",
    "doc": "x"}])"),
             Catch::Contains("result_dtypes[0].results: each must be"));
  CHECK_THAT(error(R"([{"op": "aten.x", "results": [1], "dtype": "f32",
    "doc": "x", "when": "cuda"}])"),
             Catch::Contains("result_dtypes[0].when: unknown field"));
  CHECK_THAT(error(R"([{"op": "aten.x", "results": [1], "dtype": "f32"}])"),
             Catch::Contains("result_dtypes[0].doc: missing"));
  CHECK_THAT(error(R"([{"op": "aten.x", "results": [1], "dtype": "f32",
    "graph_dtypes": [], "doc": "x"}])"),
             Catch::Contains("result_dtypes[0].graph_dtypes: must be"));
  CHECK_THAT(error(R"({"op": "aten.x"})"),
             Catch::Contains("t.json: result_dtypes: must be a list"));
}

TEST_CASE("an unknown top-level field refuses the target", "[target]") {
  auto target = parseTarget(R"({"name": "t", "alignment": 64,
    "in_place_op_classes": [], "outputs_bound_before_call": true,
    "state_bound_before_call": true, "result_dtype": []})",
                            "t.json");
  REQUIRE_FALSE(bool(target));
  CHECK_THAT(llvm::toString(target.takeError()),
             Catch::Contains("t.json: result_dtype: unknown field (known: "));
}

TEST_CASE("the cuda target sizes layer norm statistics as float32",
          "[target]") {
  auto cuda = loadTarget("cuda", defaultTargetsDir());
  REQUIRE(bool(cuda));
  CHECK(cuda->resultDtypes.kernelDtype("aten.native_layer_norm", "default", 1,
                                       "f16") ==
        std::optional<llvm::StringRef>("f32"));
  auto h18p = loadTarget("h18p", defaultTargetsDir());
  REQUIRE(bool(h18p));
  CHECK(h18p->resultDtypes.empty());
}

//===- TargetTest.cpp - Target descriptions -------------------------------===//
#include "coreai-plan/Target/Target.h"

#include <catch2/catch.hpp>

using namespace coreai;

TEST_CASE("shipped targets load", "[target]") {
  auto known = knownTargets(defaultTargetsDir());
  CHECK(known == std::vector<std::string>{"generic", "h18p"});
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
        "unknown target 'h99' (known targets: generic, h18p)");
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

//===- RuntimeHeapTest.cpp - A runtime's allocations from a fixed heap ----===//
#include "coreai-plan/Manifest/RuntimeHeap.h"
#include "PlanChecks.h"
#include "coreai-plan/Verify.h"

#include <catch2/catch.hpp>

using namespace coreai;
using Policy = AllocationPolicy;

namespace {
/// a [0,2) 100, b [1,3) 50, c [2,4) 100, d [3,5) 10; planned heap 150:
/// c reuses a's bytes.
PlannedEntry makeEntry() {
  PlannedEntry e;
  e.entry = "main";
  e.chunk = 4;
  e.problem.buffers = {{"a", 0, 2, 100, 1},
                       {"b", 1, 3, 50, 1},
                       {"c", 2, 4, 100, 1},
                       {"d", 3, 5, 10, 1},
                       {"empty", 1, 2, 0, 1}};
  e.origins.resize(5);
  e.plan.offsets = {0, 100, 0, 100, 0};
  e.plan.heap = 150;
  REQUIRE(violationOf(verifyPlan(e.problem, e.plan)) == "");
  return e;
}
} // namespace

TEST_CASE("planned allocations fit exactly the plan's heap", "[runtime-heap]") {
  PlannedEntry e = makeEntry();
  RuntimeHeapResult fits = simulateRuntimeHeap(e, Policy::Planned, 150);
  CHECK_FALSE(fits.overflow);
  CHECK(fits.heapUsed == 150);
  RuntimeHeapResult tight = simulateRuntimeHeap(e, Policy::Planned, 149);
  REQUIRE(tight.overflow);
  CHECK(e.problem.buffers[tight.overflow->buffer].id == "b");
  CHECK(describeOverflow(*tight.overflow, 149) ==
        "allocateMTLBufferFromMTLHeap: offset 100 + size 50 exceeds heap "
        "total 149");
}

TEST_CASE("naive allocations never reuse", "[runtime-heap]") {
  RuntimeHeapResult r = simulateRuntimeHeap(makeEntry(), Policy::Naive, 200);
  CHECK(r.heapUsed == 260);
  REQUIRE(r.overflow);
  CHECK(r.overflow->offset == 150);
  CHECK(r.overflow->size == 100);
}

TEST_CASE("first-fit allocations reuse freed holes", "[runtime-heap]") {
  PlannedEntry e = makeEntry();
  // a freed at 2, so c takes offset 0; d at 3 after b frees at 3 → 100.
  RuntimeHeapResult r = simulateRuntimeHeap(e, Policy::FirstFit, 1000);
  CHECK_FALSE(r.overflow);
  CHECK(r.heapUsed == 150);
  // Alignment pushes later blocks up.
  for (Buffer &b : e.problem.buffers)
    b.alignment = 64;
  r = simulateRuntimeHeap(e, Policy::FirstFit, 150);
  CHECK(r.heapUsed == 178);
  REQUIRE(r.overflow);
  CHECK(r.overflow->offset == 128);
}

TEST_CASE("allocation policy names round trip", "[runtime-heap]") {
  for (AllocationPolicy mode :
       {Policy::Planned, Policy::Naive, Policy::FirstFit})
    CHECK(parseAllocationPolicy(allocationPolicyName(mode)) == mode);
  CHECK_FALSE(parseAllocationPolicy("lifo"));
}

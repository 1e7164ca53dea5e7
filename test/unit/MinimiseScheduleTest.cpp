//===- MinimiseScheduleTest.cpp - The schedule of capacity probes ---------===//
//
// The minimising schedule (lib/Solve/Minimise.cpp) driven by stand-in probes
// whose cost is known: each capacity is feasible iff it is at least the
// optimum, and settles (packs, or is proven infeasible) after a given number
// of nodes, or never. Restarts double their node limit every three steps,
// as the exact search's do. So what the schedule does with its nodes can be
// checked exactly and deterministically: stalled capacities, a tight lower
// bound, a heap far above the optimum, and how the window shares nodes.
// The exact search itself is checked against brute force in ExactTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "../../lib/Solve/Solvers.h"

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <random>

using namespace coreai;
using namespace coreai::solvers;

namespace {

constexpr int64_t never = -1;

struct World {
  int64_t optimum = 0;
  /// Nodes a probe needs to settle the capacity, or `never`.
  std::function<int64_t(int64_t capacity)> cost;
  /// Nodes spent per capacity, over every probe made there.
  std::map<int64_t, int64_t> spent;
  std::vector<int64_t> probed;
};

class FakeProbe final : public CapacityProbe {
public:
  FakeProbe(World &world, int64_t capacity)
      : world(world), capacity(capacity), need(world.cost(capacity)) {}
  bool step() override {
    if (settled)
      return false;
    int64_t limit = int64_t(8) << (restarts++ / 3);
    int64_t before = spentNodes;
    spentNodes = need != never && spentNodes + limit >= need
                     ? need
                     : spentNodes + limit;
    world.spent[capacity] += spentNodes - before;
    settled = spentNodes == need;
    return !settled;
  }
  int64_t nodes() const override { return spentNodes; }
  std::optional<int64_t> foundHeap() const override {
    if (settled && capacity >= world.optimum)
      return capacity;
    return std::nullopt;
  }
  bool exhausted() const override {
    return settled && capacity < world.optimum;
  }

private:
  World &world;
  int64_t capacity, need;
  int64_t spentNodes = 0, restarts = 0;
  bool settled = false;
};

struct Run {
  ProbeScheduleResult result;
  std::vector<std::pair<int64_t, int64_t>> progress; // (heap, low)
};

Run schedule(World &world, int64_t heap, int64_t low, int64_t grain,
             int64_t nodeLimit, int64_t jumpBudget = 100) {
  ProbeScheduleOptions options;
  options.nodeLimit = nodeLimit;
  options.jumpBudget = jumpBudget;
  Run run;
  run.result = scheduleProbes(
      heap, low, grain, options,
      [&](int64_t capacity) {
        world.probed.push_back(capacity);
        return std::make_unique<FakeProbe>(world, capacity);
      },
      [&](CapacityProbe *, int64_t heap, int64_t low) {
        run.progress.emplace_back(heap, low);
      });
  return run;
}

} // namespace

TEST_CASE("a stalled capacity below the heap does not hold up those under it",
          "[minimise][probes]") {
  // 99 never settles; 90..98 pack in 10 nodes; below 90 nothing settles.
  World world;
  world.optimum = 90;
  world.cost = [](int64_t c) { return c == 99 || c < 90 ? never : 10; };
  Run run = schedule(world, 100, 0, 1, 2'000);
  CHECK(run.result.heap == 90);
  CHECK(run.result.low == 0);
  CHECK(run.result.nodes >= 2'000);
}

TEST_CASE("far above the optimum the heap comes down in doubling jumps",
          "[minimise][probes]") {
  // Every feasible capacity packs in one restart, nothing below the optimum
  // settles: walking down a window at a time would take about 16 thousand
  // probes; jumps double while they pay and only the last few cost their
  // whole budget.
  World world;
  world.optimum = 10;
  world.cost = [](int64_t c) { return c >= 10 ? 8 : never; };
  Run run = schedule(world, 100'000, 0, 1, 5'000);
  CHECK(run.result.heap == 10);
  // Without jumps the same budget gets nowhere near.
  World slow = world;
  Run walked = schedule(slow, 100'000, 0, 1, 5'000, /*jumpBudget=*/0);
  CHECK(walked.result.heap > 90'000);
}

TEST_CASE("the floor gets its share while the window stalls",
          "[minimise][probes]") {
  // A tight lower bound (challenging E): the floor packs after 5000 nodes,
  // nothing above it ever settles. The floor weighs 3 against the window's
  // 1+2+3+4+4+4, so it is done within about 7 x 5000 nodes plus the
  // doubling's overshoot.
  World world;
  world.optimum = 1'000;
  world.cost = [](int64_t c) { return c == 1'000 ? 5'000 : never; };
  Run run = schedule(world, 1'100, 1'000, 1, 60'000);
  CHECK(run.result.heap == 1'000);
  CHECK(run.result.nodes < 60'000);
}

TEST_CASE("the floor keeps its share while the heap keeps improving",
          "[minimise][probes]") {
  // Challenging B: the window keeps packing (each capacity after 3000
  // nodes) but the optimum is the bound, 5000 steps below, after 20000
  // nodes. New window probes join at the others' pass; were they to catch
  // up from zero, the floor would wait behind every one of them.
  World world;
  world.optimum = 1'000;
  world.cost = [](int64_t c) { return c == 1'000 ? 20'000 : 3'000; };
  Run run = schedule(world, 6'000, 1'000, 1, 300'000, /*jumpBudget=*/0);
  CHECK(run.result.heap == 1'000);
  CHECK(run.result.nodes < 300'000);
}

TEST_CASE("window probes get nodes by their depth below the heap",
          "[minimise][probes]") {
  // Nothing settles: the nodes spread by weight, 1, 2, 3, 4, 4, 4 for the
  // window from the heap down and 3 for the floor (the doubling restarts
  // make it lumpy, hence the loose bounds).
  World world;
  world.optimum = 0;
  world.cost = [](int64_t) { return never; };
  Run run = schedule(world, 1'000, 0, 1, 200'000, /*jumpBudget=*/0);
  auto &spent = world.spent;
  CHECK(spent.size() == 7);
  CHECK(spent[999] < spent[998]);
  CHECK(spent[998] <= spent[997]);
  CHECK(spent[997] <= spent[996]);
  CHECK(spent[994] >= 2 * spent[999]);
  CHECK(spent[994] <= 8 * spent[999]);
  CHECK(spent[0] >= spent[998]);
  CHECK(spent[0] <= spent[996]);
  CHECK(run.progress.empty());
}

TEST_CASE("exhausted capacities raise the proven bound up to the optimum",
          "[minimise][probes]") {
  World world;
  world.optimum = 50 * 64;
  world.cost = [](int64_t) { return 20; };
  Run run = schedule(world, 60 * 64, 0, 64, 1'000'000);
  CHECK(run.result.heap == 50 * 64);
  CHECK(run.result.low == 50 * 64);
  REQUIRE_FALSE(run.progress.empty());
  CHECK(run.progress.back() == std::make_pair(int64_t(50 * 64),
                                              int64_t(50 * 64)));
}

TEST_CASE("the schedule brackets the optimum under any budget",
          "[minimise][probes][property]") {
  // Random costs (some capacities never settle), random budgets: the range
  // only narrows, never past the optimum; probes stay on the grid inside
  // it; the same input gives the same probes.
  std::mt19937_64 rng(2026);
  for (int round = 0; round < 200; ++round) {
    int64_t grain = int64_t(1) << (rng() % 4);
    int64_t low = grain * int64_t(rng() % 50);
    int64_t optimum = low + grain * int64_t(rng() % 40);
    int64_t heap = optimum + grain * int64_t(rng() % 200);
    uint64_t seed = rng();
    auto cost = [seed](int64_t c) {
      uint64_t h = (uint64_t(c) + 1) * 0x9E3779B97F4A7C15ull ^ seed;
      h ^= h >> 29;
      return h % 5 == 0 ? never : int64_t(h % 3'000);
    };
    int64_t budget = int64_t(rng() % 100'000);
    INFO("round " << round);
    World world, again;
    world.optimum = again.optimum = optimum;
    world.cost = again.cost = cost;
    Run run = schedule(world, heap, low, grain, budget);
    Run rerun = schedule(again, heap, low, grain, budget);
    CHECK(world.probed == again.probed);
    CHECK(run.progress == rerun.progress);
    CHECK(run.result.heap >= optimum);
    CHECK(run.result.low <= optimum);
    CHECK(run.result.low <= run.result.heap);
    std::pair<int64_t, int64_t> last{heap, low};
    for (auto [h, l] : run.progress) {
      CHECK(h <= last.first);
      CHECK(l >= last.second);
      CHECK((h < last.first || l > last.second));
      last = {h, l};
    }
    for (int64_t c : world.probed) {
      CHECK(c % grain == 0);
      CHECK(c >= low);
      CHECK(c < heap);
    }
  }
}

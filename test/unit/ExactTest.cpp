//===- ExactTest.cpp - The exact search against brute force ---------------===//
//
// On tiny instances the optimum is computed independently: every packing
// can be pushed down until each buffer rests on an overlapping one, and then
// stacking the buffers in order of offset (each at the highest top of the
// overlapping buffers before it) reproduces it. So the minimum over all
// orders of that stacking is the optimum. The exact search must find a
// packing at that heap and prove that one byte less is impossible, with
// every technique on and with each one switched off.
//
//===----------------------------------------------------------------------===//
#include "../../lib/Solve/Solvers.h"

#include "PlanChecks.h"
#include "RandomTrace.h"
#include "coreai-plan/Solve/Solve.h"
#include "coreai-plan/Verify.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

using namespace coreai;
using namespace coreai::solvers;

namespace {

int64_t bruteForceOptimum(const BufferProblem &problem) {
  std::vector<size_t> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  int64_t best = std::numeric_limits<int64_t>::max();
  do {
    std::vector<int64_t> offsets(order.size(), 0);
    int64_t heap = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      const Buffer &b = problem.buffers[order[k]];
      int64_t at = 0;
      for (size_t j = 0; j < k; ++j) {
        const Buffer &below = problem.buffers[order[j]];
        if (b.overlapsInTime(below))
          at = std::max(at, offsets[order[j]] + below.size);
      }
      offsets[order[k]] = alignTo(at, b.alignment);
      heap = std::max(heap, offsets[order[k]] + b.size);
    }
    best = std::min(best, heap);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

BufferProblem tinyProblem(std::mt19937_64 &rng) {
  BufferProblem problem;
  int n = 2 + int(rng() % 6); // up to 7 buffers: 5040 orders
  bool aligned = rng() % 3 == 0;
  for (int i = 0; i < n; ++i) {
    Buffer b;
    b.id = std::to_string(i);
    b.start = int64_t(rng() % 8);
    b.end = b.start + 1 + int64_t(rng() % 6);
    b.size = 1 + int64_t(rng() % 9);
    b.alignment = aligned ? int64_t(1) << (rng() % 3) : 1;
    problem.buffers.push_back(b);
  }
  return problem;
}

ExactOptions farDeadline() {
  ExactOptions options;
  options.deadline = Clock::now() + std::chrono::seconds(30);
  return options;
}

/// The techniques, numbered as the tests name them: 0 canonical order,
/// 1 dominance, 2 section inference, 3 decomposition, 4 release dates.
ExactOptions withTechniques(bool (*on)(int technique, int chosen), int chosen) {
  ExactOptions options = farDeadline();
  options.canonicalOrder = on(0, chosen);
  options.dominance = on(1, chosen);
  options.sectionInference = on(2, chosen);
  options.decomposition = on(3, chosen);
  options.releaseDates = on(4, chosen);
  return options;
}

/// Every technique but `off` (every one for -1).
ExactOptions allBut(int off) {
  return withTechniques([](int k, int chosen) { return k != chosen; }, off);
}

ExactOptions only(int on) {
  return withTechniques([](int k, int chosen) { return k == chosen; }, on);
}

/// Runs `check(problem, optimum, round)` on `rounds` tiny instances drawn
/// from `seed`, each with its optimum by brute force.
template <typename Check>
void forTinyInstances(uint64_t seed, int rounds, Check check) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < rounds; ++round) {
    BufferProblem problem = tinyProblem(rng);
    check(problem, bruteForceOptimum(problem), round);
  }
}

void checkExactAt(const BufferProblem &problem, int64_t optimum,
                  const ExactOptions &options) {
  ExactResult fits = searchWithinCapacity(problem, optimum, options);
  REQUIRE(fits.offsets);
  CHECK(heapOf(problem, *fits.offsets) <= optimum);
  CHECK(violationOfOffsets(problem, *fits.offsets) == "");
  ExactResult tooSmall = searchWithinCapacity(problem, optimum - 1, options);
  CHECK_FALSE(tooSmall.offsets);
  CHECK(tooSmall.exhausted);
}

/// checkExactAt on tiny instances from `seed` with `options(k)` for each
/// technique k (`how`: what it does to k, for the messages).
void checkEachTechnique(uint64_t seed, ExactOptions (*options)(int),
                        const char *how) {
  forTinyInstances(
      seed, 60, [&](const BufferProblem &problem, int64_t optimum, int round) {
        for (int k = 0; k < 5; ++k) {
          INFO("round " << round << ", technique " << k << " " << how);
          checkExactAt(problem, optimum, options(k));
        }
      });
}

} // namespace

TEST_CASE("exact search equals brute force on tiny instances",
          "[exact][property]") {
  forTinyInstances(
      31337, 150, [](const BufferProblem &problem, int64_t optimum, int round) {
        INFO("round " << round << ", optimum " << optimum);
        // Not lowerBound(problem): it pads every size, the top buffer needs
        // none.
        BufferProblem unpadded = problem;
        for (Buffer &b : unpadded.buffers)
          b.alignment = 1;
        REQUIRE(optimum >= lowerBound(unpadded));
        checkExactAt(problem, optimum, farDeadline());
      });
}

TEST_CASE("each exact technique is sound on its own", "[exact][property]") {
  checkEachTechnique(4242, allBut, "off");
}

TEST_CASE("best minimises to the brute-force optimum and proves it",
          "[exact][solve]") {
  forTinyInstances(
      8, 60, [](const BufferProblem &problem, int64_t optimum, int) {
        SolveResult result = solve(problem, {Algorithm::Best, 5000});
        REQUIRE(result.plan);
        CHECK(result.plan->heap == optimum);
        CHECK(result.plan->optimal);
      });
}

TEST_CASE("the exact search closes a puzzle at the lower bound", "[exact]") {
  // Unit buffers that must interlock around a long one to reach the bound.
  BufferProblem problem;
  problem.buffers = {{"long", 0, 4, 2}, {"a", 0, 2, 1}, {"b", 2, 4, 1},
                     {"c", 0, 1, 1},    {"d", 1, 4, 1}, {"e", 0, 3, 1},
                     {"f", 3, 4, 1}};
  int64_t optimum = bruteForceOptimum(problem);
  CHECK(optimum == lowerBound(problem));
  checkExactAt(problem, optimum, farDeadline());
}

TEST_CASE("independent time components are packed separately", "[exact]") {
  // Two copies of the same puzzle, one after the other in time.
  BufferProblem problem;
  for (int copy = 0; copy < 2; ++copy)
    for (auto [start, end, size] :
         {std::tuple{0, 2, 2}, {2, 4, 2}, {1, 3, 1}, {0, 4, 1}}) {
      Buffer b;
      b.id = std::to_string(copy) + "-" + std::to_string(start);
      b.start = start + copy * 10;
      b.end = end + copy * 10;
      b.size = size;
      problem.buffers.push_back(b);
    }
  checkExactAt(problem, bruteForceOptimum(problem), farDeadline());
}

namespace {

/// Nodes the search needs to prove `capacity` infeasible, summed over
/// seeded instances, with one technique switched off (or none: off = -1).
int64_t nodesToExhaust(int off, uint64_t seed, bool twoComponents) {
  int64_t nodes = 0;
  forTinyInstances(seed, 40, [&](BufferProblem problem, int64_t optimum, int) {
    if (twoComponents) {
      // A second copy later in time: independent of the first.
      size_t n = problem.buffers.size();
      for (size_t i = 0; i < n; ++i) {
        Buffer copy = problem.buffers[i];
        copy.id += "'";
        copy.start += 100;
        copy.end += 100;
        problem.buffers.push_back(copy);
      }
    }
    ExactResult result =
        searchWithinCapacity(problem, optimum - 1, allBut(off));
    REQUIRE(result.exhausted);
    nodes += result.nodes;
  });
  return nodes;
}

} // namespace

TEST_CASE("each exact technique alone is sound", "[exact][property]") {
  checkEachTechnique(777, only, "alone");
}

TEST_CASE("each exact technique prunes", "[exact]") {
  // Soundness is tested above; this catches a rule that silently stopped
  // cutting anything. Proving optimum - 1 infeasible visits the whole
  // (pruned) tree, so node counts compare the rules' strength.
  int64_t all = nodesToExhaust(-1, 99, false);
  for (int off : {0, 1, 2, 4}) {
    INFO("technique " << off << " off");
    CHECK(nodesToExhaust(off, 99, false) > all);
  }
  // Decomposition matters where the time line falls apart.
  CHECK(nodesToExhaust(3, 99, true) > nodesToExhaust(-1, 99, true));
}

TEST_CASE("a node limit stops the search without claiming exhaustion",
          "[exact]") {
  std::mt19937_64 rng(5);
  BufferProblem problem = tinyProblem(rng);
  while (problem.buffers.size() < 6)
    problem = tinyProblem(rng);
  int64_t optimum = bruteForceOptimum(problem);
  ExactOptions options = farDeadline();
  options.nodeLimit = 1;
  ExactResult result = searchWithinCapacity(problem, optimum - 1, options);
  CHECK_FALSE(result.offsets);
  CHECK_FALSE(result.exhausted);
}

TEST_CASE("interleaved searches resume where they stopped", "[exact]") {
  // Stepping restart by restart ends where one uninterrupted call ends.
  forTinyInstances(
      21, 20, [](const BufferProblem &problem, int64_t optimum, int) {
        for (int64_t capacity : {optimum - 1, optimum}) {
          ExactSearch stepped(problem, capacity, farDeadline());
          while (stepped.step()) {
          }
          ExactResult whole =
              searchWithinCapacity(problem, capacity, farDeadline());
          CHECK(stepped.result().exhausted == whole.exhausted);
          CHECK(bool(stepped.result().offsets) == bool(whole.offsets));
          CHECK(stepped.result().nodes == whole.nodes);
        }
      });
}

TEST_CASE("size weighted by lifetime: long-lived buffers ahead of slightly "
          "larger short-lived ones, size order otherwise",
          "[solve]") {
  BufferProblem problem;
  // Keys (size x lifetime^0.2): medium 4000 x 3^0.2 = 4983, the two
  // 1000-step buffers of 1100 bytes 4379 each (earlier start first), long
  // 3981, short 1200 x 1: the one-step buffer drops behind the long one,
  // which greedy-by-size places last.
  problem.buffers = {{"short", 0, 1, 1200},
                     {"long", 0, 1000, 1000},
                     {"medium", 0, 3, 4000},
                     {"same-life-larger", 5, 1005, 1100},
                     {"same-life-later", 6, 1006, 1100}};
  std::vector<size_t> order = orderBySizeWeightedByLifetime(problem);
  CHECK(order == std::vector<size_t>{2, 3, 4, 1, 0});
  CHECK(orderBySize(problem) == std::vector<size_t>{2, 0, 3, 4, 1});
  // Whatever the order, the pass packs validly.
  CHECK(violationOfOffsets(problem,
                           placeInOrder(problem, order, Fit::Lowest)) == "");
}

TEST_CASE("greedy passes give up at their deadline", "[solve]") {
  BufferProblem problem;
  for (int i = 0; i < 2000; ++i)
    problem.buffers.push_back(
        {std::to_string(i), i % 97, i % 97 + 1 + i % 13, 1 + i % 31});
  std::vector<size_t> order = orderBySize(problem);
  CHECK_FALSE(placeInOrder(problem, order, Fit::Lowest,
                           Clock::now() - std::chrono::seconds(1)));
  auto unbounded =
      placeInOrder(problem, order, Fit::Lowest, Clock::time_point::max());
  REQUIRE(unbounded);
  CHECK(*unbounded == placeInOrder(problem, order, Fit::Lowest));
}

namespace {

MinimiseResult minimiseWithin(const BufferProblem &problem, int64_t nodes,
                              std::vector<std::pair<int64_t, int64_t>> *seen =
                                  nullptr) {
  MinimiseOptions options;
  options.deadline = Clock::now() + std::chrono::seconds(60);
  options.nodeLimit = nodes;
  if (seen)
    options.onProgress = [seen](int64_t heap, int64_t low) {
      seen->emplace_back(heap, low);
    };
  return minimiseHeap(problem, greedyBySize(problem), lowerBound(problem),
                      options);
}

} // namespace

TEST_CASE("minimising brackets the optimum under any node budget",
          "[exact][minimise][property]") {
  // Whatever the budget, the packing verifies, its heap is at least the
  // optimum and the proven bound at most the optimum; with enough nodes
  // both meet it. Aligned instances check that capacities are only rounded
  // to heaps that can occur.
  forTinyInstances(
      31, 40, [](const BufferProblem &problem, int64_t optimum, int round) {
        for (int64_t nodes : {0, 1, 7, 50, 400, 1'000'000}) {
          INFO("round " << round << ", " << nodes << " nodes");
          std::vector<std::pair<int64_t, int64_t>> seen;
          MinimiseResult result = minimiseWithin(problem, nodes, &seen);
          CHECK(heapOf(problem, result.offsets) == result.heap);
          CHECK(violationOfOffsets(problem, result.offsets) == "");
          CHECK(result.heap >= optimum);
          CHECK(result.low <= optimum);
          CHECK(result.optimal == (result.low == result.heap));
          // Progress only ever narrows the range.
          for (size_t k = 1; k < seen.size(); ++k) {
            CHECK(seen[k].first <= seen[k - 1].first);
            CHECK(seen[k].second >= seen[k - 1].second);
          }
          if (nodes == 1'000'000) {
            CHECK(result.heap == optimum);
            CHECK(result.optimal);
          }
        }
      });
}

TEST_CASE("minimising under a node budget is reproducible and improves",
          "[exact][minimise]") {
  // Larger instances than brute force handles: the same budget gives the
  // same offsets, a larger one never a larger heap than the start, and the
  // proven bound never passes the heap.
  std::mt19937_64 rng(77);
  for (int round = 0; round < 6; ++round) {
    BufferProblem problem = test::randomIntervals(rng, 40, 30, 12, 16, 64);
    int64_t greedy = heapOf(problem, greedyBySize(problem));
    MinimiseResult first = minimiseWithin(problem, 20'000);
    MinimiseResult again = minimiseWithin(problem, 20'000);
    CHECK(first.offsets == again.offsets);
    CHECK(first.low == again.low);
    CHECK(first.heap <= greedy);
    CHECK(first.low >= lowerBound(problem));
    CHECK(first.low <= first.heap);
    CHECK(violationOf(verifyPlan(problem, planOf(first.offsets, first.heap))) ==
          "");
  }
}

TEST_CASE("best reports the proven lower bound", "[exact][solve]") {
  forTinyInstances(
      12, 30, [](const BufferProblem &problem, int64_t optimum, int) {
        SolveResult result = solve(problem, {Algorithm::Best, 5000});
        REQUIRE(result.plan);
        CHECK(result.provenLowerBound >= lowerBound(problem));
        CHECK(result.provenLowerBound <= optimum);
        if (result.plan->optimal)
          CHECK(result.provenLowerBound == result.plan->heap);
      });
}

namespace {

/// The smallest top of the free buffers over every order, each placed at
/// the lowest aligned offset clear of the fixed and the earlier buffers
/// (any packing, its free buffers taken by offset, places each at or below
/// where it was, so some order reaches the optimum).
int64_t bruteForceAroundFixed(const BufferProblem &problem,
                              const std::vector<int64_t> &fixed) {
  std::vector<size_t> order;
  for (size_t i = 0; i < problem.buffers.size(); ++i)
    if (fixed[i] < 0)
      order.push_back(i);
  int64_t best = std::numeric_limits<int64_t>::max();
  do {
    std::vector<int64_t> offsets = fixed;
    int64_t top = 0;
    for (size_t i : order) {
      const Buffer &b = problem.buffers[i];
      int64_t at = 0;
      for (bool moved = true; moved;) {
        moved = false;
        at = alignTo(at, b.alignment);
        for (size_t j = 0; j < problem.buffers.size(); ++j) {
          const Buffer &other = problem.buffers[j];
          if (j == i || offsets[j] < 0 || !b.overlapsInTime(other))
            continue;
          if (offsets[j] < at + b.size && at < offsets[j] + other.size) {
            at = offsets[j] + other.size;
            moved = true;
          }
        }
      }
      offsets[i] = at;
      top = std::max(top, at + b.size);
    }
    best = std::min(best, top);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

} // namespace

TEST_CASE("the exact search packs into the gaps fixed buffers leave",
          "[exact]") {
  // A fixed buffer at [2, 6) all the time leaves [0, 2) and [6, C): the
  // 2-byte buffer must go under it, the 4-byte one over it.
  BufferProblem problem;
  problem.buffers = {{"fixed", 0, 10, 4, 1},
                     {"big", 0, 10, 4, 1},
                     {"small", 0, 10, 2, 1}};
  ExactOptions options = farDeadline();
  options.fixedOffsets = {2, -1, -1};
  ExactResult packed = searchWithinCapacity(problem, 10, options);
  REQUIRE(packed.offsets);
  CHECK(*packed.offsets == std::vector<int64_t>{2, 6, 0});
  // Within 9 the 4-byte buffer fits neither below nor above.
  ExactResult none = searchWithinCapacity(problem, 9, options);
  CHECK_FALSE(none.offsets);
  CHECK(none.exhausted);
}

TEST_CASE("the exact search around fixed buffers equals brute force",
          "[exact][property]") {
  std::mt19937_64 rng(1818);
  for (int round = 0; round < 150; ++round) {
    BufferProblem problem = tinyProblem(rng);
    // Fix one or two buffers at offsets anywhere below 20.
    std::vector<int64_t> fixed(problem.buffers.size(), -1);
    for (int k = 0, n = 1 + int(rng() % 2); k < n; ++k) {
      size_t i = rng() % problem.buffers.size();
      fixed[i] = alignTo(int64_t(rng() % 20), problem.buffers[i].alignment);
    }
    // Fixed buffers may overlap each other; the search only avoids them.
    int64_t optimum = bruteForceAroundFixed(problem, fixed);
    INFO("round " << round << ", optimum " << optimum);
    ExactOptions options = farDeadline();
    options.fixedOffsets = fixed;
    ExactResult packed = searchWithinCapacity(problem, optimum, options);
    REQUIRE(packed.offsets);
    for (size_t i = 0; i < fixed.size(); ++i) {
      const Buffer &b = problem.buffers[i];
      if (fixed[i] >= 0) {
        CHECK((*packed.offsets)[i] == fixed[i]);
        continue;
      }
      CHECK((*packed.offsets)[i] % b.alignment == 0);
      CHECK((*packed.offsets)[i] + b.size <= optimum);
      for (size_t j = 0; j < fixed.size(); ++j)
        if (j != i && b.overlapsInTime(problem.buffers[j]))
          CHECK(((*packed.offsets)[i] + b.size <= (*packed.offsets)[j] ||
                 (*packed.offsets)[j] + problem.buffers[j].size <=
                     (*packed.offsets)[i]));
    }
    if (optimum == 0) // Every buffer fixed: nothing to prove.
      continue;
    ExactResult below = searchWithinCapacity(problem, optimum - 1, options);
    CHECK_FALSE(below.offsets);
    CHECK(below.exhausted);
  }
}

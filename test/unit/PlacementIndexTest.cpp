//===- PlacementIndexTest.cpp - The greedy's index against a plain scan ---===//
//
// The placement index answers "lowest" and "tightest" fits from a segment
// tree with bucketed leaves and per-query cursors. Both answers are defined
// by the union of the address ranges of the placed buffers live at the same
// time, so a plain scan over every placed buffer must give the same offsets,
// byte for byte, in any order and with any alignment.
//
//===----------------------------------------------------------------------===//
#include "../../lib/Solve/PlacementIndex.h"
#include "../../lib/Solve/Solvers.h"

#include "PlanChecks.h"
#include "coreai-plan/Verify.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

using namespace coreai;
using namespace coreai::solvers;

namespace {

using Runs = std::vector<std::pair<int64_t, int64_t>>;

/// Merged address ranges of the placed buffers live during `b`'s lifetime
/// (a buffer with an empty interval is never live).
Runs conflicts(const BufferProblem &problem, const std::vector<bool> &placed,
               const Offsets &offsets, const Buffer &b) {
  Runs runs;
  for (size_t j = 0; j < problem.buffers.size(); ++j) {
    const Buffer &other = problem.buffers[j];
    if (placed[j] && other.size > 0 && other.start < other.end &&
        b.start < b.end && b.overlapsInTime(other))
      runs.emplace_back(offsets[j], offsets[j] + other.size);
  }
  std::sort(runs.begin(), runs.end());
  Runs merged;
  for (auto run : runs)
    if (!merged.empty() && run.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, run.second);
    else
      merged.push_back(run);
  return merged;
}

int64_t lowestAbove(const Runs &runs, int64_t from, const Buffer &b) {
  int64_t offset = alignTo(from, b.alignment);
  if (b.size == 0)
    return offset;
  for (const auto &[begin, end] : runs)
    if (end > offset && begin < offset + b.size)
      offset = alignTo(end, b.alignment);
  return offset;
}

/// PlacementIndex::tightestFit's policy over a plain scan of the runs.
int64_t tightest(const Runs &runs, const Buffer &b) {
  int64_t best = tightestGap(b.size, [&](int64_t from) {
    Gap gap{lowestAbove(runs, from, b), kOpenTop};
    for (const auto &[begin, end] : runs)
      if (end > gap.offset) {
        gap.end = begin;
        break;
      }
    return gap;
  });
  return best < 0 ? lowestAbove(runs, 0, b) : best;
}

Offsets placeByScan(const BufferProblem &problem,
                    const std::vector<size_t> &order, Fit fit) {
  Offsets offsets(problem.buffers.size(), 0);
  std::vector<bool> placed(problem.buffers.size(), false);
  for (size_t i : order) {
    const Buffer &b = problem.buffers[i];
    Runs runs = conflicts(problem, placed, offsets, b);
    offsets[i] = fit == Fit::Lowest ? lowestAbove(runs, 0, b)
                                    : tightest(runs, b);
    placed[i] = true;
  }
  return offsets;
}

/// Short and long lifetimes over a timeline long enough for many buckets
/// (so queries meet whole tree nodes and partly covered buckets), or a
/// short one (many buffers per time step).
BufferProblem randomProblem(std::mt19937_64 &rng, size_t n) {
  BufferProblem problem;
  int64_t horizon = rng() % 2 ? int64_t(n) : int64_t(n / 20 + 1);
  bool aligned = rng() % 2;
  for (size_t i = 0; i < n; ++i) {
    Buffer b;
    b.id = std::to_string(i);
    b.start = int64_t(rng() % uint64_t(horizon));
    int64_t length = int64_t(1) << (rng() % 11);
    b.end = b.start + int64_t(rng() % uint64_t(length + 1));
    b.size = int64_t(rng() % 5000);
    if (aligned)
      b.alignment = int64_t(1) << (rng() % 7);
    problem.buffers.push_back(b);
  }
  return problem;
}

} // namespace

TEST_CASE("the placement index places exactly as a scan over every placed "
          "buffer",
          "[solve][greedy]") {
  std::mt19937_64 rng(18);
  for (int round = 0; round < 12; ++round) {
    BufferProblem problem = randomProblem(rng, 300 + rng() % 2000);
    std::vector<size_t> shuffled(problem.buffers.size());
    std::iota(shuffled.begin(), shuffled.end(), 0);
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    for (const std::vector<size_t> &order :
         {orderBySize(problem), orderByBreadth(problem), shuffled})
      for (Fit fit : {Fit::Lowest, Fit::Tightest}) {
        INFO("round " << round << ", " << problem.buffers.size()
                      << " buffers, fit " << int(fit));
        Offsets offsets = placeInOrder(problem, order, fit);
        CHECK(offsets == placeByScan(problem, order, fit));
        CHECK(violationOfOffsets(problem, offsets) == "");
      }
  }
}

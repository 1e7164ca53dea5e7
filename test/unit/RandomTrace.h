//===- RandomTrace.h - Random traces shaped like the bench's ----*- C++ -*-===//
//
// Like coreai-plan-bench --random (not the same numbers: the seed is the
// caller's): about a hundred buffers live at once, sizes 64 B to 16 KiB in
// 64-byte steps, lifetimes 1 to 1024 steps over a timeline of n steps.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TEST_UNIT_RANDOMTRACE_H
#define COREAI_PLAN_TEST_UNIT_RANDOMTRACE_H

#include "coreai-plan/Problem.h"

#include <random>
#include <string>

namespace coreai::test {

/// n buffers over n steps, lifetimes log-uniform up to 1024 steps, sizes
/// `grain` times 1..units (default: 64-byte multiples up to 16 KiB).
inline BufferProblem randomTrace(size_t n, uint64_t seed, int64_t grain = 64,
                                 uint64_t units = 256) {
  std::mt19937_64 rng(seed);
  BufferProblem problem;
  for (size_t i = 0; i < n; ++i) {
    Buffer b;
    b.id = std::to_string(i);
    b.start = int64_t(rng() % n);
    // The length first (the operands of % are unsequenced), as in
    // coreai-plan-bench --random: the same seed gives the same trace.
    uint64_t length = uint64_t(1) << (rng() % 11);
    b.end = b.start + 1 + int64_t(rng() % length);
    b.size = grain * (1 + int64_t(rng() % units));
    problem.buffers.push_back(b);
  }
  return problem;
}

/// `n` buffers named `prefix`0, `prefix`1, ...: each a start below
/// `horizon`, a lifetime of 1 to `maxLifetime` steps and `unit` x (1 to
/// `units`) bytes, drawn from `rng` in that order.
inline BufferProblem randomIntervals(std::mt19937_64 &rng, int n,
                                     int64_t horizon, int64_t maxLifetime,
                                     int64_t units, int64_t unit,
                                     const std::string &prefix = "") {
  BufferProblem problem;
  for (int i = 0; i < n; ++i) {
    int64_t start = int64_t(rng() % uint64_t(horizon));
    int64_t end = start + 1 + int64_t(rng() % uint64_t(maxLifetime));
    int64_t size = unit * (1 + int64_t(rng() % uint64_t(units)));
    problem.buffers.push_back({prefix + std::to_string(i), start, end, size});
  }
  return problem;
}

} // namespace coreai::test

#endif // COREAI_PLAN_TEST_UNIT_RANDOMTRACE_H

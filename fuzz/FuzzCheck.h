//===- FuzzCheck.h - Invariants of the libFuzzer harnesses ------*- C++ -*-===//
//
// A broken invariant must stop libFuzzer with the input saved: abort after
// naming what was violated.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_FUZZ_FUZZCHECK_H
#define COREAI_PLAN_FUZZ_FUZZCHECK_H

#include <cstdio>
#include <cstdlib>

namespace coreai::fuzz {

inline void check(bool condition, const char *what) {
  if (condition)
    return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

} // namespace coreai::fuzz

#endif // COREAI_PLAN_FUZZ_FUZZCHECK_H

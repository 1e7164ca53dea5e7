//===- PlanChecks.h - Plans and verifiers' answers in tests -----*- C++ -*-===//
#ifndef COREAI_PLAN_TEST_UNIT_PLANCHECKS_H
#define COREAI_PLAN_TEST_UNIT_PLANCHECKS_H

#include "coreai-plan/Verify.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace coreai {

/// The message of a verifier's answer, empty when the plan is sound. A
/// string, so that Catch2 prints it when a check fails.
inline std::string violationOf(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : std::string();
}

inline Plan planOf(std::vector<int64_t> offsets, int64_t heap) {
  Plan plan;
  plan.offsets = std::move(offsets);
  plan.heap = heap;
  return plan;
}

/// What verifyPlan says of `offsets` in a heap that ends at their top.
inline std::string violationOfOffsets(const BufferProblem &problem,
                                      const std::vector<int64_t> &offsets) {
  return violationOf(
      verifyPlan(problem, planOf(offsets, heapOf(problem, offsets))));
}

} // namespace coreai

#endif // COREAI_PLAN_TEST_UNIT_PLANCHECKS_H

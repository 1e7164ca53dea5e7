//===- PlanChecks.h - Plans and verifiers' answers in tests -----*- C++ -*-===//
#ifndef COREAI_PLAN_TEST_UNIT_PLANCHECKS_H
#define COREAI_PLAN_TEST_UNIT_PLANCHECKS_H

#include "llvm/Support/Error.h"

#include <string>

namespace coreai {

/// The message of a verifier's answer, empty when the plan is sound. A
/// string, so that Catch2 prints it when a check fails.
inline std::string violationOf(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : std::string();
}

} // namespace coreai

#endif // COREAI_PLAN_TEST_UNIT_PLANCHECKS_H

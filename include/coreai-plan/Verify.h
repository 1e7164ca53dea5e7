//===- Verify.h - Independent check of a plan -------------------*- C++ -*-===//
//
// Written without reference to any solver so that it can be trusted to
// catch their mistakes: every plan a tool emits goes through it.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_VERIFY_H
#define COREAI_PLAN_VERIFY_H

#include "coreai-plan/Problem.h"

#include <optional>
#include <string>

namespace coreai {

/// Returns a description of the first violation found, or std::nullopt when
/// the plan is sound: one offset per buffer, each offset aligned and
/// non-negative, every buffer inside [0, plan.heap), plan.heap within the
/// problem's capacity (if any), and no two buffers that overlap in time
/// sharing a byte.
std::optional<std::string> verifyPlan(const BufferProblem &problem,
                                      const Plan &plan);

} // namespace coreai

#endif // COREAI_PLAN_VERIFY_H

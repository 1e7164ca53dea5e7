//===- Verify.h - Independent check of a plan -------------------*- C++ -*-===//
//
// Written without reference to any solver so that it can be trusted to
// catch their mistakes: every plan a tool emits goes through it.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_VERIFY_H
#define COREAI_PLAN_VERIFY_H

#include "coreai-plan/Problem.h"

#include "llvm/Support/Error.h"

namespace coreai {

/// Returns the first violation found (its message describes it), or
/// success when the plan is sound: one offset per buffer, each offset aligned
/// and non-negative, every buffer inside [0, plan.heap), plan.heap within the
/// problem's capacity (if any), and no two buffers that overlap in time
/// sharing a byte.
llvm::Error verifyPlan(const BufferProblem &problem, const Plan &plan);

} // namespace coreai

#endif // COREAI_PLAN_VERIFY_H

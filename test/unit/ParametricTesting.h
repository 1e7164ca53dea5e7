//===- ParametricTesting.h - Parametric plans in tests ---------*- C++ -*-===//
#ifndef COREAI_PLAN_TEST_UNIT_PARAMETRICTESTING_H
#define COREAI_PLAN_TEST_UNIT_PARAMETRICTESTING_H

#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Parametric.h"

#include <string>
#include <vector>

namespace coreai {

inline SizeExpr expr(std::vector<int64_t> coefficients) {
  return SizeExpr{std::move(coefficients)};
}

/// A manifest whose one parametric plan is `plan`, for entry point `main`
/// over S (symbol s0), on `target` (alignment 64); no per-S entries and no
/// bundle heap yet.
inline Manifest parametricManifest(const ParametricPlan &plan,
                                   const std::string &target) {
  Manifest m;
  m.toolVersion = "coreai-plan test";
  m.target = {target, 64, 0};
  m.inputs = {{"g.mlir", sha256Hex("g")}};
  m.parametric = {{"main", 0, "s0", 64, plan, ""}};
  return m;
}

} // namespace coreai

#endif // COREAI_PLAN_TEST_UNIT_PARAMETRICTESTING_H

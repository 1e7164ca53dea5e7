//===- Target.h - Where a plan is meant to run ------------------*- C++ -*-===//
//
// A target is data, not code: targets/<name>.json in the source (or
// install) tree describes the runtime's heap rules. See docs/MANIFEST.md.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TARGET_H
#define COREAI_PLAN_TARGET_H

#include "coreai-plan/Target/ResultDtypes.h"
#include "coreai-plan/Target/Workspace.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace coreai {

/// Which values a plan may compute again at each reader instead of keeping
/// them (`"recompute"` in targets/*.json, docs/FUSION.md "Recompute"):
/// chains of ops of these fusion roles, from function arguments only, of at
/// most `maxOps` ops.
struct RecomputeRules {
  /// fill, elementwise, cast, view (fusion roles); outer_product (a
  /// matrix product over a contracted dimension of one) and concat.
  std::vector<std::string> roles;
  int64_t maxOps = 0;
  bool enabled() const { return !roles.empty() && maxOps > 0; }
};

struct Target {
  std::string name;
  std::string description;
  /// Every buffer offset in the heap is a multiple of this (power of two).
  int64_t alignment = 1;
  /// Largest scratch heap the runtime can allocate, workspace included, 0
  /// when unlimited: `max_heap_bytes` (or its older name `heap_limit`).
  int64_t heapLimit = 0;
  /// Op classes the runtime runs in place (output over a dying operand):
  /// "elementwise", "softmax" (docs/LIVENESS.md says which ops each holds).
  std::vector<std::string> inPlaceOpClasses;
  /// The caller binds output / state buffers before the call, so they are
  /// not placed in the scratch heap.
  bool outputsBoundBeforeCall = true;
  bool stateBoundBeforeCall = true;
  /// The runtime neither reads nor keeps an output's storage before the
  /// call returns, so the plan may use it as scratch until the output's own
  /// value is written there (with outputsBoundBeforeCall only).
  bool outputsBorrowable = false;
  /// The patterns of ops the runtime runs as one fused kernel, whose inner
  /// values take no memory: "elementwise", "reduction", "cast",
  /// "attention" (docs/FUSION.md says what each fuses). Empty: none.
  std::vector<std::string> fusionPatterns;
  /// The runtime runs a fused kernel's ops in IR order (`"kernel_op_order":
  /// "ir"`), so the kernel in-place rule may rely on it; by default
  /// (`"dataflow"`) it holds for any order the data allows (docs/FUSION.md).
  bool kernelsRunInIrOrder = false;
  /// The scratch the runtime's kernels take from the heap, per op
  /// (docs/WORKSPACE.md). Empty: its kernels bring their own.
  WorkspaceRules workspace;
  /// Results its kernels write in another dtype than the exported graph
  /// says (`"result_dtypes"`, docs/WORKSPACE.md "Result dtypes"): the plan
  /// sizes them by the kernel's dtype. Empty: the graph's types hold.
  ResultDtypeRules resultDtypes;
  /// Chains the runtime's kernels may recompute (none by default).
  RecomputeRules recompute;
  /// Largest single buffer (value or workspace) the runtime can allocate
  /// (Metal's maxBufferLength), 0 when unlimited.
  int64_t maxBufferBytes = 0;

  bool runsInPlace(llvm::StringRef opClass) const;
  bool fuses(llvm::StringRef pattern) const;
};

/// Parses a target description; errors name `source` and the bad field.
llvm::Expected<Target> parseTarget(llvm::StringRef json,
                                   llvm::StringRef source);

/// The directory targets are read from unless the user names another: the
/// installed targets beside the running tool (<prefix>/share/coreai-plan/
/// targets), else the source tree's targets/ (a compile-time path).
llvm::StringRef defaultTargetsDir();

/// Names of the targets in `dir` (every `<name>.json`), sorted.
std::vector<std::string> knownTargets(llvm::StringRef dir);

/// Loads `<dir>/<name>.json`. An unknown name is an error listing the
/// known targets.
llvm::Expected<Target> loadTarget(llvm::StringRef name, llvm::StringRef dir);

} // namespace coreai

#endif // COREAI_PLAN_TARGET_H

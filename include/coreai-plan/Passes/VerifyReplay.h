//===- VerifyReplay.h - Replaying an annotated function ---------*- C++ -*-===//
//
// Reads a plan back from the IR alone (coreai.plan, coreai.offsets,
// coreai.output, coreai.state: docs/LIVENESS.md) and replays the function
// in its op order on a shadow of its storages (coreai-plan/Replay.h). It
// does not look at the live ranges the planner computed, so it checks
// them: a plan whose reuse lets a value be overwritten before its last
// read fails here even if the interval verifier passed it.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_VERIFYREPLAY_H
#define COREAI_PLAN_PASSES_VERIFYREPLAY_H

#include "coreai-plan/Dialect/CoreAI.h"
#include "coreai-plan/Replay.h"
#include "coreai-plan/Target/ResultDtypes.h"
#include "coreai-plan/Target/Workspace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

namespace coreai {

/// A plan's placements as the function's annotations would state them
/// (coreai.placement per op, coreai.workspace, coreai.plan's heap and
/// alignment), handed to the replay without writing them: the parametric
/// planner replays most S of a range this way, where setting the
/// attributes cost as much as the replay.
struct PlannedPlacements {
  int64_t heap = 0;
  int64_t alignment = 1;
  /// Per op with a placed result, an entry per result.
  llvm::MapVector<mlir::Operation *, llvm::SmallVector<Placement, 1>> results;
  llvm::DenseMap<mlir::Operation *, Placement> workspaces;
};

struct ReplayOptions {
  /// The target's alignment: every heap offset must be a multiple of it,
  /// and of the plan's own `alignment` (0: the plan's only).
  int64_t alignment = 0;
  /// The function as it was before planning: when set, the planned one
  /// must compute the same dataflow (verifySameDataflow).
  mlir::func::FuncOp original;
  /// When set, the plan replayed; the function's annotations are not read.
  const PlannedPlacements *placements = nullptr;
  /// The target's workspace rules: every step's workspace must hold at
  /// least what they give its ops (null: the plan's own are trusted).
  const WorkspaceRules *workspaceRules = nullptr;
  /// The target's result dtypes: a result its kernel writes in another
  /// dtype than the graph's must have a slot of the kernel's bytes, and a
  /// `coreai.result_dtypes` that says otherwise fails (null: the plan's
  /// own `coreai.result_dtypes`, else the graph's types, are trusted).
  const ResultDtypeRules *resultDtypeRules = nullptr;
  /// The target runs a kernel's ops in IR order (so does a plan whose
  /// `#coreai.plan` says `kernels_in_ir_order`); otherwise a kernel's
  /// result may lie on an operand only if every order the data allows
  /// reads the operand first.
  bool kernelsInIrOrder = false;
};

/// The replay program of a planned function: storages are the heap
/// (coreai.plan's `heap` bytes), every sized argument (writable when its
/// `coreai.kind` is "state"), every output and, for returned values the
/// plan left outside the heap without naming a place, a storage of their
/// own. Steps are the top-level ops in order; a use inside a region is a
/// read of the enclosing op. Sizes come from the types. Errors at the
/// function or op when the annotations do not fit the IR, and at the
/// function when they contradict it without running anything (sizes,
/// alignment, places, returned values: docs/LIVENESS.md, "The replay
/// verifier").
mlir::FailureOr<replay::Program>
replayProgramOf(mlir::func::FuncOp func, const ReplayOptions &options = {});

/// replayProgramOf + replay (+ verifySameDataflow with an original):
/// emits the first violation as an error at the function and fails.
mlir::LogicalResult verifyReplay(mlir::func::FuncOp func,
                                 const ReplayOptions &options = {});

/// Whether `planned` computes what `original` does: the same argument and
/// result types (or specialisations) and attributes, every op of the original exactly once with the same name,
/// attributes (placement annotations aside), regions and operands matched
/// by dataflow, the same values returned, and the ops with effects
/// (Effects.h) in the same relative order; each op reading or writing a
/// value some op writes in place stays on its side of that write. Ops may
/// otherwise move. Emits the first difference at the planned function.
mlir::LogicalResult verifySameDataflow(mlir::func::FuncOp planned,
                                       mlir::func::FuncOp original);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_VERIFYREPLAY_H

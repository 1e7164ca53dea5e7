//===- PlanFunction.h - Liveness and planning of one function ---*- C++ -*-===//
//
// The bridge between the IR and the core: computeBuffers() turns a
// func.func into a BufferProblem (rules in docs/LIVENESS.md), planFunction()
// solves and verifies it and writes the plan into the IR as attributes.
// Both the coreai-plan-buffers pass and the coreai-plan CLI call these.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_PLANFUNCTION_H
#define COREAI_PLAN_PASSES_PLANFUNCTION_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/Options.h"
#include "coreai-plan/Solve/Solve.h"
#include "coreai-plan/Target/ResultDtypes.h"
#include "coreai-plan/Target/Target.h"
#include "coreai-plan/Target/Workspace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <optional>

namespace coreai {

/// The choices of computeBuffers: each field, its default and its meaning
/// are declared in PlanningOptions.td (the pass reference lists them);
/// docs/LIVENESS.md has the rules.
struct LivenessOptions {
#define COREAI_LIVENESS_FIELD(TYPE, NAME, DEFAULT) TYPE NAME = DEFAULT;
#include "coreai-plan/Passes/PlanningOptions.inc"
  /// The target's workspace rules (planOptionsFor sets them): with
  /// `workspace` on, each op they cover gets a workspace buffer. Shared,
  /// not copied, by the many copies of the options planning makes.
  std::shared_ptr<const WorkspaceRules> workspaceRules;
  /// The target's result dtypes (planOptionsFor sets them): a result its
  /// kernel writes in another dtype than the graph's is sized by the
  /// kernel's (docs/WORKSPACE.md, "Result dtypes"). Null: the graph's.
  std::shared_ptr<const ResultDtypeRules> resultDtypeRules;
};

/// The buffers of one function and, per buffer, the values that live in it:
/// first the `owners[b]` values that hold its bytes (the root, then the
/// results written over it in place, in program order), then its views.
/// All three vectors are parallel to problem.buffers, in program order.
struct FunctionBuffers {
  BufferProblem problem;
  std::vector<BufferOrigin> origins;
  std::vector<llvm::SmallVector<mlir::Value, 1>> values;
  std::vector<unsigned> owners;
  /// Values (owners, not views) whose bytes live in storage the runtime
  /// binds: an output (`index` = result position) or a state argument
  /// (`index` = argument number). Only placements the options made.
  struct External {
    mlir::Value value;
    bool inState;
    unsigned index;
  };
  std::vector<External> external;
  /// With borrowOutputs: the outputs lent to the plan, by result position.
  std::vector<OutputBin> bins;
  /// Values that never leave the fused kernel computing them (its id):
  /// no bytes of the plan (docs/FUSION.md). Owners only, in program order.
  struct Fused {
    mlir::Value value;
    int64_t kernel;
  };
  std::vector<Fused> fused;
  int64_t fusedBytes = 0;
  /// The kernels' workspaces (docs/WORKSPACE.md): buffers of the problem
  /// with no value (values[buffer] empty, owners[buffer] 0), each live only
  /// during the step of `op` (an op, or the last op of a fused kernel),
  /// which carries its `coreai.workspace`.
  struct Workspace {
    size_t buffer;
    mlir::Operation *op;
  };
  std::vector<Workspace> workspaces;
  /// Kernels of two or more ops in the function (coreai.kernel).
  size_t kernels = 0;
};

/// Emits a diagnostic at the offending op and fails on input it cannot size
/// (dynamic dims, unknown element types, non-tensor results it cannot
/// treat as external).
mlir::FailureOr<FunctionBuffers>
computeBuffers(mlir::func::FuncOp func, const LivenessOptions &options);

/// Every choice a user makes about how a function is planned: the one
/// struct the pass options, the CLI's flags and the bundle planner's
/// per-target defaults are mapped onto. The fields that are planning
/// options, their defaults and help are declared once, in
/// PlanningOptions.td.
struct FunctionPlanOptions {
  LivenessOptions liveness;
  SolveOptions solve = [] {
    SolveOptions solve;
#define COREAI_SOLVE_FIELD(TYPE, NAME, DEFAULT) solve.NAME = DEFAULT;
#include "coreai-plan/Passes/PlanningOptions.inc"
    return solve;
  }();
#define COREAI_FUNCTION_FIELD(TYPE, NAME, DEFAULT) TYPE NAME = DEFAULT;
#include "coreai-plan/Passes/PlanningOptions.inc"
  /// The chunk size S, recorded in the PlannedEntry (not a choice: the
  /// function's, see chunkSizeOf).
  int64_t chunk = 0;
  /// Give ops the cheapest kernel variant that fits (passes/Variants.h);
  /// off, every op keeps its least-workspace variant: a parametric plan's
  /// one decision for every S of a piece.
  bool chooseVariants = true;
  /// The target's recompute rules (planOptionsFor sets them when
  /// `recompute` is on); a parametric plan's pieces keep every value.
  std::shared_ptr<const RecomputeRules> recomputeRules;
};

/// The one check of option values a user typed (alignment, time limit,
/// heap limit), for every front end: the CLI's flags and the passes'.
llvm::Error checkPlanOptions(const FunctionPlanOptions &options);

/// Why planFunction failed; the diagnostic itself went to the context.
enum class PlanFailure {
  BadInput,  ///< The function cannot be planned (dynamic dims, bad types).
  OverLimit, ///< The heap is above FunctionPlanOptions::maxHeap.
  Internal,  ///< The solver's plan failed verification: a bug.
};

/// computeBuffers + solve + verify + annotate `func` with coreai.* attrs
/// (names and meaning in docs/LIVENESS.md). With in-place reuse on, the
/// function is also planned without it to measure the saving. On failure
/// an error is emitted at the function or the op, and `why` (if given)
/// says which kind it was.
mlir::FailureOr<PlannedEntry> planFunction(mlir::func::FuncOp func,
                                           const FunctionPlanOptions &options,
                                           PlanFailure *why = nullptr);

/// The heap planFunction would give `func` (reordering it the same way),
/// for callers that only compare heaps: without the annotations, the
/// replay, the heap limit and the second solve that measures the in-place
/// saving. The plan it measures is verified (solve() always does).
mlir::FailureOr<int64_t> planHeap(mlir::func::FuncOp func,
                                  const FunctionPlanOptions &options,
                                  PlanFailure *why = nullptr);

/// Annotates `func` with a plan made elsewhere for `buffers` (computed from
/// `func` in its current op order with `options.liveness`), each buffer in
/// the region `binOf` gives (Borrow.h; empty: all in the heap; the bins are
/// `buffers.bins`), and runs the
/// replay on it, as planFunction does for its own plan, including the
/// dataflow check against `original` (the function before its ops were
/// moved). The parametric planner uses it for the plan it instantiates at
/// each S. Fails (an error at the function) when the replay rejects it.
mlir::FailureOr<PlannedEntry> applyPlan(mlir::func::FuncOp func,
                                        mlir::func::FuncOp original,
                                        FunctionBuffers buffers, Plan plan,
                                        BinAssignment binOf,
                                        const FunctionPlanOptions &options);

/// applyPlan without what only a kept plan needs (the annotations, the
/// manifest's records, the dataflow check): the placements the
/// annotations would state, replayed on `func` (PlannedPlacements). The
/// parametric planner checks the S no instance keeps with it.
mlir::LogicalResult replayPlan(mlir::func::FuncOp func,
                               const FunctionBuffers &buffers,
                               const Plan &plan, const BinAssignment &binOf,
                               const FunctionPlanOptions &options);

/// The functions the coreai-plan-buffers pass and `coreai-plan buffers`
/// plan: every one with a body, private ones too, in module order.
std::vector<mlir::func::FuncOp> functionsWithBodies(mlir::ModuleOp module);

/// planFunction with `options.chunk` set to the function's own chunk size
/// (chunkSizeOf): how the pass and `coreai-plan buffers` plan each
/// function, so that both give the same plan and record the same S.
mlir::FailureOr<PlannedEntry> planAtOwnChunk(mlir::func::FuncOp func,
                                             FunctionPlanOptions options,
                                             PlanFailure *why = nullptr);

/// The chunk size S a static function was exported at, by the exporter's
/// conventions (exportedChunkSize in coreai-plan/Exporter/ChunkSize.h).
int64_t chunkSizeOf(mlir::func::FuncOp func);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_PLANFUNCTION_H

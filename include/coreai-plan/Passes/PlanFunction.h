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
#include "coreai-plan/Solve.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace coreai {

struct LivenessOptions {
  /// Every buffer offset is a multiple of this (power of two).
  int64_t alignment = defaultAlignment;
  /// Elementwise ops may write into an operand's buffer that dies there.
  bool inPlace = false;
  /// Softmax (a row at a time: every element of a row is read before any
  /// is written) may write into its input's buffer when it dies there.
  bool inPlaceSoftmax = false;
  /// Put returned values in the scratch heap too (some runtimes want it).
  bool outputsInHeap = false;
  /// A heap buffer whose in-place chain ends in a returned value lives in
  /// that output's storage, which the runtime binds before the call.
  bool outputPlacement = false;
  /// A functional update of a `state` argument (index_put) whose old value
  /// dies there and which is returned as that state's `state_update` writes
  /// into the state's own storage.
  bool statePlacement = false;
  /// Buffers that die before an output's own value is written may live in
  /// that output's storage (the runtime binds it before the call and reads
  /// it after): each returned value that owns its output's bytes makes the
  /// output a bin (Borrow.h).
  bool borrowOutputs = false;
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
};

/// Emits a diagnostic at the offending op and fails on input it cannot size
/// (dynamic dims, unknown element types, non-tensor results it cannot
/// treat as external).
mlir::FailureOr<FunctionBuffers>
computeBuffers(mlir::func::FuncOp func, const LivenessOptions &options);

struct FunctionPlanOptions {
  LivenessOptions liveness;
  SolveOptions solve;
  /// Fail at the function's location when its heap exceeds this (0: none).
  int64_t maxHeap = 0;
  int64_t chunk = 0; ///< recorded in the PlannedEntry
  /// Reorder the function's ops (a topological order of their data and
  /// effect dependencies) when that lowers the heap.
  bool reorder = false;
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

/// The chunk size S of a static function: its `coreai.seq_len`, else the
/// second dim of its `input_ids` argument, else 0 (no sequence dimension).
int64_t sequenceLengthOf(mlir::func::FuncOp func);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_PLANFUNCTION_H

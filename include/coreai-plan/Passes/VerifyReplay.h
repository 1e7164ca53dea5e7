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

#include "coreai-plan/Replay.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

namespace coreai {

/// The replay program of a planned function: storages are the heap
/// (coreai.plan's `heap` bytes), every sized argument (writable when its
/// `coreai.kind` is "state"), every output and, for values the plan left
/// outside the heap without naming a place, a storage of their own. Steps
/// are the top-level ops in order; a use inside a region is a read of the
/// enclosing op. Errors at the function or op when the annotations do not
/// fit the IR.
mlir::FailureOr<replay::Program> replayProgramOf(mlir::func::FuncOp func);

/// replayProgramOf + replay: emits the first violation as an error at the
/// function and fails.
mlir::LogicalResult verifyReplay(mlir::func::FuncOp func);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_VERIFYREPLAY_H

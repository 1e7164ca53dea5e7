//===- PlanLimits.cpp - A plan against its limits -------------------------===//
#include "PlanLimits.h"

#include "coreai-plan/Verify.h"

using namespace mlir;

namespace coreai {

/// The buffer live at the heap's peak that ends highest: the one a
/// smaller heap would have to move, named when the heap is over its limit.
static std::optional<size_t> bufferAtPeak(const PlannedEntry &entry) {
  std::optional<size_t> top;
  for (size_t b = 0; b < entry.problem.buffers.size(); ++b)
    if (entry.borrowedOutput(b) < 0 &&
        (!top || entry.plan.offsets[b] + entry.problem.buffers[b].size >
                     entry.plan.offsets[*top] +
                         entry.problem.buffers[*top].size))
      top = b;
  return top;
}

/// The heap with the least-workspace variants is above `budget`: an error
/// naming the buffer at the peak, so the user sees what holds the bytes.
void reportOverBudget(func::FuncOp func, const PlannedEntry &entry,
                      int64_t budget) {
  InFlightDiagnostic diag = func.emitError("heap of @");
  diag << func.getSymName() << " cannot meet heap-budget " << budget
       << ": with the least workspace every kernel variant allows it is "
       << entry.plan.heap << " bytes (S=" << entry.chunk;
  if (std::optional<size_t> top = bufferAtPeak(entry)) {
    const BufferOrigin &origin = entry.origins[*top];
    diag << "; its top buffer is " << (entry.isWorkspace(*top) ? "the workspace of " : "")
         << origin.op << " ("
         << (entry.isWorkspace(*top) ? origin.value : "value " + origin.value)
         << (origin.location.empty() ? "" : " at " + origin.location)
         << "), " << entry.problem.buffers[*top].size << " bytes at offset "
         << entry.plan.offsets[*top];
  }
  diag << "; `explain` lists what is live at the peak)";
}

/// The plan once the variants grew its workspaces, checked again by the
/// interval verifier (heap and lent outputs).
LogicalResult verifyChosen(func::FuncOp func, const FunctionBuffers &buffers,
                           const Plan &plan, const BinAssignment &binOf) {
  llvm::Error violation =
      binOf.empty() ? verifyPlan(buffers.problem, plan)
                    : verifyBorrowedPlan(buffers.problem, buffers.bins, binOf,
                                         plan);
  if (!violation)
    return success();
  return func.emitError("internal error: the plan of @")
         << func.getSymName() << " with its kernel variants failed "
         << "verification: " << llvm::toString(std::move(violation));
}

/// The target's limits (max-buffer, max-heap): an error naming the entry,
/// S, and the op and value (or workspace) that need the bytes.
LogicalResult checkLimits(func::FuncOp func, const PlannedEntry &entry,
                          const FunctionPlanOptions &options) {
  auto describe = [&](InFlightDiagnostic &diag, size_t b) {
    const BufferOrigin &origin = entry.origins[b];
    diag << (entry.isWorkspace(b) ? "the workspace of " : "")
         << origin.op << " ("
         << (entry.isWorkspace(b) ? origin.value : "value " + origin.value)
         << (origin.location.empty() ? "" : " at " + origin.location) << ")";
  };
  if (options.maxBuffer > 0)
    for (size_t b = 0; b < entry.problem.buffers.size(); ++b) {
      int64_t bytes = entry.problem.buffers[b].size;
      if (bytes <= options.maxBuffer)
        continue;
      InFlightDiagnostic diag = func.emitError("@");
      diag << func.getSymName() << " at S=" << entry.chunk << ": ";
      describe(diag, b);
      diag << " needs one buffer of " << bytes << " bytes, above max-buffer "
           << options.maxBuffer;
      return failure();
    }
  if (options.maxHeap > 0 && entry.plan.heap > options.maxHeap) {
    InFlightDiagnostic diag = func.emitError("heap of @");
    diag << func.getSymName() << " is " << entry.plan.heap
         << " bytes, above max-heap " << options.maxHeap << " (S="
         << entry.chunk;
    if (!entry.workspaces.empty())
      diag << "; kernel workspace planned: " << entry.workspaceBytes()
           << " bytes";
    if (std::optional<size_t> top = bufferAtPeak(entry)) {
      diag << "; its top buffer is ";
      describe(diag, *top);
      diag << ", " << entry.problem.buffers[*top].size << " bytes at offset "
           << entry.plan.offsets[*top];
    }
    diag << ")";
    return failure();
  }
  return success();
}


} // namespace coreai

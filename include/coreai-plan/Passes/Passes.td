//===- Passes.td - coreai-plan passes ----------------------*- tablegen -*-===//
#ifndef COREAI_PLAN_PASSES
#define COREAI_PLAN_PASSES

include "mlir/Pass/PassBase.td"

def CoreAIPlanBuffers : Pass<"coreai-plan-buffers", "mlir::ModuleOp"> {
  let summary = "Plan every function's intermediate tensors into one heap";
  let description = [{
    Computes the live range of every intermediate (see docs/LIVENESS.md),
    packs them with the core solvers, verifies the plan, and annotates each
    planned op with `coreai.offsets` / `coreai.sizes` and each function with
    a `coreai.plan` summary.
  }];
  let options = [
    Option<"algorithm", "algorithm", "std::string", "\"best\"",
           "naive | greedy-by-size | greedy-by-breadth | best-fit | best">,
    Option<"alignment", "alignment", "int64_t", "64",
           "Offset alignment of every buffer in bytes (power of two)">,
    Option<"inPlace", "in-place", "bool", "false",
           "Let elementwise ops write into an operand that dies there">,
    Option<"maxHeap", "max-heap", "int64_t", "0",
           "Fail when a function's heap exceeds N bytes (0: no limit)">,
    Option<"timeLimitMs", "time-limit-ms", "int64_t", "1000",
           "Budget of the exact search per function">,
  ];
}

#endif // COREAI_PLAN_PASSES

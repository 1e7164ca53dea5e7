//===- PlanningOptions.td - The planning options, declared once -*- tablegen -*-===//
//
// Every choice a user can make about how a function is planned is one
// record here. From this list come:
//   - the options of the coreai-plan-buffers and coreai-reorder passes
//     (Passes.td builds their `options` from it, so the generated pass
//     reference lists them);
//   - PlanningOptions.inc (scripts/gen-planning-options.py, from
//     `llvm-tblgen --dump-json`): the fields and defaults of
//     coreai::FunctionPlanOptions, the mapping of the pass options onto
//     it, the CLI's flags (`buffers`: every option under its pass name;
//     `plan`, `fit`: the options no target decides, and the switches that
//     turn a target's reuse off) and the bundle planner's per-target
//     defaults (planOptionsFor).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PLANNINGOPTIONS
#define COREAI_PLAN_PLANNINGOPTIONS

include "mlir/Pass/PassBase.td"

// A flag of `plan` and `fit` that switches a reuse technique off where the
// target would have it on. `name` is the field of coreai::ReuseSwitches.
class ReuseOffSwitch<string name, string flag, string help> {
  string cppName = name;
  string argument = flag;
  string description = help;
}

// The planning options the target decides without a way to refuse them.
def NoOffSwitch : ReuseOffSwitch<"", "", "">;

def NoInPlace : ReuseOffSwitch<"noInPlace", "no-in-place",
    "Give every result its own buffer even where the target runs the op in "
    "place">;
def NoOutputPlacement : ReuseOffSwitch<"noOutputPlacement",
    "no-output-placement",
    "Keep chains that end in a returned value in the heap">;
def NoStatePlacement : ReuseOffSwitch<"noStatePlacement", "no-state-placement",
    "Do not write state updates into the state's own storage">;
def NoReorder : ReuseOffSwitch<"noReorder", "no-reorder",
    "Keep the exported op order">;
def NoBorrowOutputs : ReuseOffSwitch<"noBorrowOutputs", "no-borrow-outputs",
    "Keep every intermediate in the heap even where the target lets the "
    "plan use outputs' storage before their values are written">;

def NoFusion : ReuseOffSwitch<"noFusion", "no-fusion",
    "Plan every op's result as a buffer even where the target's rules fuse "
    "ops into one kernel (kernels the input marks are still honoured)">;
def NoWorkspace : ReuseOffSwitch<"noWorkspace", "no-workspace",
    "Plan no kernel workspace even where the target's rules say its kernels "
    "need scratch (for runtimes whose kernels bring their own)">;
def NoRecompute : ReuseOffSwitch<"noRecompute", "no-recompute",
    "Keep every value the graph computes once, even where the target lets "
    "cheap chains (masks, iotas, fills) be computed again by each reader">;
// One planning option.
//   group:   where the field lives in coreai::FunctionPlanOptions:
//            "liveness" (LivenessOptions), "solve" (SolveOptions) or ""
//            (FunctionPlanOptions itself);
//   name:    the C++ field and pass option member;
//   flag:    the pass option's argument, and the flag of `buffers`;
//   values:  extra llvm::cl modifiers (an enum's values);
//   target:  the value a target gives it (`plan`, `fit`), a C++ expression
//            over `target` (a const coreai::Target &); empty: the user's
//            choice everywhere, the same flag in every command;
//   off:     the flag of `plan` and `fit` that turns the target's value
//            off (a bool option only).
class PlanningOption<string group, string name, string flag, string type,
                     string default, string help, string values = "",
                     string target = "", ReuseOffSwitch off = NoOffSwitch> {
  string cppGroup = group;
  string cppName = name;
  string argument = flag;
  string cppType = type;
  string defaultValue = default;
  string description = help;
  string additionalOptFlags = values;
  string targetDefault = target;
  ReuseOffSwitch offSwitch = off;
}

// In this order in the pass reference and `buffers --help`; the switches
// of coreai::ReuseSwitches in the order of their first use.
defvar CoreAIPlanningOptionList = [
  PlanningOption<"solve", "algorithm", "algorithm", "::coreai::Algorithm",
      "::coreai::Algorithm::Best", "Packing algorithm (docs/SOLVERS.md)",
      values = "::coreai::algorithmValues()">,
  PlanningOption<"liveness", "alignment", "alignment", "int64_t",
      "::coreai::defaultAlignment",
      "Offset alignment of every buffer in bytes (power of two)",
      target = "target.alignment">,
  PlanningOption<"liveness", "inPlace", "in-place", "bool", "false",
      "Let elementwise ops write into an operand that dies there",
      target = "target.runsInPlace(\"elementwise\")", off = NoInPlace>,
  PlanningOption<"liveness", "outputsInHeap", "outputs-in-heap", "bool",
      "false", "Plan returned values in the heap too (live to the return)",
      target = "!target.outputsBoundBeforeCall">,
  PlanningOption<"liveness", "inPlaceSoftmax", "in-place-softmax", "bool",
      "false",
      "Let softmax write into its input when it dies there (the target's "
      "kernels finish reading a row before writing it)",
      target = "target.runsInPlace(\"softmax\")", off = NoInPlace>,
  PlanningOption<"liveness", "outputPlacement", "output-placement", "bool",
      "false",
      "With in-place: an in-place chain ending in a returned value lives in "
      "that output's storage",
      target = "target.outputsBoundBeforeCall", off = NoOutputPlacement>,
  PlanningOption<"liveness", "statePlacement", "state-placement", "bool",
      "false",
      "A state update returned as its state's state_update writes into the "
      "state argument's storage when the old value dies there",
      target = "target.stateBoundBeforeCall", off = NoStatePlacement>,
  PlanningOption<"", "reorder", "reorder", "bool", "false",
      "Reorder ops (keeping data and effect order) when that lowers the heap",
      target = "true", off = NoReorder>,
  PlanningOption<"liveness", "borrowOutputs", "borrow-outputs", "bool",
      "false",
      "Buffers that die before an output's own value is written may live in "
      "that output's storage (coreai.borrow)",
      target = "target.outputsBoundBeforeCall && target.outputsBorrowable",
      off = NoBorrowOutputs>,
  PlanningOption<"liveness", "fuseElementwise", "fuse-elementwise", "bool",
      "false",
      "Fuse chains of elementwise ops whose inner values have no other "
      "reader into one kernel (docs/FUSION.md)",
      target = "target.fuses(\"elementwise\")", off = NoFusion>,
  PlanningOption<"liveness", "fuseReductions", "fuse-reductions", "bool",
      "false",
      "Fuse a reduction or norm with its elementwise prologue and epilogue",
      target = "target.fuses(\"reduction\")", off = NoFusion>,
  PlanningOption<"liveness", "fuseCasts", "fuse-casts", "bool", "false",
      "Fuse a dtype cast or layout copy into the op that reads it",
      target = "target.fuses(\"cast\")", off = NoFusion>,
  PlanningOption<"liveness", "fuseAttention", "fuse-attention", "bool",
      "false",
      "Fuse the attention math (q k^T, scale and mask, softmax, times v) "
      "into one kernel",
      target = "target.fuses(\"attention\")", off = NoFusion>,
  PlanningOption<"liveness", "kernelsInIrOrder", "kernels-in-ir-order",
      "bool", "false",
      "The runtime runs a fused kernel's ops in IR order: a kernel's result "
      "may take an operand's bytes once the ops before it have read it (else "
      "only once every op reading it is one the result depends on)",
      target = "target.kernelsRunInIrOrder">,
  PlanningOption<"liveness", "workspace", "workspace", "bool", "false",
      "Plan the scratch each kernel needs (the target's workspace rules, "
      "docs/WORKSPACE.md) as a buffer live while it runs",
      target = "!target.workspace.empty()", off = NoWorkspace>,
  PlanningOption<"", "recompute", "recompute", "bool", "false",
      "Compute a cheap chain (a mask, an iota, a fill; the target's "
      "recompute rules) again in front of each reader instead of keeping "
      "its value across the function, where that lowers the heap",
      target = "target.recompute.enabled()", off = NoRecompute>,
  PlanningOption<"solve", "heapBudget", "heap-budget", "int64_t", "0",
      "Meet this heap (bytes) with the least extra work: the target's kernel "
      "variants with the most workspace that fits (docs/WORKSPACE.md), or "
      "fail naming the peak (0: the smallest heap, and the cheapest kernels "
      "wherever they cost no heap)">,
  PlanningOption<"", "maxHeap", "max-heap", "int64_t", "0",
      "Fail when a function's heap exceeds N bytes (0: no limit)",
      target = "target.heapLimit">,
  PlanningOption<"", "maxBuffer", "max-buffer", "int64_t", "0",
      "Fail when one buffer (a value or a workspace) exceeds N bytes (0: no "
      "limit)",
      target = "target.maxBufferBytes">,
  PlanningOption<"solve", "timeLimitMs", "time-limit-ms", "int64_t",
      "::coreai::defaultTimeLimitMs",
      "Cap on the search per function (ms); it stops earlier once the heap "
      "is proven minimal">,
];

// The list as a record, for the generator's `--dump-json`.
def CoreAIPlanningOptions {
  list<PlanningOption> options = CoreAIPlanningOptionList;
}

// The pass options of `planning` options.
class PlanningPassOptions<list<PlanningOption> planning> {
  list<Option> options = !foreach(o, planning,
      Option<o.cppName, o.argument, o.cppType, o.defaultValue, o.description,
             o.additionalOptFlags>);
}

#endif // COREAI_PLAN_PLANNINGOPTIONS

//===- Passes.td - coreai-plan passes ----------------------*- tablegen -*-===//
#ifndef COREAI_PLAN_PASSES
#define COREAI_PLAN_PASSES

include "mlir/Pass/PassBase.td"
include "coreai-plan/Passes/PlanningOptions.td"

def CoreAIPlanBuffers : Pass<"coreai-plan-buffers", "mlir::ModuleOp"> {
  let summary = "Plan every function's intermediate tensors into one heap";
  let description = [{
    Computes the live range of every intermediate (see docs/LIVENESS.md),
    packs them with the core solvers, verifies the plan, and annotates the
    IR in the `coreai` dialect: each planned op with `coreai.placement`
    (where each result lives: `#coreai.heap`, `#coreai.lent`,
    `#coreai.output`, `#coreai.state` or `#coreai.none`) and each function
    with its `#coreai.plan` summary.
    Every function with a body is planned, private ones too, as
    `coreai-plan buffers` does.
  }];
  // Declared once, in PlanningOptions.td; the target gives the rules the
  // `workspace` and `recompute` switches apply.
  let options = !listconcat(
      PlanningPassOptions<CoreAIPlanningOptionList>.options,
      [Option<"target", "target", "std::string", /*default=*/"\"\"",
              "The target whose workspace rules (with workspace) and "
              "recompute rules (with recompute) the plan applies: a name of "
              "targets/, or a target file's path ending in .json">]);
}

def CoreAIVerifyReplay : Pass<"coreai-verify-replay", "mlir::ModuleOp"> {
  let summary = "Replay every planned function on a shadow heap";
  let description = [{
    Reads each planned function's plan back from its annotations
    (`#coreai.plan`, each result's `coreai.placement`) and
    runs its ops in order against a shadow of the heap, the arguments and
    the outputs that records which value last wrote each byte. Fails at the
    function naming the op, the value and the bytes when an op reads a value
    another has overwritten, reads bytes nothing wrote, or writes outside
    its storage or into a weight or input. Sizes come from the types, not
    the placements' `size`; offsets must be aligned (to `alignment` too, the
    target's); every intermediate needs exactly one place (heap offset,
    output or state) unless it is returned; the value in an output's or a
    state's storage must be the one returned there. With
    `original=FILE`, each planned function (matched by its `coreai.entry`,
    else its name) must also compute the dataflow of the same function in
    FILE, with effects in the same order (docs/LIVENESS.md). With
    `target=NAME`, every step's `coreai.workspace` must hold what the
    target's workspace rules give its ops, and a fused kernel's result may
    lie on an operand only as the target's kernel op order allows. Which
    results may lie on an operand comes from the replay's own short list
    of ops (docs/LIVENESS.md, "The replay's own list"), never from the
    planner's op facts. Functions without `coreai.plan` are skipped; a
    module with none is an error.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", "0",
           "The target's alignment (0: the plan's own)">,
    Option<"original", "original", "std::string", "\"\"",
           "The graph before planning: check the planned functions compute "
           "the same dataflow">,
    Option<"target", "target", "std::string", "\"\"",
           "The target the plan is for (a name of targets/, or a target file's "
           "path ending in .json): its alignment "
           "(unless given), its kernels' op order, and its workspace rules, "
           "which every step's workspace must meet">,
  ];
}

def CoreAIReorder : Pass<"coreai-reorder", "mlir::func::FuncOp"> {
  let summary = "Reorder ops (topologically) to lower the peak of live bytes";
  let description = [{
    Moves the function's ops into the memory-aware order of
    coreai::memoryAwareOrder (data dependencies, uses in regions and the
    order of ops with side effects kept) when that lowers the lower bound
    of its buffer problem; otherwise leaves it. For pipelines that bufferize
    and plan afterwards (coreai-plan-pipeline); `coreai-plan-buffers
    reorder=true` instead compares planned heaps. Emits a remark with both
    bounds when it reorders.
  }];
  // The liveness choices that change the bound (PlanningOptions.td).
  let options = PlanningPassOptions<!filter(o, CoreAIPlanningOptionList,
      !or(!eq(o.cppName, "alignment"), !eq(o.cppName, "inPlace")))>.options;
}

def CoreAIFuseKernels : Pass<"coreai-fuse-kernels", "mlir::func::FuncOp"> {
  let summary = "Group ops into the fused kernels the target's runtime runs";
  let description = [{
    Marks the ops the fusion rules group into one kernel with
    `coreai.kernel = N` and moves each kernel's ops next to its last op
    (data and effect order kept), as coreai-plan-buffers does before
    liveness: a value read only inside its kernel then needs no memory.
    A function whose input already marks kernels keeps them (they are
    checked, the rules not applied). Emits a remark with the count and
    where the kernels came from. Rules and soundness: docs/FUSION.md.
  }];
  let options = PlanningPassOptions<!filter(o, CoreAIPlanningOptionList,
      !eq(!substr(o.cppName, 0, 4), "fuse"))>.options;
}

def CoreAIRewriteToArena : Pass<"coreai-rewrite-to-arena", "mlir::ModuleOp"> {
  let summary = "Place planned memref.alloc buffers in one arena (memref.view)";
  let description = [{
    On bufferized IR, plans each function's top-level `memref.alloc`s (live
    ranges from computeBuffers, offsets from the core solvers, verified) and
    replaces each by a `memref.view` of one byte arena at its offset,
    dropping its deallocations. The arena is an aligned `memref.alloc` at
    function entry or a trailing `memref<HEAPxi8>` argument. Allocations
    that cannot be planned stay and are reported. See docs/ARENA.md.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect"];
  let options = [
    Option<"arena", "arena", "std::string", "\"alloc\"",
           "alloc: one memref.alloc per function | argument: a trailing "
           "memref<HEAPxi8> argument the caller provides">,
    Option<"algorithm", "algorithm", "::coreai::Algorithm",
           "::coreai::Algorithm::Best", "Packing algorithm (docs/SOLVERS.md)",
           "::coreai::algorithmValues()">,
    Option<"alignment", "alignment", "int64_t", "::coreai::defaultAlignment",
           "Offset alignment of every buffer in bytes (power of two)">,
    Option<"timeLimitMs", "time-limit-ms", "int64_t", "1000",
           "Budget of the exact search per function">,
    ListOption<"functions", "functions", "std::string",
               "Rewrite only these functions (default: every definition)">,
    Option<"inPlace", "in-place", "bool", "false",
           "A linalg op writing a fresh allocation elementwise from an "
           "input that dies there writes into the input's bytes">,
    Option<"poison", "poison", "bool", "false",
           "Fill the arena with 0xFF bytes (f32 NaN) on entry, so a read of "
           "a buffer nothing wrote shows up">,
    Option<"testCorruptPlan", "test-corrupt-plan", "bool", "false",
           "Testing only: give two simultaneously live buffers the same "
           "offset (the e2e negative control)">,
  ];
}

def CoreAISpecializeShapes
    : Pass<"coreai-specialize-shapes", "mlir::func::FuncOp"> {
  let summary = "Bind symbolic dims (`?`) to integers from coreai.sym_shapes";
  let description = [{
    Sets every dynamic type of the function static: each op result from
    its `coreai.sym_shapes` expression, each argument and result from
    `coreai.sym_shape`, evaluated with the given bindings (integer
    polynomials: + - * // and parentheses). An unbound symbol is an error
    at the op; a value outside the module's `coreai.sym_ranges` is an error.
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
  let options = [
    ListOption<"bind", "bind", "std::string",
               "Symbol bindings SYMBOL=INTEGER (e.g. s58=16)">,
  ];
}

def CoreAIFunctionalize : Pass<"coreai-functionalize", "mlir::func::FuncOp"> {
  let summary = "Rewrite in-place ATen ops into their functional twins";
  let description = [{
    Every in-place ATen op of the body (`add_`, `mul_`, `copy_`,
    `index_put_`, `index_copy_`, ...: the ops the ATen op facts give a
    functional twin) becomes its twin, whose result is the new value of its
    `self`. A write through a view (`coreai.alias_of`) is written back into
    the view's source up to its root: `slice` by `slice_scatter`, `select`
    by `select_scatter`, reshapes by a `view` to the source's shape,
    `permute` and `transpose` by the inverse permutation; any other view is
    an error at the writer. A view read after its storage was written is
    made again from the new value, so a reader placed before a write keeps
    the old value and one after it sees the new one. A written
    `coreai.kind = "state"` argument's final value is returned as its
    `state_update` (before the other results, in the arguments' order);
    writing any other argument is an error at the first writer. A function
    without in-place ops is left untouched. `readModel` runs it on every
    function it reads; the `.pt2` importer builds the program as written
    and runs it (docs/IMPORT.md).
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

#endif // COREAI_PLAN_PASSES

//===- CoreAI.td - The coreai dialect: the planned IR's contract ---------===//
//
// Attributes only. Every stage that learns from a planned graph where a
// value lives (the replay, the dataflow check, the executor, explain, the
// pictures) reads these, and the dialect verifies them when a file is
// parsed, before any pass runs.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_DIALECT_TD
#define COREAI_DIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"

def CoreAI_Dialect : Dialect {
  let name = "coreai";
  let cppNamespace = "::coreai";
  let summary = "Placements and plan summaries of coreai-plan";
  let description = [{
    The planner writes one placement per result of every op it planned
    (`coreai.placement`, an array with one entry per result) and one plan
    summary per function (`coreai.plan`). An op whose kernel needs scratch
    of its own (the target's workspace rules, docs/WORKSPACE.md) carries
    `coreai.workspace`, a `#coreai.heap` or `#coreai.lent` placement of
    bytes live only while that op (or the fused kernel it ends) runs. A fused kernel is the run of
    top-level ops carrying the same `coreai.kernel = N : i64` (written by a
    compiler upstream, or by coreai-fuse-kernels from the target's rules). The exporter's conventions
    (`coreai.args`, `coreai.kind`, `coreai.sym_shape(s)`,
    `coreai.sym_ranges`, ...) are the input format; the dialect checks their
    form when a file is parsed, and `docs/LIVENESS.md` documents each.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

class CoreAI_Attr<string name, string attrMnemonic>
    : AttrDef<CoreAI_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def CoreAI_HeapAttr : CoreAI_Attr<"Heap", "heap"> {
  let summary = "the result's bytes at an offset of the heap";
  let description = [{
    `#coreai.heap<offset = 1024, size = 4096>`: the result occupies
    `[offset, offset + size)` of the function's scratch heap. With
    `in_place = K` the result was written over operand K's bytes (the same
    offset): the replay does not trust it, it reads which operand an op may
    overwrite from the op's class.
  }];
  let parameters = (ins "int64_t":$offset, "int64_t":$size,
                        OptionalParameter<"std::optional<int64_t>">:$in_place);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def CoreAI_LentAttr : CoreAI_Attr<"Lent", "lent"> {
  let summary = "scratch in an output's storage before its value is written";
  let description = [{
    `#coreai.lent<output = 0, offset = 1024, size = 4096>`: the result lives
    at `offset` inside the storage of function result `output`, which the
    runtime binds before the call; its live range ends before that output's
    value is first written. `in_place = K` as for `#coreai.heap`.
  }];
  let parameters = (ins "int64_t":$output, "int64_t":$offset, "int64_t":$size,
                        OptionalParameter<"std::optional<int64_t>">:$in_place);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def CoreAI_OutputAttr : CoreAI_Attr<"Output", "output"> {
  let summary = "the result is built in an output's storage";
  let description = [{
    `#coreai.output<0>`: the result's bytes are function result 0's storage
    from its start (a returned value, or a link of the chain that builds it
    in place).
  }];
  let parameters = (ins "int64_t":$position);
  let assemblyFormat = "`<` $position `>`";
  let genVerifyDecl = 1;
}

def CoreAI_StateAttr : CoreAI_Attr<"State", "state"> {
  let summary = "the result is written into a state argument's storage";
  let description = [{
    `#coreai.state<arg = 3>`: the result (a state update, such as a KV-cache
    write) is written into the storage of function argument 3, whose
    `coreai.kind` is "state".
  }];
  let parameters = (ins "int64_t":$arg);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def CoreAI_UnplacedAttr : CoreAI_Attr<"Unplaced", "none"> {
  let summary = "the result owns no planned bytes";
  let description = [{
    `#coreai.none`: a view of another value, a zero-element tensor, or a
    value the plan leaves to the runtime (a returned value's own storage).
  }];
}

def CoreAI_FusedAttr : CoreAI_Attr<"Fused", "fused"> {
  let summary = "the result never leaves its kernel: no planned bytes";
  let description = [{
    `#coreai.fused<kernel = 3>`: the result is an internal value of kernel 3
    (the top-level ops carrying `coreai.kernel = 3`): every reader is an op
    of that kernel and it is not returned, so the runtime keeps it in the
    fused kernel's registers or tiles and the plan gives it no bytes.
  }];
  let parameters = (ins "int64_t":$kernel);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def CoreAI_PlanAttr : CoreAI_Attr<"Plan", "plan"> {
  let summary = "a function's plan summary";
  let description = [{
    `#coreai.plan<heap = 3072, lower_bound = 3072, alignment = 64,
    buffers = 12, algorithm = "best", optimal = true>`, with
    `in_place_saved` (bytes the in-place rules saved), `borrowed_bytes`
    (bytes of scratch lent by outputs) and `reordered` (whether the op order
    was changed) where those techniques were on; `kernels` (fused kernels
    of two or more ops) and `fused_bytes` (bytes of the values that stay
    inside them) where the function has kernels; `workspace_bytes` (the
    bytes of every kernel's workspace, docs/WORKSPACE.md) where it has any;
    `kernels_in_ir_order = true` where the plan relies on the runtime
    running each kernel's ops in IR order (a target's `"kernel_op_order":
    "ir"`, docs/FUSION.md): the replay then checks it so.
  }];
  let parameters = (ins "int64_t":$heap, "int64_t":$lower_bound,
                        "int64_t":$alignment, "int64_t":$buffers,
                        StringRefParameter<>:$algorithm,
                        "mlir::BoolAttr":$optimal,
                        OptionalParameter<"std::optional<int64_t>">:$in_place_saved,
                        OptionalParameter<"std::optional<int64_t>">:$borrowed_bytes,
                        OptionalParameter<"mlir::BoolAttr">:$reordered,
                        OptionalParameter<"std::optional<int64_t>">:$kernels,
                        OptionalParameter<"std::optional<int64_t>">:$fused_bytes,
                        OptionalParameter<"std::optional<int64_t>">:$workspace_bytes,
                        OptionalParameter<"mlir::BoolAttr">:$kernels_in_ir_order);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // COREAI_DIALECT_TD

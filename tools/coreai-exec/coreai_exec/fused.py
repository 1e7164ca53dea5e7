"""The fused mode (`--fused`): a planned function run with each kernel group
compiled as one function by a real fusing compiler, on the planned storages.

The storages are the op-by-op run's (engine.py): the heap is one poisoned
allocation, each output's and state's storage is allocated once, every value
with planned bytes is a view at its planned offset. Each step (groups.py) is
then either
- a **compiled group** (a kernel of two or more computing ops): its ops as one
  fx graph, compiled by `torch.compile` (Inductor, fullgraph, static shapes)
  once per canonical key, called on the views of its operands; each result it
  returns is written into its planned slot by a `copy_` that the run counts
  (`compiled_copies`, `compiled_copy_bytes`), checked as the op-by-op run
  checks a slot (size, in place exactly over its operand, not partly over an
  operand of the kernel); its `#coreai.fused` values live wherever the
  compiled code keeps them, and a read of one outside the kernel fails;
  views the group returns are made again on the planned storage; or
- an **op of its own** (or a kernel of one computing op and its views): the
  op-by-op executor's kernel call into its slot, bit for bit as there.

A step's workspace (`coreai.workspace`) is filled with random bytes before
the step and must be unchanged after it (the real kernels bring their own
scratch: a planned workspace that changed means a result was written over
it), then scribbled on again so a value live across the step that shares
those bytes is changed. On CUDA every step's call is measured with the
allocator's history (allocations.py); elsewhere the measurement is None.

The same class with planned=False is the run a planned fused run is
compared with bit for bit: the same steps and compiled kernels on the same
inputs, every value in memory of its own. Only the storage differs, so any
difference is the plan's; the drift of the compiled arithmetic from the
eager ops is measured apart (per group, and on the results).
"""

import re
import time

import torch

from . import allocations, aten, compare, engine, groups
from .engine import InputError, PlanError


class Compiled:
    """One compiled group function and what its compilation said: the
    kernels Inductor generated for it, and the library calls (`extern_kernels.mm`,
    `torch.ops.aten._scaled_dot_product_flash_attention`, ...) in its output code."""

    def __init__(self, function, seconds, generated_kernels, library_calls):
        self.function, self.seconds, self.generated_kernels = function, seconds, generated_kernels
        self.library_calls = library_calls
        self.uses = 0


# A library call in Inductor's output code: what runs outside its generated kernels.
LIBRARY_CALL = re.compile(r"\b(extern_kernels\.\w+|torch\.ops\.aten\.\w+(?:\.\w+)?)\(")


def library_calls(codes):
    """{name: count} of the library calls in the output code of one compilation."""
    found = {}
    for code in codes:
        for name in LIBRARY_CALL.findall(code):
            found[name] = found.get(name, 0) + 1
    return found


class GroupCompiler:
    """torch.compile per canonical group key (groups.GroupGraph.key): groups
    repeated layer after layer compile once. Inductor's own on-disk cache
    (TORCHINDUCTOR_CACHE_DIR) makes a second process's compilations cheap."""

    def __init__(self):
        if not hasattr(torch, "compile"):
            raise InputError("--fused needs torch.compile (torch >= 2.0); this is torch %s" % torch.__version__)
        self.cache = {}

    def get(self, graph, tensors):
        """(the compiled function, whether this call compiled it)."""
        key = graph.key(tensors)
        compiled = self.cache.get(key)
        if compiled is not None:
            compiled.uses += 1
            return compiled, False
        from torch._inductor import metrics
        function = torch.compile(graph.module, backend="inductor", fullgraph=True, dynamic=False)
        from torch._inductor.utils import run_and_get_code
        before = metrics.generated_kernel_count
        started = time.time()
        _, codes = run_and_get_code(function, *tensors)  # compiles; the graph is functional: inputs only read
        compiled = Compiled(function, time.time() - started, metrics.generated_kernel_count - before,
                            library_calls(codes))
        compiled.uses = 1
        self.cache[key] = compiled
        return compiled, True

    def summary(self):
        return {"distinct_groups": len(self.cache),
                "compile_seconds": round(sum(c.seconds for c in self.cache.values()), 3)}


class FusedExecution(engine.Execution):
    """A planned run with each kernel group compiled (the module's docstring)."""

    def __init__(self, function, symbols, inputs, device, compiler, vocab=None, planned=True):
        super().__init__(function, symbols, inputs, device, planned=planned, vocab=vocab)
        self.compiler = compiler
        self.allocator = allocations.AllocatorHistory(self.device)
        # planned=False is the reference of a planned fused run: the same
        # steps and compiled kernels, every value in memory of its own
        # (nothing measured or checked against the eager ops: the planned
        # run does that).
        self.allocator.available = self.allocator.available and planned
        self.group_differences = []
        self.step_records = []  # one per step: ops, compiled or not, model workspace, measured bytes
        self.stats.compiled_groups = self.stats.compiled_ops = 0
        self.stats.compiled_copies = self.stats.compiled_copy_bytes = 0

    def run(self, heap_size=None):
        self.heap = self.region("the arena", heap_size)
        if self.planned:  # bound before the call, as a runtime binds them: no step's measurement counts them
            for position in range(len(self.function.result_types)):
                self.output_region(position)
        env = {}
        self.arguments(env)
        return self.call_steps(env)

    # Errors that already name their step: passed on as they are.
    PASSTHROUGH = (PlanError, InputError, aten.UnsupportedOp)

    def call_steps(self, env):
        """Every step of the function on the bound values `env`; the hooks
        below are where a runtime built on this mode adds to a step."""
        last_use = self.step_last_uses()
        arguments = {argument.name for argument in self.function.arguments}
        workspaces = self.workspace_steps() if self.planned else {}
        for step in groups.steps_of(self.function):
            where = step.ops[-1]
            planned_workspace = sum(p.size for _, p in workspaces.get(("first", step.first), ()))
            self.begin_step(step, planned_workspace)
            try:
                self.begin_kernel(step.kernel, step.first, env)
                poisoned = self.poison_workspaces(workspaces.get(("first", step.first), ()))
                record = self.run_group(step, env) if step.compiled else self.run_ops(step, env)
                self.check_untouched(poisoned, step)
                self.scribble(workspaces.get(("last", step.last), ()))
                self.end_kernel()
            except self.PASSTHROUGH:
                raise
            except Exception as e:  # a kernel (or the compiler) refused its inputs
                raise PlanError("%s (%s) at %s failed%s: %s: %s"
                                % (", ".join(where.results) or "op", where.name, where.position,
                                   self.kernel_phrase(step),
                                   type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else ""))
            record["model_workspace"] = planned_workspace
            self.annotate_record(record, step)
            self.step_records.append(record)
            for op in step.ops:
                for name in op.operands:
                    if last_use.get(name) <= step.last and name in env and name not in arguments:
                        del env[name]
        return self.finish(env)

    # -- hooks of call_steps ----------------------------------------------
    def step_last_uses(self):
        """The step after which each value may be unbound."""
        return self.last_uses()

    def begin_step(self, step, planned_workspace):
        """Called before each step runs."""

    def annotate_record(self, record, step):
        """Adds to a step's record before it is kept."""

    def kernel_phrase(self, step):
        """Where a failing step ran, for its message."""
        return " in the compiled kernel %s" % step.kernel if step.compiled else ""

    # -- the two kinds of step --------------------------------------------
    def run_ops(self, step, env):
        """An op of its own, or a kernel of one computing op: the op-by-op call."""
        measured = []
        for op in step.ops:
            self.check_fused_reads(op, op.operands)
            if groups.is_view(op) or not op.results:  # allocates nothing: not worth a snapshot of the allocator
                self.step(op, env)
                continue
            _, allocated = self.allocator.measure(lambda: self.step(op, env))
            measured.append(allocated)
        return {"first": step.first, "ops": len(step.ops), "kernel": step.kernel, "compiled": False,
                "op": step.ops[-1].name, "line": step.ops[-1].line, "measured": merge(measured)}

    def run_group(self, step, env):
        graph = groups.GroupGraph(step, self.symbols, self.device)
        for op in step.ops:
            self.check_fused_reads(op, op.operands)
        tensors = [env[name] for name in graph.inputs]
        for op in step.ops:  # indices from outside checked as the op-by-op run checks them
            if op.results and all(name in env for name in op.operands):
                aten.check_indices(op.name[len("torch.aten."):],
                                   self.call_arguments(op, [env[name] for name in op.operands])[0])
        try:
            compiled, compiled_now = self.compiler.get(graph, tensors)
        except Exception as e:  # the compiler's failure, not the plan's
            raise InputError("torch.compile could not compile kernel %s (%d ops, ending at %s): %s: %s"
                             % (step.kernel, len(step.ops), step.ops[-1].position, type(e).__name__,
                                str(e).strip().splitlines()[0] if str(e).strip() else ""))
        results, measured = self.allocator.measure(lambda: compiled.function(*tensors))
        group_difference = self.check_numerics(step, graph, tensors, results)
        produced = {(id(op), j): value for (op, j), value in zip(graph.outputs, results)}
        for op in step.ops:
            self.stats.ops += 1
            if groups.is_view(op):
                self.make_view(op, env)
                continue
            types = self.result_types(op)
            for j, name in enumerate(op.results):
                if op.placement(j).kind == "fused":  # kept inside: the compiled code holds it
                    self.fused[name] = (op.placement(j).kernel, op, None)
                    self.stats.fused += 1
                    self.stats.fused_bytes += engine.bytes_of(*types[j])
                    continue
                env[name] = self.write_result(op, j, produced[(id(op), j)], types[j], env)
        self.stats.compiled_groups += 1
        self.stats.compiled_ops += len(step.computing_ops)
        return {"first": step.first, "ops": len(step.ops), "kernel": step.kernel, "compiled": True,
                "op": step.ops[-1].name, "line": step.ops[-1].line, "computing_ops": len(step.computing_ops),
                "inputs": len(graph.inputs), "results": len(graph.outputs), "compiled_now": compiled_now,
                "compile_seconds": round(compiled.seconds, 3) if compiled_now else 0.0,
                "generated_kernels": compiled.generated_kernels, "library_calls": compiled.library_calls,
                "fused_values": sum(op.placement(j).kind == "fused" for op in step.ops for j in range(len(op.results))
                                    if not groups.is_view(op)),
                "group_difference": group_difference, "measured": measured}

    def check_numerics(self, step, graph, tensors, results):
        """The compiled group against its ops run one by one on the same
        operands (the fx module uncompiled): within the dtype's group
        tolerance, else the compiler, not the plan, changed the values."""
        if not self.planned:
            return None
        eager = graph.module(*tensors)
        worst = 0.0
        for (op, j), got, want in zip(graph.outputs, results, eager):
            found = compare.scaled_difference(got, want)
            worst = max(worst, found)
            if found > compare.tolerance(want.dtype, "group"):
                error = PlanError("the compiled kernel %s (%d ops, ending at %s) differs from its ops run one by one "
                                  "on the same operands: %s (%s, %s) by %.3g of its largest magnitude, above the "
                                  "tolerance %g" % (step.kernel, len(step.ops), step.ops[-1].position, op.results[j],
                                                    op.name, op.position, found,
                                                    compare.tolerance(want.dtype, "group")))
                error.numerics = True  # a mismatch of the compiler's arithmetic, not of the plan
                raise error
        self.group_differences.append(worst)
        return worst

    def write_result(self, op, j, value, typed, env):
        """The compiled group's result j of `op` copied into its planned slot."""
        dtype, shape = typed
        aten.check_result("the compiled kernel %s" % op.kernel, value, dtype, shape)
        slot = self.slot_for(op, j, dtype, shape)
        if not self.planned:  # memory of its own: nothing to check
            slot.copy_(value)
            return slot
        operand = op.placement(j).in_place
        if operand is not None:
            over = env.get(op.operands[operand]) if operand < len(op.operands) else None
            if over is None or over.data_ptr() != slot.data_ptr():
                raise PlanError("%s (%s, %s): its placement says it is written over operand %d (in_place), "
                                "which lives elsewhere" % (op.results[j], op.name, op.position, operand))
            self.stats.in_place += 1
        self.check_kernel_overlap(op, j, slot)
        overlapping = value.numel() and slot.numel() and engine.storage_pointer(value) == engine.storage_pointer(slot)
        slot.copy_(value.clone() if overlapping else value)  # a result may be a view of its own operand
        self.stats.compiled_copies += 1
        self.stats.compiled_copy_bytes += engine.bytes_of(dtype, shape)
        return slot

    def make_view(self, op, env):
        """A view in a compiled group, made again on the planned storage where
        its operand has bytes; a view of a value kept inside stays inside."""
        alias = op.attrs["coreai.alias_of"]
        source = next(op.operands[a] for a in alias if a >= 0)
        if source in self.fused:
            for j in range(len(op.results)):
                self.track_view(op, j, source)
            return
        self.stats.ops -= 1  # step() counts it again
        self.step(op, env)

    # -- workspace ----------------------------------------------------------
    def poison_workspaces(self, workspaces):
        """Random bytes over each workspace before its step; returns them to check after it."""
        self.scribble(workspaces)
        poisoned = []
        for op, placement in workspaces:
            region = self.heap if placement.kind != "lent" else self.output_region(placement.output)
            start = region.guard + placement.offset
            poisoned.append((op, placement, region, region.bytes[start:start + placement.size].clone()))
        return poisoned

    def check_untouched(self, poisoned, step):
        """The real kernels bring their own scratch: the planned workspace is
        unchanged by the step, or a result was written over it."""
        for op, placement, region, before in poisoned:
            start = region.guard + placement.offset
            if not torch.equal(region.bytes[start:start + placement.size], before):
                raise PlanError("the workspace of %s (%s; bytes [%d, %d) of %s) changed during its step: a result of "
                                "the step was written over it" % (op.name, op.position, placement.offset,
                                                                  placement.offset + placement.size, region.name))


def merge(measured):
    """The measurements of a step's ops together (None off CUDA, or where
    the step has only views and checks)."""
    if not measured or any(m is None for m in measured):
        return None
    total = {key: sum(m[key] for m in measured) for key in measured[0]}
    total["extra_peak"] = max(m["extra_peak"] for m in measured)
    return total


"""The CUDA runtime bound to the plan (`--runtime cuda`, docs/EXECUTOR.md,
"The CUDA runtime"): the planned function run as a runtime runs it, each
kernel group as the kernel a plan for `cuda` assumes, with every byte a
call allocates accounted for (strict.py).

- **Set-up, once, declared**: the arena (one allocation of the plan's
  heap), each output's and state's storage, the weights; then a warm-up
  call, after which what the allocator still holds beyond those (cuBLAS's
  persistent workspace, a library's caches) is declared too, as are the
  compiled groups. The measured call follows, the states reset to their
  initial contents and the arena poisoned again in between.
- **Attention groups** (attention.py) run as ONE
  `scaled_dot_product_attention` on the group's own operands, with its mask
  and scale, checked against the group's ops run one by one (the fused
  mode's group tolerance). SDPA has no `out=`: its result is copied into
  the planned slot, the temporary counted.
- **KV-cache writes** planned into their state (`index_put`, `index_copy`
  whose result is placed exactly over the cache it writes) run in place on
  the state's storage (`index_put_`, `index_copy_`), as the issue's
  measurement shows a runtime must: the functional kernel copies the cache.
- **Other groups** are compiled by Inductor as in the fused mode (fused.py);
  single ops write their slot through `out=` where ATen has it.
- **Result dtypes**: an op with `coreai.result_dtypes` (the target's kernel
  writes another dtype than the graph's, e.g. float32 normalisation
  statistics on CUDA) gets its slots in the kernel's dtype; where the
  kernel here returns the graph's dtype (a CPU), the value is cast into the
  slot and counted (`cast_into_slot`).

The same class with planned=False is the private-storage reference: the
same kernels (SDPA, the compiled groups), every value in memory of its own,
one call, nothing measured.
"""

import torch

from . import aten, attention, compare, engine, fused, groups, strict
from .engine import InputError, PlanError

KV_WRITES = {"index_put": "index_put_", "index_copy": "index_copy_"}


class StepAllocations:
    """What FusedExecution's steps call `self.allocator.measure` on: routes
    each kernel call through the accounting, with the step it belongs to."""

    available = False  # the fused mode's own record: the accounting keeps the figures

    def __init__(self, execution):
        self.execution = execution

    def measure(self, call):
        execution = self.execution
        where, kind, workspace = execution.current
        execution.copied_now = 0

        def copied(returned):
            values = returned if isinstance(returned, (tuple, list)) else ([returned] if returned is not None else [])
            made = sum(t.numel() * t.element_size() for t in values if isinstance(t, torch.Tensor))
            return execution.copied_now + made

        return execution.accounting.run(call, where, kind, workspace, copied), None


class BoundExecution(fused.FusedExecution):
    """One planned function on the CUDA runtime (the module's docstring)."""

    def __init__(self, function, symbols, inputs, device, compiler, vocab=None, planned=True, accounting=None,
                 calls=2, backend=None):
        super().__init__(function, symbols, inputs, device, compiler, vocab=vocab, planned=planned)
        self.accounting = accounting or strict.Accounting(strict.NoAllocations())
        self.calls = max(1, calls) if planned else 1
        self.backend = backend
        self.allocator = StepAllocations(self)
        self.current = ("", "", 0)
        self.copied_now = 0
        self.matches = {}  # step.first -> AttentionCall or None
        self.attention_differences = []
        for counter in ("attention_groups", "kv_in_place", "cast_into_slot"):
            setattr(self.stats, counter, 0)

    # -- set-up and calls ----------------------------------------------------
    def run(self, heap_size=None):
        self.heap = self.region("the arena", heap_size)
        if self.planned:
            for position in range(len(self.function.result_types)):
                self.output_region(position)
        bound = {}
        self.arguments(bound)  # weights loaded once, states bound in their storages
        initial = {i: region.bytes.clone() for i, region in self.states.items()}
        if self.planned:
            self.declare_setup(bound, heap_size)
        before_warmup = self.allocated()
        result = None
        for call in range(self.calls):
            measured = call == self.calls - 1
            if call:
                self.reset(initial)
            if measured and call and before_warmup is not None:
                self.accounting.declare("kept after the warm-up call (cuBLAS workspace, library caches)",
                                        max(0, self.allocated() - before_warmup))
            self.accounting.begin_call(measured and self.planned)
            result = self.call_steps(dict(bound))
        return result

    def allocated(self):
        return torch.cuda.memory_allocated(self.device) if self.device.type == "cuda" else None

    def declare_setup(self, bound, heap_size):
        self.accounting.declare("arena", heap_size or 0)
        self.accounting.declare("outputs", sum(r.size for r in self.outputs.values()))
        self.accounting.declare("states", sum(r.size for r in self.states.values()))
        weights = sum(t.numel() * t.element_size() for name, t in bound.items()
                      if isinstance(t, torch.Tensor) and self.arg_index.get(name) not in self.states)
        self.accounting.declare("weights and other inputs", weights)

    def reset(self, initial):
        """Between calls: the states' first contents back, the arena and
        outputs poisoned again, the per-call records cleared (set-up, not
        measured)."""
        for i, region in self.states.items():
            region.bytes.copy_(initial[i])
        for region in [self.heap] + list(self.outputs.values()):
            region.bytes.fill_(engine.POISON)
        self.fused, self.step_records, self.group_differences, self.attention_differences = {}, [], [], []
        extra = {k: v for k, v in self.stats.as_dict().items() if k not in engine.Stats().as_dict()}
        self.stats = engine.Stats()
        for key in extra:
            setattr(self.stats, key, 0)

    PASSTHROUGH = fused.FusedExecution.PASSTHROUGH + (strict.StrictError,)

    def step_last_uses(self):
        last_use = self.last_uses()
        for step in groups.steps_of(self.function):  # the values attention reads through views stay bound
            call = self.attention_call(step) if step.compiled else None
            for name in (call.q, call.k, call.v, call.mask) if call is not None else ():
                if name is not None and name in last_use:
                    last_use[name] = max(last_use[name], step.last)
        return last_use

    def begin_step(self, step, planned_workspace):
        where = step.ops[-1]
        self.current = ("%s at %s" % (where.name, where.position), self.kind_of(step), planned_workspace)

    def annotate_record(self, record, step):
        record["kind"] = self.current[1]

    def kernel_phrase(self, step):
        return " in kernel %s" % step.kernel if step.kernel is not None else ""

    def kind_of(self, step):
        """The kernel kind a step runs as, for the report per kind."""
        if step.compiled:
            call = self.attention_call(step)
            if call is None:
                return "compiled group (Inductor)"
            return "attention (one SDPA; its mask recomputed before it)" if call.mask_ops else "attention (one SDPA)"
        computing = step.computing_ops
        op = computing[-1] if computing else step.ops[-1]
        name = attention.short(op)
        if name in KV_WRITES:
            return "KV-cache write"
        return "op %s" % name

    # -- attention --------------------------------------------------------
    def attention_call(self, step):
        if step.first not in self.matches:
            self.matches[step.first] = attention.match(step, self.symbols, self.function)
        return self.matches[step.first]

    def run_group(self, step, env):
        call = self.attention_call(step)
        if call is not None:
            graph = groups.GroupGraph(step, self.symbols, self.device)
            outputs = [op.results[j] for op, j in graph.outputs]
            if outputs == [call.result] and call.operands(env) is not None:
                return self.run_attention(step, call, graph, env)
        return super().run_group(step, env)

    def run_attention(self, step, call, graph, env):
        for op in step.ops:
            self.check_fused_reads(op, op.operands)
        mask = None
        if call.mask_ops:  # the planner recomputes the mask inside the group: compiled as a group of its own
            graph_of_mask = attention.MaskGraph(call.mask_ops, call.mask, self.symbols, self.device)
            tensors = [env[name] for name in graph_of_mask.inputs]
            compiled = self.compiler.get(graph_of_mask, tensors)[0]
            mask = lambda: compiled.function(*tensors)[0]  # noqa: E731
        value = self.allocator.measure(lambda: call.run(env, self.backend, mask() if mask else None))[0]
        difference = None
        if self.planned:  # checked against the group's ops run one by one on the same operands
            eager = graph.module(*[env[name] for name in graph.inputs])[0]
            difference = compare.scaled_difference(value, eager)
            if difference > compare.tolerance(eager.dtype, "group"):
                error = PlanError("the attention group %s (%d ops, ending at %s) as one scaled_dot_product_attention "
                                  "differs from its ops run one by one by %.3g of its largest magnitude, above the "
                                  "tolerance %g" % (step.kernel, len(step.ops), step.ops[-1].position, difference,
                                                    compare.tolerance(eager.dtype, "group")))
                error.numerics = True
                raise error
            self.attention_differences.append(difference)
            self.group_differences.append(difference)
        for op in step.ops:
            self.stats.ops += 1
            if groups.is_view(op):
                self.make_view(op, env)
                continue
            types = self.result_types(op)
            for j, name in enumerate(op.results):
                if name == call.result:
                    env[name] = self.write_result(op, j, value, types[j], env)
                elif op.placement(j).kind == "fused":
                    self.fused[name] = (op.placement(j).kernel, op, None)
                    self.stats.fused += 1
                    self.stats.fused_bytes += engine.bytes_of(*types[j])
        self.stats.attention_groups += 1
        self.stats.compiled_ops += len(step.computing_ops)
        return {"first": step.first, "ops": len(step.ops), "kernel": step.kernel, "compiled": False,
                "attention": True, "op": step.ops[-1].name, "line": step.ops[-1].line,
                "computing_ops": len(step.computing_ops), "group_difference": difference, "measured": None}

    # -- single ops: KV writes in place, kernels' result dtypes --------------------
    def step(self, op, env):
        if self.planned and attention.short(op) in KV_WRITES and self.kv_write_in_place(op, env):
            return
        if op.attrs.get("coreai.result_dtypes") and op.results:
            self.step_into_kernel_dtypes(op, env)
            return
        before = self.stats.copied
        super().step(op, env)
        if self.stats.copied > before:  # the kernel's temporaries, copied into their slots
            self.copied_now += sum(engine.bytes_of(*t) for t in self.result_types(op))

    def kv_write_in_place(self, op, env):
        """The cache write planned exactly over the cache it writes, run in
        place on it; False where the plan put its result elsewhere."""
        placement = op.placement(0)
        if placement.kind != "state" and placement.in_place != 0:
            return False
        dtype, shape = self.result_types(op)[0]
        target = env.get(op.operands[0])
        slot = self.slot_for(op, 0, dtype, shape)
        if (target is None or slot.data_ptr() != target.data_ptr() or tuple(slot.stride()) != tuple(target.stride())
                or tuple(slot.shape) != tuple(target.shape)):
            return False
        positional, keyword = self.call_arguments(op, [env[name] for name in op.operands])
        name = attention.short(op)
        aten.check_indices(name, positional)
        getattr(torch.ops.aten, KV_WRITES[name]).default(*positional, **keyword)
        self.stats.ops += 1
        self.stats.in_place += 1
        self.stats.kv_in_place += 1
        env[op.results[0]] = slot
        return True

    def step_into_kernel_dtypes(self, op, env):
        """An op whose target kernel writes other dtypes than the graph's:
        its slots are in the kernel's dtypes; the values this device's
        kernel returns are copied in, cast where it returned the graph's."""
        name = attention.short(op)
        kernel = aten.kernel(name, op.attrs.get("coreai.overload", "default"))
        tensors = [env[o] for o in op.operands]
        positional, keyword = self.call_arguments(op, tensors)
        self.stats.ops += 1
        graph_types = engine.Execution.result_types(self, op)
        types = self.result_types(op)
        results = kernel.call(positional, keyword)
        results = results if isinstance(results, (tuple, list)) else (results,)
        if len(results) != len(types):
            raise InputError("%s at %s: %d results, the graph has %d" % (op.name, op.position, len(results),
                                                                        len(types)))
        for j, (result, (dtype, shape), (graph_dtype, _)) in enumerate(zip(results, types, graph_types)):
            if result.dtype not in (dtype, graph_dtype) or tuple(result.shape) != tuple(shape):
                raise PlanError("%s (%s, %s): the kernel made %s %s; the graph says %s and the target's kernel %s"
                                % (op.results[j], op.name, op.position, result.dtype, list(result.shape),
                                   graph_dtype, dtype))
            slot = self.slot_for(op, j, dtype, shape)
            if self.planned:
                self.check_kernel_overlap(op, j, slot)
            slot.copy_(result)
            if result.dtype != dtype:
                self.stats.cast_into_slot += 1
            env[op.results[j]] = slot
        self.stats.copied += 1
        self.copied_now += sum(r.numel() * r.element_size() for r in results)

    def result_types(self, op):
        """The graph's types, with the target kernel's dtypes where the op
        carries `coreai.result_dtypes` (one per result)."""
        types = super().result_types(op)
        dtypes = op.attrs.get("coreai.result_dtypes")
        if not dtypes:
            return types
        if len(dtypes) != len(types):
            raise InputError("%s at %s: coreai.result_dtypes has %d entries for %d results"
                             % (op.name, op.position, len(dtypes), len(types)))
        return [(aten.dtype_of(str(d)), shape) for d, (_, shape) in zip(dtypes, types)]

    def write_result(self, op, j, value, typed, env):
        if value.dtype != typed[0] and op.attrs.get("coreai.result_dtypes"):
            value = value.to(typed[0])  # this device's kernel wrote the graph's dtype
            self.stats.cast_into_slot += 1
        return super().write_result(op, j, value, typed, env)


def allocation_source(device, planted=None):
    """Where the accounting reads each step's allocations."""
    if planted is not None:
        return strict.PlantedAllocations(planted)
    device = engine.concrete_device(device)
    return strict.CudaHistory(device) if device.type == "cuda" else strict.NoAllocations()

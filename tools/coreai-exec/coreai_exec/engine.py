"""Runs one function op by op: planned (one arena, the runtime's storages) or
unplanned (a fresh tensor for every result).

Planned: every value lives where its `coreai.placement` puts it
(docs/LIVENESS.md, "Output: attributes in the IR"; the storages as the
replay, passes/ReplayProgram.cpp, defines them):
- `#coreai.heap<offset, size>`: the heap, one uint8 arena of `coreai.plan`'s
  heap bytes, poisoned with 0xFF (NaN for floats);
- `#coreai.lent<output = k, offset, size>`: those bytes of output k's storage;
- `#coreai.output<k>`: output k's storage (bound by the caller);
- `#coreai.state<arg = a>`: the storage of state argument a;
- `#coreai.none` (or no placement) on a returned value: the storage of the
  first output it is returned at; anything else: memory of its own;
- `#coreai.fused<kernel = N>`: a value that never leaves fused kernel N (the
  ops with `coreai.kernel = N`, contiguous): a private poisoned tensor of its
  own, outside every planned storage. The kernel's ops run in order; a read
  of the value (or of a view of it) by an op outside kernel N, or its
  return, is a PlanError, and so is a result of the kernel that partly
  overlaps one of the kernel's operands (only exactly over it, the kernel
  in-place rule, may a kernel write where it reads).
Every storage is a Region: poisoned bytes between two guard bands, handed
out as typed views; a slot outside a region is a PlanError, as is a guard
byte that changed. Views are the kernels' own views of those slots.
"""

import json
import math

import torch

from . import aten, opfacts, pyargs
from .mlir import TensorType


class PlanError(Exception):
    """The plan does not execute as annotated (exit 2)."""


class InputError(Exception):
    """The graph or the request cannot be executed (exit 1)."""


POISON = 0xFF


def bytes_of(dtype, shape):
    return math.prod(shape) * torch.empty((), dtype=dtype).element_size()


def storage_pointer(tensor):
    if hasattr(tensor, "untyped_storage"):
        return tensor.untyped_storage().data_ptr()
    return tensor.storage().data_ptr()


def byte_span(tensor):
    """[first, last + 1) of the bytes a tensor (or a view) reaches, as addresses; None when empty."""
    if tensor.numel() == 0:
        return None
    reach = sum((size - 1) * stride for size, stride in zip(tensor.shape, tensor.stride()))  # torch: strides >= 0
    return tensor.data_ptr(), tensor.data_ptr() + (reach + 1) * tensor.element_size()


class Region:
    """A storage: `size` bytes, poisoned, with guard bands on both sides."""

    GUARD = 256

    def __init__(self, name, size, device, guard=GUARD):
        self.name, self.size, self.guard = name, size, guard
        self.bytes = torch.full((size + 2 * guard,), POISON, dtype=torch.uint8, device=device)

    def slot(self, offset, size, dtype, shape, what):
        """The bytes [offset, offset + size) as a contiguous tensor of dtype/shape."""
        if offset < 0 or size < 0 or offset + size > self.size:
            raise PlanError("%s: bytes [%d, %d) are outside %s (%d bytes)"
                            % (what, offset, offset + size, self.name, self.size))
        need = bytes_of(dtype, shape)
        if size != need:
            raise PlanError("%s: annotated size %d, but %s %s takes %d bytes"
                            % (what, size, dtype, list(shape), need))
        start = self.guard + offset
        raw = self.bytes[start:start + size]
        if need == 0:
            return torch.empty(shape, dtype=dtype, device=self.bytes.device)
        item = torch.empty((), dtype=dtype).element_size()
        if start % item:
            raise PlanError("%s: offset %d in %s is not aligned to its %d-byte elements"
                            % (what, offset, self.name, item))
        return raw.view(dtype).view(shape)

    def guards_intact(self):
        if not self.guard:
            return True
        return bool((self.bytes[:self.guard] == POISON).all()) and bool((self.bytes[-self.guard:] == POISON).all())


def concrete_device(name):
    """`cuda` as `cuda:N`: the exported `device=` arguments are compared
    with tensors' devices, which always carry an index."""
    device = torch.device(name)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    return device


def concrete_shape(ty, sym_text, symbols, what):
    if not isinstance(ty, TensorType):
        raise InputError("%s: type %s is not a tensor" % (what, ty))
    if ty.is_static:
        return tuple(ty.shape)
    if sym_text is None:
        raise InputError("%s: dynamic type %s without a symbolic shape" % (what, ty))
    try:
        shape = pyargs.eval_shape(sym_text, symbols)
    except pyargs.ArgsError as e:
        raise InputError("%s: %s" % (what, e))
    if len(shape) != len(ty.shape) or any(d is not None and d != s for d, s in zip(ty.shape, shape)):
        raise InputError("%s: symbolic shape %r gives %s, not %s" % (what, sym_text, list(shape), ty))
    return shape


class Stats:
    def __init__(self):
        self.ops = self.into_slot = self.copied = self.views = self.in_place = self.in_place_ops = 0
        self.output_placed = self.state_placed = self.borrowed = 0
        self.kernels = self.kernel_ops = self.fused = self.fused_bytes = 0  # fused kernels, their ops, values kept inside
        self.workspaces = 0  # workspace scribbles (two per step with workspace)

    def as_dict(self):
        return dict(self.__dict__)


class Execution:
    """One run of `function` with `symbols` bound, planned or not."""

    def __init__(self, function, symbols, inputs, device, planned, vocab=None):
        self.function, self.symbols, self.inputs, self.vocab = function, symbols, inputs, vocab
        self.device, self.planned = concrete_device(device), planned
        self.stats = Stats()
        self.regions = []
        self.outputs = {}  # result position -> Region
        self.states = {}  # argument index -> Region
        self.heap = None
        self.returned_at = {}
        for position, name in enumerate(function.returned):
            self.returned_at.setdefault(name, position)
        self.arg_index = {a.name: i for i, a in enumerate(function.arguments)}
        self.fused = {}  # value kept inside a kernel -> (kernel, the op that made it, the fused value it views)
        self.kernel_regions = []  # the running kernel's private tensors, their guards checked at its end
        self.kernel_operands = []  # the running kernel's operands from outside it: (name, tensor)
        self.noise = torch.Generator().manual_seed(0x5eed)  # workspace scribbles, the same every run

    # -- storage --------------------------------------------------------
    def region(self, name, size):
        if not self.planned:  # fresh memory, freed with its value
            return Region(name, size, self.device, guard=0)
        region = Region(name, size, self.device)
        self.regions.append(region)
        return region

    def output_region(self, position):
        if position not in self.outputs:
            ty = self.function.result_types[position]
            shape = concrete_shape(ty, self.function.result_attrs[position].get("coreai.sym_shape"),
                                   self.symbols, "result %d" % position)
            self.outputs[position] = self.region("output %d" % position, bytes_of(aten.dtype_of(ty.element), shape))
        return self.outputs[position]

    def slot_for(self, op, j, dtype, shape):
        what = "%s (%s, %s)" % (op.results[j], op.name, op.position)
        size = bytes_of(dtype, shape)
        if not self.planned:
            return self.region("fresh " + op.results[j], size).slot(0, size, dtype, shape, what)

        placement = op.placement(j)
        if placement.kind == "heap":
            return self.heap.slot(placement.offset, placement.size, dtype, shape, what)
        if placement.kind == "fused":  # never leaves its kernel: private bytes, no planned storage
            if placement.kernel != op.kernel:
                raise PlanError("%s: '#coreai.fused<kernel = %d>', but the op is not in kernel %d ('coreai.kernel' "
                                "is %s)" % (what, placement.kernel, placement.kernel,
                                            "absent" if op.kernel is None else op.kernel))
            self.stats.fused += 1
            self.stats.fused_bytes += size
            self.fused[op.results[j]] = (placement.kernel, op, None)
            region = Region("kernel %d's private %s" % (placement.kernel, op.results[j]), size, self.device)
            self.kernel_regions.append(region)
            return region.slot(0, size, dtype, shape, what)
        if placement.kind == "lent":  # scratch in output k's storage
            self.stats.borrowed += 1
            region = self.output_region(self.placed_output(placement, what))
            return region.slot(placement.offset, placement.size, dtype, shape, what)
        if size == 0:
            return torch.empty(shape, dtype=dtype, device=self.device)
        if placement.kind == "output":
            self.stats.output_placed += 1
            return self.output_region(self.placed_output(placement, what)).slot(0, size, dtype, shape, what)
        if placement.kind == "state":
            if placement.arg not in self.states:
                raise PlanError("%s: '#coreai.state' names argument %d, which is not a state" % (what, placement.arg))
            self.stats.state_placed += 1
            return self.states[placement.arg].slot(0, size, dtype, shape, what)
        position = self.returned_at.get(op.results[j])
        if position is not None:
            region = self.output_region(position)
            if region.size == size:
                return region.slot(0, size, dtype, shape, what)
        return self.region("storage of " + op.results[j], size).slot(0, size, dtype, shape, what)

    def placed_output(self, placement, what):
        """The function result a lent or output placement names."""
        if placement.output >= len(self.function.result_types):
            raise PlanError("%s: '#coreai.%s' names result %d of %d"
                            % (what, placement.kind, placement.output, len(self.function.result_types)))
        return placement.output

    # -- the run --------------------------------------------------------
    def arguments(self, env):
        """Values of the arguments the body reads or returns (and every
        state): a tied weight the graph never reads is never made."""
        used = {name for op in self.function.ops for name in op.operands} | set(self.function.returned)
        for i, argument in enumerate(self.function.arguments):
            if argument.name not in used and argument.attrs.get("coreai.kind") != "state":
                continue
            what = "argument %s" % argument.name
            shape = concrete_shape(argument.type, argument.attrs.get("coreai.sym_shape"), self.symbols, what)
            value = self.inputs.value(argument, shape, self.vocab)
            if argument.attrs.get("coreai.kind") == "state":
                size = bytes_of(value.dtype, shape)
                if self.planned:
                    name = "state %d (%s)" % (i, argument.attrs.get("coreai.name", argument.name))
                    self.states[i] = self.region(name, size)
                    slot = self.states[i].slot(0, size, value.dtype, shape, what)
                    slot.copy_(value)
                    value = slot
                else:
                    value = value.clone()
            env[argument.name] = value

    def run(self, heap_size=None):
        function = self.function
        if self.planned:
            self.heap = self.region("the arena", heap_size)
        env = {}
        self.arguments(env)
        last_use = self.last_uses()
        # Arguments stay bound whatever their names: states are read back at the end.
        arguments = {argument.name for argument in function.arguments}
        kernel = None  # the fused kernel running
        steps = self.workspace_steps() if self.planned else {}
        for index, op in enumerate(function.ops):
            try:
                if self.planned:
                    if op.kernel != kernel:
                        self.end_kernel()
                        kernel = op.kernel
                        self.begin_kernel(kernel, index, env)
                    self.check_fused_reads(op, op.operands)
                    self.scribble(steps.get(("first", index), ()))
                self.step(op, env)
                if self.planned:
                    self.scribble(steps.get(("last", index), ()))
            except (PlanError, InputError, aten.UnsupportedOp):
                raise
            except Exception as e:  # a kernel refused its inputs
                error = PlanError if self.planned else InputError
                raise error("%s (%s) at %s failed: %s: %s"
                            % (", ".join(op.results) or "op", op.name, op.position, type(e).__name__,
                               str(e).strip().splitlines()[0] if str(e).strip() else ""))
            for name in op.operands:
                if last_use.get(name) == index and name in env and name not in arguments:
                    del env[name]
        return self.finish(env)

    def finish(self, env):
        """After the last op: the returned values and each state's final
        contents, the planned storages' guards checked."""
        function = self.function
        if self.planned:
            self.end_kernel()
            self.check_fused_reads(None, function.returned)
        missing = [n for n in function.returned if n not in env]
        if missing:
            raise InputError("@%s returns undefined %s" % (function.name, ", ".join(missing)))
        returned = [env[n].clone() for n in function.returned]
        finals = self.final_states(env, returned)
        if self.planned:
            for region in self.regions:
                if not region.guards_intact():
                    raise PlanError("bytes outside %s were written" % region.name)
        return returned, finals

    # -- kernel workspace -----------------------------------------------
    def workspace_steps(self):
        """The workspaces to scribble on: {("first", i): [...], ("last", j):
        [...]} for each step (an op, or a fused kernel of ops i..j) whose op
        carries `coreai.workspace`."""
        steps, ops = {}, self.function.ops
        for index, op in enumerate(ops):
            if op.workspace is None:
                continue
            first = last = index
            while op.kernel is not None and first > 0 and ops[first - 1].kernel == op.kernel:
                first -= 1
            while op.kernel is not None and last + 1 < len(ops) and ops[last + 1].kernel == op.kernel:
                last += 1
            entry = (op, op.workspace)
            steps.setdefault(("first", first), []).append(entry)
            steps.setdefault(("last", last), []).append(entry)
        return steps

    def scribble(self, workspaces):
        """Fresh random bytes over each workspace: what a kernel's scratch
        leaves behind, right before and right after its step, so that a
        value sharing those bytes while live is changed (docs/WORKSPACE.md)."""
        for op, placement in workspaces:
            what = "the workspace of %s (%s)" % (op.name, op.position)
            region = self.heap
            if placement.kind == "lent":
                region = self.output_region(self.placed_output(placement, what))
            if placement.offset < 0 or placement.offset + placement.size > region.size:
                raise PlanError("%s: bytes [%d, %d) are outside %s (%d bytes)"
                                % (what, placement.offset, placement.offset + placement.size, region.name,
                                   region.size))
            start = region.guard + placement.offset
            noise = torch.randint(0, 256, (placement.size,), dtype=torch.uint8, generator=self.noise)
            region.bytes[start:start + placement.size] = noise.to(region.bytes.device)
            self.stats.workspaces += 1

    # -- fused kernels --------------------------------------------------
    def begin_kernel(self, kernel, index, env):
        """Kernel `kernel` starts at op `index`: its operands from outside it are noted."""
        if kernel is None:
            return
        ops = []
        for op in self.function.ops[index:]:
            if op.kernel != kernel:
                break
            ops.append(op)
        made = {r for op in ops for r in op.results}
        outside = dict.fromkeys(o for op in ops for o in op.operands if o not in made and o in env)
        self.kernel_operands = [(name, env[name]) for name in outside]
        self.stats.kernels += 1
        self.stats.kernel_ops += len(ops)

    def end_kernel(self):
        """The private tensors of the kernel that ran: their guard bytes intact."""
        for region in self.kernel_regions:
            if not region.guards_intact():
                raise PlanError("bytes outside %s were written" % region.name)
        self.kernel_regions, self.kernel_operands = [], []

    def check_fused_reads(self, op, names):
        """A value kept inside kernel N (#coreai.fused) is read only by ops of kernel N
        (`op` None: `names` are returned)."""
        for name in names:
            if name not in self.fused:
                continue
            kernel, maker, viewed = self.fused[name]
            if op is not None and op.kernel == kernel:
                continue
            reader = ("is returned by @%s" % self.function.name if op is None else
                      "is read by %s (%s, %s), which is not in kernel %d ('coreai.kernel' is %s)"
                      % (", ".join(op.results) or "an op", op.name, op.position, kernel,
                         "absent" if op.kernel is None else op.kernel))
            raise PlanError("%s (%s, %s%s) stays inside kernel %d (#coreai.fused) but %s: a value kept inside "
                            "a kernel has no bytes outside it"
                            % (name, maker.name, maker.position, "; a view of " + viewed if viewed else "", kernel,
                               reader))

    def check_kernel_overlap(self, op, j, slot):
        """A result of a kernel lies apart from the kernel's operands, or exactly over one (the
        kernel in-place rule): a partly overlapping one would race with the fused kernel's reads."""
        if op.kernel is None or op.placement(j).kind == "fused":
            return
        span = byte_span(slot)
        for name, tensor in self.kernel_operands:
            other = byte_span(tensor)
            if span is None or other is None or storage_pointer(tensor) != storage_pointer(slot):
                continue
            if span[0] < other[1] and other[0] < span[1] and span != other:
                raise PlanError("%s (%s, %s), a result of kernel %d, partly overlaps %s, an operand of the "
                                "kernel (%d of its bytes, starting %+d bytes from it): a kernel may write only "
                                "exactly over an operand (the kernel in-place rule)"
                                % (op.results[j], op.name, op.position, op.kernel, name,
                                   min(span[1], other[1]) - max(span[0], other[0]), span[0] - other[0]))

    def track_view(self, op, j, source):
        """A view of a value kept inside a kernel (or one marked so) is kept inside it too."""
        if op.placement(j).kind == "fused":
            self.fused[op.results[j]] = (op.placement(j).kernel, op, None)
        elif source in self.fused:
            self.fused[op.results[j]] = (self.fused[source][0], op, self.fused[source][2] or source)

    def final_states(self, env, returned):
        """Each state's contents after the call, the runtime's write-back done."""
        function = self.function
        finals = {}
        for i, argument in enumerate(function.arguments):
            if argument.attrs.get("coreai.kind") != "state":
                continue
            name = argument.attrs.get("coreai.name", argument.name)
            updates = [p for p, attrs in enumerate(function.result_attrs)
                       if attrs.get("coreai.kind") == "state_update" and attrs.get("coreai.name") == name]
            current = env[argument.name]
            if updates:
                update = returned[updates[0]]
                if tuple(update.shape) != tuple(current.shape) or update.dtype != current.dtype:
                    raise InputError("state_update %s has another type than its state" % name)
                if self.planned:
                    current.copy_(update)  # the write-back (a no-op copy where it was placed there)
                    finals[name] = current.clone()
                else:
                    finals[name] = update
            else:
                finals[name] = current.clone()
        return finals

    def call_arguments(self, op, tensors):
        text = op.attrs.get("coreai.args")
        if text is None:
            positional, keyword = [pyargs.TensorSlot() for _ in tensors], {}
        else:
            try:
                positional, keyword = pyargs.parse_call(text, self.symbols)
            except pyargs.ArgsError as e:
                raise InputError("%s at %s: %s" % (op.name, op.position, e))
        if pyargs.count_tensors((positional, list(keyword.values()))) != len(tensors):
            raise InputError("%s at %s: 'coreai.args' shows %d tensors for %d operands"
                             % (op.name, op.position, pyargs.count_tensors(positional), len(tensors)))
        feed = iter(tensors)
        positional = aten.resolve(pyargs.fill_tensors(positional, feed), self.device)
        keyword = {k: aten.resolve(pyargs.fill_tensors(v, feed), self.device) for k, v in keyword.items()}
        return positional, keyword

    def last_uses(self):
        """The index of the last op reading each value (past the end: returned)."""
        last_use = {}
        for index, op in enumerate(self.function.ops):
            for name in op.operands:
                last_use[name] = index
        for name in self.function.returned:
            last_use[name] = len(self.function.ops)
        return last_use

    def result_types(self, op):
        """(dtype, shape) of each result of `op`, its symbolic shapes bound."""
        types = []
        sym_shapes = op.attrs.get("coreai.sym_shapes") or [None] * len(op.results)
        for j, ty in enumerate(op.result_types):
            shape = concrete_shape(ty, sym_shapes[j] if j < len(sym_shapes) else None, self.symbols,
                                   "%s (%s)" % (op.results[j], op.position))
            types.append((aten.dtype_of(ty.element), shape))
        return types

    def step(self, op, env):
        if not op.name.startswith("torch.aten."):
            raise aten.UnsupportedOp("%s at %s: only torch.aten ops run" % (op.name, op.position))
        self.stats.ops += 1
        name = op.name[len("torch.aten."):]
        kernel = aten.kernel(name, op.attrs.get("coreai.overload", "default"))
        try:
            tensors = [env[o] for o in op.operands]
        except KeyError as e:
            raise InputError("%s at %s uses %s before it is defined" % (op.name, op.position, e))
        positional, keyword = self.call_arguments(op, tensors)
        aten.check_indices(name, positional)
        if not op.results:
            kernel.call(positional, keyword)
            return
        types = self.result_types(op)
        if opfacts.writes_self(name, op.attrs.get("coreai.overload", "default")):
            # An in-place op of a graph as written (the original of a
            # functionalised plan), run eagerly: the kernel writes `self`,
            # through any view, and its result is `self` itself.
            result = kernel.call(positional, keyword)
            if len(op.results) != 1 or result is None or storage_pointer(result) != storage_pointer(tensors[0]):
                raise InputError("%s at %s: an in-place op must return its written operand" % (op.name, op.position))
            aten.check_result(kernel.label, result, *types[0])
            self.stats.in_place_ops += 1
            env[op.results[0]] = result
            return
        alias = op.attrs.get("coreai.alias_of")
        if alias is not None and any(a >= 0 for a in alias):
            results = kernel.call(positional, keyword)
            results = results if isinstance(results, (tuple, list)) else (results,)
            for j, (result, (dtype, shape)) in enumerate(zip(results, types)):
                aten.check_result(kernel.label, result, dtype, shape)
                if alias[j] >= 0:
                    if storage_pointer(result) != storage_pointer(tensors[alias[j]]):
                        raise InputError("%s at %s: %s is marked a view but the kernel made a new tensor"
                                         % (op.name, op.position, op.results[j]))
                    self.stats.views += 1
                    env[op.results[j]] = result
                    if self.planned:
                        self.track_view(op, j, op.operands[alias[j]])
                else:
                    slot = self.slot_for(op, j, dtype, shape)
                    if self.planned:
                        self.check_kernel_overlap(op, j, slot)
                    slot.copy_(result)
                    env[op.results[j]] = slot
            return
        slots = [self.slot_for(op, j, dtype, shape) for j, (dtype, shape) in enumerate(types)]
        if self.planned:
            self.check_in_place(op, tensors, slots)
            for j, slot in enumerate(slots):
                self.check_kernel_overlap(op, j, slot)
        if len(slots) == 1:
            if kernel.call_into(positional, keyword, slots[0]):
                self.stats.into_slot += 1
            else:
                self.stats.copied += 1
        else:
            results = kernel.call(positional, keyword)
            if len(results) != len(slots):
                raise InputError("%s at %s: %d results, the graph has %d"
                                 % (op.name, op.position, len(results), len(slots)))
            for result, slot in zip(results, slots):
                aten.check_result(kernel.label, result, slot.dtype, slot.shape)
                slot.copy_(result)
            self.stats.copied += 1
        for result, slot in zip(op.results, slots):
            env[result] = slot

    def check_in_place(self, op, tensors, slots):
        for j, slot in enumerate(slots):
            operand = op.placement(j).in_place
            if operand is None:
                continue
            if operand >= len(tensors) or tensors[operand].data_ptr() != slot.data_ptr():
                raise PlanError("%s (%s, %s): its placement says it is written over operand %d (in_place), "
                                "which lives elsewhere" % (op.results[j], op.name, op.position, operand))
            self.stats.in_place += 1


def symbols_of(module, seq_len):
    """Every shape symbol bound to S (the graphs have one: the chunk size)."""
    text = module.attrs.get("coreai.sym_ranges")
    if not text:
        return {}
    try:
        ranges = json.loads(text)
    except ValueError as e:
        raise InputError("%s: coreai.sym_ranges is not JSON: %s" % (module.path, e))
    if len(ranges) > 1:
        raise InputError("%s: several shape symbols (%s); only one chunk symbol is supported"
                         % (module.path, ", ".join(sorted(ranges))))
    return {name: seq_len for name in ranges}


def sequence_length(function):
    """coreai.seq_len, else dim 1 of a static `input_ids`, else 0: the exporter's convention, read
    independently of the planner's exportedChunkSize (lib/Exporter/ChunkSize.cpp)."""
    if "coreai.seq_len" in function.attrs:
        return int(function.attrs["coreai.seq_len"])
    for argument in function.arguments:
        ty = argument.type
        if (argument.attrs.get("coreai.name") == "input_ids" and isinstance(ty, TensorType)
                and len(ty.shape) == 2 and ty.is_static):
            return ty.shape[1]
    return 0

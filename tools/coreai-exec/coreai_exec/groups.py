"""A planned function's steps as the runtime launches them, and each fused
kernel group as one function a compiler can take whole.

A step is a fused kernel (the contiguous ops carrying one `coreai.kernel =
N`, docs/FUSION.md) or an op of its own. A kernel that computes with two or
more ops becomes a torch.fx graph of its ops (`GroupGraph`): its placeholders
are the kernel's operands from outside it, its outputs every result the plan
gives bytes (everything but `#coreai.fused` values and views, which the
executor makes again on the planned storage). The graph calls the same ATen
overloads, with the same arguments, as the op-by-op executor (aten.py,
pyargs.py), so the compiled kernel computes what the eager ops compute.

Layer after layer the kernels repeat: `GroupGraph.key` is canonical (the
graph's code, with placeholders numbered in order, and each input's dtype,
shape, strides and 16-byte alignment), so one compiled function serves every
group with the same key.
"""

import operator
from dataclasses import dataclass
from typing import List

import torch
import torch.fx

from . import aten, pyargs


@dataclass
class Step:
    first: int  # index of its first op in the function body
    ops: List[object]  # mlir.Op, in body order
    kernel: object  # the `coreai.kernel` id, or None for an op of its own

    @property
    def last(self):
        return self.first + len(self.ops) - 1

    @property
    def computing_ops(self):
        """Ops that compute a value: not views, not checks without results."""
        return [op for op in self.ops if op.results and not is_view(op)]

    @property
    def compiled(self):
        """A kernel of two or more computing ops runs as one compiled function;
        one op (with or without views) is the op-by-op executor's kernel call."""
        return self.kernel is not None and len(self.computing_ops) >= 2


def is_view(op):
    alias = op.attrs.get("coreai.alias_of")
    return bool(alias) and any(a >= 0 for a in alias)


def steps_of(function):
    """The function's steps in body order (the reader has checked that each
    kernel's ops are contiguous)."""
    steps = []
    for index, op in enumerate(function.ops):
        if op.kernel is not None and steps and steps[-1].kernel == op.kernel:
            steps[-1].ops.append(op)
        else:
            steps.append(Step(index, [op], op.kernel))
    return steps


class GroupGraph:
    """One compiled step as an fx.GraphModule.

    inputs: the names of its operands from outside it, in first-use order;
    outputs: (op, result index) of the results it writes to planned bytes, in
    the order the module returns them. `symbols` binds the chunk size in the
    ops' `coreai.args`; `device` is the run's device (factories' `device=`).
    """

    def __init__(self, step, symbols, device):
        self.step = step
        made = {r for op in step.ops for r in op.results}
        self.inputs = list(dict.fromkeys(o for op in step.ops for o in op.operands if o not in made))
        graph = torch.fx.Graph()
        nodes = {name: graph.placeholder("in%d" % i) for i, name in enumerate(self.inputs)}
        self.outputs = []
        for op in step.ops:
            produced = self._call(graph, op, [nodes[o] for o in op.operands], symbols, device)
            for j, name in enumerate(op.results):
                nodes[name] = produced[j]
                if not is_view(op) and op.placement(j).kind != "fused":
                    self.outputs.append((op, j))
        graph.output(tuple(nodes[op.results[j]] for op, j in self.outputs))
        self.module = torch.fx.GraphModule(torch.nn.Module(), graph)
        self.code = self.module.code

    @staticmethod
    def _call(graph, op, operands, symbols, device):
        """The op as graph nodes (one per result), called as aten.py calls it."""
        if not op.name.startswith("torch.aten."):
            raise aten.UnsupportedOp("%s at %s: only torch.aten ops run" % (op.name, op.position))
        name = op.name[len("torch.aten."):]
        kernel = aten.kernel(name, op.attrs.get("coreai.overload", "default"))
        text = op.attrs.get("coreai.args")
        try:
            positional, keyword = (pyargs.parse_call(text, symbols) if text is not None
                                   else ([pyargs.TensorSlot() for _ in operands], {}))
        except pyargs.ArgsError as e:
            raise aten.UnsupportedOp("%s at %s: %s" % (op.name, op.position, e))
        feed = iter(operands)
        positional = aten.resolve(pyargs.fill_tensors(positional, feed), device)
        keyword = {k: aten.resolve(pyargs.fill_tensors(v, feed), device) for k, v in keyword.items()}
        if kernel.uses_legacy(positional, keyword):
            if kernel.legacy is None:
                raise aten.UnsupportedOp("%s is not in this torch (%s) and has no mapping in legacy.py"
                                         % (kernel.label, torch.__version__))
            target = kernel.legacy
        else:
            target = kernel.native
        node = graph.call_function(target, tuple(positional), keyword)
        if len(op.results) <= 1:
            return [node]
        return [graph.call_function(operator.getitem, (node, j)) for j in range(len(op.results))]

    def key(self, tensors):
        """The canonical key of this graph called on `tensors` (its inputs' values)."""
        described = tuple((str(t.dtype), tuple(t.shape), tuple(t.stride()), t.data_ptr() % 16 == 0,
                           str(t.device)) for t in tensors)
        return self.code, described

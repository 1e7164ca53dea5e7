"""Negative controls: break a plan on purpose so the executor must catch it.

`zero` moves every planned buffer to offset 0 of its storage (the heap, or
the output it borrows). `overlap` moves one buffer onto another of the same
storage that is still to be read after the first one is written, so exactly
two simultaneously live buffers share bytes. Both move the offsets of
the parsed function's heap and lent placements in memory.

Two more break fused kernels (the ops with `coreai.kernel = N`):
`kernel-output-over-input` moves a result a kernel writes (to the heap or
scratch in an output) onto the bytes of an operand the kernel takes from
outside and that is still to be read (by a later op of the kernel where
one does, else after the kernel), so the kernel clobbers its own input;
`fused-read-outside` marks a result of a kernel that an op outside it reads
(or the function returns) as kept inside it, `#coreai.fused<kernel = N>`.
Where the function has no kernel, or none to plant the fault in, they say so
(exit 1).

`workspace-over-live` moves a kernel's workspace (`coreai.workspace`) onto
a planned buffer live across its op; the executor scribbles random bytes
over every workspace right before and after its op, so the value changes.
"""

import dataclasses
import math

from . import aten
from .engine import InputError
from .mlir import Placement


def heap_buffers(function):
    """Planned buffers in op order: dicts with offset, size, region (-1 for
    the heap, k for scratch borrowed in output k), first (defining op index),
    last (last op index reading it through any value) and members ((op,
    result index) pairs: the root and the in-place results over it)."""
    return _buffers(function)[0]


def _buffers(function):
    """heap_buffers, and the buffer (its index) of each value in one."""
    buffer_of, buffers = {}, []
    for index, op in enumerate(function.ops):
        for operand in op.operands:
            if operand in buffer_of:
                buffers[buffer_of[operand]]["last"] = index
        alias = op.attrs.get("coreai.alias_of")
        for j, result in enumerate(op.results):
            if alias and alias[j] >= 0:
                source = op.operands[alias[j]]
                if source in buffer_of:
                    buffer_of[result] = buffer_of[source]
                continue
            placement = op.placement(j)
            if placement.kind not in ("heap", "lent"):
                continue
            over = placement.in_place
            if over is not None and over < len(op.operands) and op.operands[over] in buffer_of:
                b = buffer_of[op.operands[over]]
            else:
                b = len(buffers)
                region = placement.output if placement.kind == "lent" else -1  # -1: the heap
                buffers.append({"offset": placement.offset, "size": placement.size, "first": index,
                                "last": index, "members": [], "name": result, "region": region})
            buffers[b]["members"].append((op, j))
            buffer_of[result] = b
    return buffers, buffer_of


def _set_offset(op, j, offset):
    op.set_placement(j, dataclasses.replace(op.placement(j), offset=offset))


def _region_size(function, region):
    if region < 0:
        return function.attrs.get("coreai.plan", {}).get("heap", 0)
    ty = function.result_types[region]
    return math.prod(d or 0 for d in ty.shape) * aten.element_bytes(ty.element)


def corrupt(function, mode):
    """Breaks the plan of `function`; returns a sentence saying how."""
    buffers = heap_buffers(function)
    if mode == "zero":
        moved = 0
        for buffer in buffers:
            if buffer["offset"] != 0:
                moved += 1
            for op, j in buffer["members"]:
                _set_offset(op, j, 0)
        return "every planned buffer at offset 0 of its storage (%d of %d moved)" % (moved, len(buffers))
    if mode == "overlap":
        # The clobbered buffer read longest after the clobber (a residual
        # stream, say, which every later value depends on; a short-lived one
        # may feed only what does not matter, like the query of attention
        # over one position), then the most shared bytes.
        best = None
        for b in buffers:
            for a in buffers:
                if a is b or a["region"] != b["region"] or not (a["first"] < b["first"] < a["last"]):
                    continue
                if a["offset"] + b["size"] > _region_size(function, a["region"]):
                    continue
                rank = (a["last"] - b["first"], min(a["size"], b["size"]))
                if best is None or rank > best[0]:
                    best = (rank, a, b)
        if best is None:
            raise InputError("@%s: no two heap buffers are live at the same time" % function.name)
        _, a, b = best
        for op, j in b["members"]:
            _set_offset(op, j, a["offset"])
        where = "" if a["region"] < 0 else " in output %d's storage" % a["region"]
        return ("buffer %s (%d bytes) moved from offset %d onto %s at %d%s, which is read after it is written"
                % (b["name"], b["size"], b["offset"], a["name"], a["offset"], where))
    if mode == "workspace-over-live":
        return workspace_over_live(function, buffers)
    if mode in KERNEL_MODES:
        kernels = kernels_of(function)
        if not kernels:
            raise InputError("@%s has no fused kernel (no op carries 'coreai.kernel'): nowhere to plant '%s'"
                             % (function.name, mode))
        return KERNEL_MODES[mode](function, kernels)
    raise InputError("unknown corruption '%s'" % mode)


def kernels_of(function):
    """Each fused kernel's ops, as (op index, op) pairs, by kernel in op order."""
    kernels = {}
    for index, op in enumerate(function.ops):
        if op.kernel is not None:
            kernels.setdefault(op.kernel, []).append((index, op))
    return kernels


def _where(op):
    return "%s, %s" % (op.name, op.position)


def _computing_reads(function, buffer_of):
    """Per buffer: the (op index, op) pairs that compute from one of its
    values (views and ops without results only look), the return as
    (len(ops), None)."""
    reads = {}
    for index, op in enumerate(function.ops):
        alias = op.attrs.get("coreai.alias_of") or []
        if not op.results or (alias and all(a >= 0 for a in alias)):
            continue
        for operand in dict.fromkeys(op.operands):
            if operand in buffer_of:
                reads.setdefault(buffer_of[operand], []).append((index, op))
    for name in function.returned:
        if name in buffer_of:
            reads.setdefault(buffer_of[name], []).append((len(function.ops), None))
    return reads


def _move(op, j, region, offset):
    """Result j of op into `region` (-1: the heap, k: output k's scratch) at `offset`."""
    kind, output = ("heap", None) if region < 0 else ("lent", region)
    op.set_placement(j, dataclasses.replace(op.placement(j), kind=kind, output=output, offset=offset))


def kernel_output_over_input(function, kernels):
    """A kernel's result, rooting its own buffer, moved onto the buffer of an
    operand the kernel takes from outside and that is read after the result
    is written: by a later op of the kernel where one does, else after the
    kernel. Of equal size first (the kernel then writes exactly over its
    input, as the kernel in-place rule would, so only that read can tell),
    then in the same storage, then the one read soonest after the write (a
    read long after may feed only what does not matter: in Gemma at S=1,
    the rotary table's last reader is a query of an attention over one
    position, whose softmax is 1 whatever the query)."""
    buffers, buffer_of = _buffers(function)
    reads = _computing_reads(function, buffer_of)
    best = None
    for kernel, ops in kernels.items():
        last = ops[-1][0]
        made = {r for _, op in ops for r in op.results}
        outside = dict.fromkeys(o for _, op in ops for o in op.operands if o not in made and o in buffer_of)
        for index, op in ops:
            for j, result in enumerate(op.results):
                if result not in buffer_of or buffers[buffer_of[result]]["members"][0][0] is not op:
                    continue  # not in the heap or an output's scratch, or in place over a buffer made before
                b = buffers[buffer_of[result]]
                for operand in outside:
                    a = buffers[buffer_of[operand]]
                    later = [read for read in reads.get(buffer_of[operand], []) if read[0] > index]
                    if a is b or not later or a["offset"] + b["size"] > _region_size(function, a["region"]):
                        continue
                    inside = later[0][0] <= last
                    rank = (inside, a["size"] == b["size"], a["region"] == b["region"], index - later[0][0])
                    if best is None or rank > best[0]:
                        best = (rank, kernel, op, b, a, operand, later[0][1])
    if best is None:
        raise InputError("@%s: no kernel writes a result to the heap (or an output's scratch) while an operand it "
                         "takes from there is still to be read: nowhere to plant 'kernel-output-over-input' "
                         "(%d kernels)" % (function.name, len(kernels)))
    (inside, *_), kernel, op, b, a, operand, reader = best
    for member, j in b["members"]:
        _move(member, j, a["region"], a["offset"])
    where = "" if a["region"] < 0 else " in output %d's storage" % a["region"]
    if reader is None:
        read = "the return reads after the kernel"
    else:
        read = "%s (%s) %s" % (", ".join(reader.results), _where(reader),
                               "of the kernel reads after it is written" if inside else "reads after the kernel")
    return ("kernel %d's result %s (%s; %d bytes) moved from offset %d onto its operand %s at %d%s "
            "(%d bytes), which %s" % (kernel, b["name"], _where(op), b["size"], b["offset"], operand,
                                      a["offset"], where, a["size"], read))


def fused_read_outside(function, kernels):
    """A result of a kernel read outside it (by an op first, else by the
    return) marked as kept inside the kernel."""
    best = None
    for kernel, ops in kernels.items():
        for _, op in ops:
            alias = op.attrs.get("coreai.alias_of") or []
            for j, result in enumerate(op.results):
                if op.placement(j).kind == "fused" or (j < len(alias) and alias[j] >= 0):
                    continue
                readers = [r for r in function.ops if result in r.operands and r.kernel != kernel]
                if not readers and result not in function.returned:
                    continue
                rank = (bool(readers),)
                if best is None or rank > best[0]:
                    best = (rank, kernel, op, j, readers)
    if best is None:
        raise InputError("@%s: no result of a kernel is read outside it: nowhere to plant 'fused-read-outside' "
                         "(%d kernels)" % (function.name, len(kernels)))
    _, kernel, op, j, readers = best
    was = op.placement(j).kind
    op.set_placement(j, Placement("fused", kernel=kernel))
    reader = ("%s (%s)" % (", ".join(readers[0].results) or "an op", _where(readers[0])) if readers
              else "the return")
    return ("kernel %d's result %s (%s), placed #coreai.%s, marked #coreai.fused<kernel = %d>, but %s reads it "
            "outside the kernel" % (kernel, op.results[j], _where(op), was, kernel, reader))


def workspace_over_live(function, buffers):
    """A kernel's workspace (`coreai.workspace`) moved onto a planned buffer
    of the same storage that is live across the workspace's step (written
    before it, read after it): the executor's scribbles then change that
    value. The buffer read longest after the step first (its change reaches
    the most), then the most shared bytes."""
    ops = function.ops
    best = None
    for index, op in enumerate(ops):
        workspace = op.workspace
        if workspace is None:
            continue
        first = last = index
        while op.kernel is not None and first > 0 and ops[first - 1].kernel == op.kernel:
            first -= 1
        region = workspace.output if workspace.kind == "lent" else -1
        for a in buffers:
            if a["region"] != region or not (a["first"] < first and a["last"] > last):
                continue
            if a["offset"] + workspace.size > _region_size(function, region):
                continue
            rank = (a["last"] - last, min(a["size"], workspace.size))
            if best is None or rank > best[0]:
                best = (rank, op, a)
    if best is None:
        raise InputError("@%s: no kernel workspace has a planned buffer live across its op in its storage: nowhere "
                         "to plant 'workspace-over-live'" % function.name)
    _, op, a = best
    was = op.workspace.offset
    op.attrs["coreai.workspace"] = dataclasses.replace(op.workspace, offset=a["offset"])
    where = "" if a["region"] < 0 else " in output %d's storage" % a["region"]
    return ("the workspace of %s (%s; %d bytes) moved from offset %d onto %s at %d%s, which is live across it"
            % (op.name, op.position, op.workspace.size, was, a["name"], a["offset"], where))


KERNEL_MODES = {"kernel-output-over-input": kernel_output_over_input, "fused-read-outside": fused_read_outside}

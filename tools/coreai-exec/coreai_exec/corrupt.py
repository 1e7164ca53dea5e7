"""Negative controls: break a plan on purpose so the executor must catch it.

`zero` moves every planned buffer to offset 0 of its storage (the heap, or
the output it borrows). `overlap` moves one buffer onto another of the same
storage that is still to be read after the first one is written, so exactly
two simultaneously live buffers share bytes. Both move the offsets of
the parsed function's heap and lent placements in memory.
"""

import dataclasses
import math

from . import aten
from .engine import InputError


def heap_buffers(function):
    """Planned buffers in op order: dicts with offset, size, region (-1 for
    the heap, k for scratch borrowed in output k), first (defining op index),
    last (last op index reading it through any value) and members ((op,
    result index) pairs: the root and the in-place results over it)."""
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
    return buffers


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
    raise InputError("unknown corruption '%s'" % mode)

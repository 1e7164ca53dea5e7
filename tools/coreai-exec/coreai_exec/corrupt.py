"""Negative controls: break a plan on purpose so the executor must catch it.

`zero` moves every heap buffer to offset 0. `overlap` moves one buffer onto
another that is still to be read after the first one is written (the first
such pair in op order), so exactly two simultaneously live buffers share
bytes. Both edit the parsed function's `coreai.offsets` in memory.
"""

from .engine import InputError


def heap_buffers(function):
    """Heap buffers in op order: dicts with offset, size, first (defining op
    index), last (last op index reading it through any value) and members
    ((op, result index) pairs: the root and the in-place results over it)."""
    buffer_of, buffers = {}, []
    for index, op in enumerate(function.ops):
        for operand in op.operands:
            if operand in buffer_of:
                buffers[buffer_of[operand]]["last"] = index
        alias = op.attrs.get("coreai.alias_of")
        offsets = op.attrs.get("coreai.offsets")
        sizes = op.attrs.get("coreai.sizes")
        in_place = op.attrs.get("coreai.in_place")
        borrow = op.attrs.get("coreai.borrow")
        for j, result in enumerate(op.results):
            if alias and alias[j] >= 0:
                source = op.operands[alias[j]]
                if source in buffer_of:
                    buffer_of[result] = buffer_of[source]
                continue
            if not offsets or offsets[j] < 0 or (borrow and borrow[j] >= 0):
                continue  # not in the heap (outputs' storage lent as scratch: left alone)
            over = in_place[j] if in_place else -1
            if over >= 0 and op.operands[over] in buffer_of:
                b = buffer_of[op.operands[over]]
            else:
                b = len(buffers)
                buffers.append({"offset": offsets[j], "size": sizes[j], "first": index, "last": index,
                                "members": [], "name": result})
            buffers[b]["members"].append((op, j))
            buffer_of[result] = b
    return buffers


def _set_offset(op, j, offset):
    offsets = list(op.attrs["coreai.offsets"])
    offsets[j] = offset
    op.attrs["coreai.offsets"] = offsets


def corrupt(function, mode):
    """Breaks the plan of `function`; returns a sentence saying how."""
    heap = function.attrs.get("coreai.plan", {}).get("heap", 0)
    buffers = heap_buffers(function)
    if mode == "zero":
        moved = 0
        for buffer in buffers:
            if buffer["offset"] != 0:
                moved += 1
            for op, j in buffer["members"]:
                _set_offset(op, j, 0)
        return "every heap buffer at offset 0 (%d of %d moved)" % (moved, len(buffers))
    if mode == "overlap":
        # The clobbered buffer read longest after the clobber (a residual
        # stream, say, which every later value depends on; a short-lived one
        # may feed only what does not matter, like the query of attention
        # over one position), then the most shared bytes.
        best = None
        for b in buffers:
            for a in buffers:
                if a is b or not (a["first"] < b["first"] < a["last"]) or a["offset"] + b["size"] > heap:
                    continue
                rank = (a["last"] - b["first"], min(a["size"], b["size"]))
                if best is None or rank > best[0]:
                    best = (rank, a, b)
        if best is None:
            raise InputError("@%s: no two heap buffers are live at the same time" % function.name)
        _, a, b = best
        for op, j in b["members"]:
            _set_offset(op, j, a["offset"])
        return ("buffer %s (%d bytes) moved from offset %d onto %s at %d, which is read after it is written"
                % (b["name"], b["size"], b["offset"], a["name"], a["offset"]))
    raise InputError("unknown corruption '%s'" % mode)

#!/usr/bin/env python3
"""Plants one fault into the first planned function of a planned graph.

    plant.py PLANNED.mlir KIND OUT.mlir [FUNCTION]

FUNCTION (a name without the @) picks the function, the first one by
default. Each kind is a mistake a planner (or a hand edit) could make; the replay
must reject every one of them. The edit is checked to have happened, so a
test using this cannot pass by planting nothing.

The faults are edits of the `coreai` dialect's placements
(`coreai.placement = [#coreai.heap<offset = 0, size = 128>]`, one entry per
result). Two of them the typed form cannot carry to the replay any more:
the dialect's verifier refuses them when the file is parsed, so
coreai-plan-opt must fail with a parse error at the op's location:
  size-smaller  a heap size that is not the size of the result's type;
  two-places    a second placement on a one-result op (the arrays could
                name a heap offset and an output for one value; a list of
                one entry per result cannot, so the nearest edit is one
                entry too many).
"""
import re
import sys

# An op whose one result is in the heap; its fields as printed.
HEAP = re.compile(r"coreai\.placement = \[(?P<entry>#coreai\.heap<(?P<fields>[^>]*)>)\]")


def split_first_function(text, name=None):
    """(before, the first function or the one named, after): faults go into it."""
    start = text.index("func.func @" + (name + "(" if name else ""))
    end = text.find("func.func @", start + 1)
    end = len(text) if end < 0 else end
    return text[:start], text[start:end], text[end:]


def fields_of(text):
    """'offset = 0, size = 128' as {'offset': 0, 'size': 128}, in their order."""
    return {key: int(value) for key, value in re.findall(r"(\w+) = (\d+)", text)}


def placement(kind, fields):
    return "#coreai.%s<%s>" % (kind, ", ".join("%s = %d" % item for item in fields.items()))


class Planting:
    """The body being edited, for a script whose name prefixes its complaints."""

    def __init__(self, script, kind, body):
        self.script, self.kind, self.body = script, kind, body

    def fail(self, why):
        sys.exit(f"{self.script}: {why}")

    def first(self, pattern):
        m = re.search(pattern, self.body)
        if not m:
            self.fail(f"nothing to plant '{self.kind}' into ({pattern})")
        return m

    def matching(self, pattern, wanted=lambda fields: True):
        """The first match of `pattern` whose placement fields are wanted."""
        for m in re.finditer(pattern, self.body):
            if wanted(fields_of(m.group("fields"))):
                return m
        self.fail(f"nothing to plant '{self.kind}' into ({pattern})")

    def replace(self, m, new, group=0):
        """Replaces what `m` (or its `group`) matched."""
        start, end = m.span(group)
        self.body = self.body[:start] + new + self.body[end:]

    def set_fields(self, m, **changes):
        """The placement whose fields `m` matched, with some fields changed."""
        fields = dict(fields_of(m.group("fields")), **changes)
        self.replace(m, ", ".join("%s = %d" % item for item in fields.items()), "fields")


def offset_of(m):
    return fields_of(m.group("fields"))["offset"]


def plant(p):
    kind = p.kind
    if kind == "misaligned":
        m = p.matching(HEAP.pattern, lambda f: f["offset"] > 0)
        p.set_fields(m, offset=offset_of(m) + 8)
    elif kind == "size-smaller":
        # Refused by the dialect's verifier (the size is the type's), not the replay.
        m = p.matching(HEAP.pattern)
        p.set_fields(m, size=fields_of(m.group("fields"))["size"] // 2)
    elif kind == "two-places":
        # Refused by the dialect's verifier (one placement per result), not the replay.
        m = p.matching(HEAP.pattern)
        p.replace(m, m.group("entry") + ", #coreai.output<0>", "entry")
    elif kind == "no-place":
        # An op whose only annotation is its heap placement (not in place) loses it.
        m = p.matching(r"\{(?P<rest>coreai\.overload = \"\w+\"), " + HEAP.pattern + r"\}",
                       lambda f: "in_place" not in f)
        p.replace(m, "{" + m.group("rest") + "}")
    elif kind == "overlap":
        first = p.matching(HEAP.pattern)
        m = p.matching(HEAP.pattern, lambda f: f["offset"] != offset_of(first))
        p.set_fields(m, offset=offset_of(first))
    elif kind in ("partial-overlap", "lent-partial-overlap"):
        # A unary op written in place over its operand, shifted by one
        # alignment step: still aligned, but only partly over the operand.
        where = "heap" if kind == "partial-overlap" else "lent"
        step = int(p.first(r"#coreai\.plan<[^>]*?\balignment = (\d+)").group(1))
        m = p.matching(r"%\d+ = \"torch\.aten\.\w+\"\(%\d+\) \{[^\n]*?#coreai\." + where
                       + r"<(?P<fields>[^>]*in_place = 0[^>]*)>",
                       lambda f: f["size"] > step)
        p.set_fields(m, offset=offset_of(m) + step)
    elif kind == "wrong-output":
        m = p.first(r"#coreai\.output<(\d+)>")
        p.body = p.body.replace(m.group(0), f"#coreai.output<{int(m.group(1)) - 1}>")
    elif kind == "wrong-state":
        states = re.findall(r"#coreai\.state<arg = (\d+)>", p.body)
        a, b = states[0], next(s for s in states if s != states[0])
        p.replace(p.first(rf"#coreai\.state<arg = {a}>"), f"#coreai.state<arg = {b}>")
    elif kind == "input-written":
        inputs = re.findall(r"%arg(\d+): [^{]*\{coreai\.kind = \"input\"", p.body)
        p.replace(p.first(r"#coreai\.state<arg = \d+>"), f"#coreai.state<arg = {inputs[-1]}>")
    elif kind == "heap-smaller":
        m = p.first(r"(#coreai\.plan<[^>]*?\bheap = )(\d+)")
        p.replace(m, m.group(1) + str(int(m.group(2)) // 2))
    elif kind == "in-place-not-elementwise":
        # The first mm written over its operand's buffer: needs that operand's
        # offset. mm(%a, %b): take the buffer %a's op sits at.
        on_heap = r" \{[^\n]*?" + HEAP.pattern
        m = p.first(r"%(\d+) = \"torch\.aten\.mm\"\(%(\d+), %(\d+)\)" + on_heap)
        view = p.first(rf"%{m.group(2)} = \"torch\.aten\.view\"\(%(\d+)\)")
        source = p.first(rf"%{view.group(1)} = \"torch\.aten\.\w+\"\([^)]*\)" + on_heap)
        p.set_fields(m, offset=offset_of(source))
    elif kind == "state-from-other-state":
        # Both caches have the same type: the update of one computed from the
        # other. Placements stay consistent; only the dataflow changed.
        m = p.first(r"\"torch\.aten\.index_put\"\(%arg(\d+), ")
        states = re.findall(r"\"torch\.aten\.index_put\"\(%arg(\d+), ", p.body)
        other = next(s for s in states if s != m.group(1))
        p.replace(m, f"\"torch.aten.index_put\"(%arg{other}, ")
    elif kind == "changed-attribute":
        m = p.first(r"\"torch\.aten\.pow\"\((%\d+)\) \{([^}]*)coreai\.overload = \"default\"")
        p.replace(m, m.group(0).replace("coreai.overload = \"default\"", "coreai.overload = \"Tensor_Tensor\""))
    elif kind in ("workspace-dropped", "workspace-halved"):
        # The first step's workspace dropped or halved, with the plan's
        # total mended to match: only the target's rules can tell.
        m = p.first(r", coreai\.workspace = #coreai\.(heap|lent)<(?P<fields>[^>]*)>")
        size = fields_of(m.group("fields"))["size"]
        removed = size if kind == "workspace-dropped" else size - size // 2
        if kind == "workspace-dropped":
            p.replace(m, "")
        else:
            p.replace(m, m.group(0).replace(f"size = {size}", f"size = {size // 2}"))
        total = p.first(r"(workspace_bytes = )(\d+)")
        p.replace(total, total.group(1) + str(int(total.group(2)) - removed))
    elif kind == "input-made-state":
        # The argument kinds decide what the replay lets the function write.
        p.replace(p.first(r"coreai\.kind = \"input\""), "coreai.kind = \"state\"")
    else:
        p.fail(f"unknown fault '{kind}'")


def main(script, plant_one):
    path, kind, out = sys.argv[1:4]
    text = open(path).read()
    head, body, tail = split_first_function(text, sys.argv[4] if len(sys.argv) > 4 else None)
    p = Planting(script, kind, body)
    plant_one(p)
    planted = head + p.body + tail
    if planted == text:
        p.fail(f"'{kind}' changed nothing")
    open(out, "w").write(planted)


if __name__ == "__main__":
    main("plant.py", plant)

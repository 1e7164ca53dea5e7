#!/usr/bin/env python3
"""Plants one fault into the first planned function of a planned graph.

    plant.py PLANNED.mlir KIND OUT.mlir

Each kind is a mistake a planner (or a hand edit) could make; the replay
must reject every one of them. The edit is checked to have happened, so a
test using this cannot pass by planting nothing.
"""
import re
import sys

path, kind, out = sys.argv[1:4]
text = open(path).read()
start = text.index("func.func @")
end = text.find("func.func @", start + 1)
end = len(text) if end < 0 else end
head, body, tail = text[:start], text[start:end], text[end:]

OFFSET = re.compile(r"coreai\.offsets = array<i64: (\d+)>, (coreai\.overload = \"\w+\", )?coreai\.sizes = array<i64: (\d+)>")


def heap_ops():
    return [m for m in OFFSET.finditer(body)]


def first(pattern):
    m = re.search(pattern, body)
    if not m:
        sys.exit(f"plant.py: nothing to plant '{kind}' into ({pattern})")
    return m


def replace(m, new):
    global body
    body = body[:m.start()] + new + body[m.end():]


if kind == "misaligned":
    m = next(m for m in heap_ops() if int(m.group(1)) > 0)
    replace(m, m.group(0).replace(f"array<i64: {m.group(1)}>", f"array<i64: {int(m.group(1)) + 8}>", 1))
elif kind == "size-smaller":
    m = heap_ops()[0]
    size = int(m.group(3))
    replace(m, m.group(0).replace(f"coreai.sizes = array<i64: {size}>", f"coreai.sizes = array<i64: {size // 2}>"))
elif kind == "no-place":
    m = first(r"\{coreai\.offsets = array<i64: \d+>, (coreai\.overload = \"\w+\"), coreai\.sizes = array<i64: \d+>\}")
    replace(m, "{" + m.group(1) + "}")
elif kind == "overlap":
    ops = heap_ops()
    m = next(m for m in ops if m.group(1) != ops[0].group(1))
    replace(m, m.group(0).replace(f"array<i64: {m.group(1)}>", f"array<i64: {ops[0].group(1)}>", 1))
elif kind == "wrong-output":
    m = first(r"coreai\.output = array<i64: (\d+)>")
    other = int(m.group(1)) - 1
    body = body.replace(m.group(0), f"coreai.output = array<i64: {other}>")
elif kind == "wrong-state":
    states = re.findall(r"coreai\.state = array<i64: (\d+)>", body)
    a, b = states[0], next(s for s in states if s != states[0])
    m = first(rf"coreai\.state = array<i64: {a}>")
    replace(m, f"coreai.state = array<i64: {b}>")
elif kind == "input-written":
    inputs = re.findall(r"%arg(\d+): [^{]*\{coreai\.kind = \"input\"", body)
    m = first(r"coreai\.state = array<i64: \d+>")
    replace(m, f"coreai.state = array<i64: {inputs[-1]}>")
elif kind == "heap-smaller":
    m = first(r"heap = (\d+) : i64")
    replace(m, f"heap = {int(m.group(1)) // 2} : i64")
elif kind == "in-place-not-elementwise":
    # The first mm written over its operand's buffer: needs that operand's
    # offset. mm(%a, %b): take the buffer %a's op sits at.
    m = first(r"%(\d+) = \"torch\.aten\.mm\"\(%(\d+), %(\d+)\) \{coreai\.offsets = array<i64: (\d+)>")
    view = first(rf"%{m.group(2)} = \"torch\.aten\.view\"\(%(\d+)\)")
    src = first(rf"%{view.group(1)} = \"torch\.aten\.\w+\"\([^)]*\) \{{(?:coreai\.in_place = array<i64: \d+>, )?coreai\.offsets = array<i64: (\d+)>")
    replace(m, m.group(0).replace(f"array<i64: {m.group(4)}>", f"array<i64: {src.group(1)}>"))
elif kind == "state-from-other-state":
    # Both caches have the same type: the update of one computed from the
    # other. Placements stay consistent; only the dataflow changed.
    m = first(r"\"torch\.aten\.index_put\"\(%arg(\d+), ")
    states = re.findall(r"\"torch\.aten\.index_put\"\(%arg(\d+), ", body)
    other = next(s for s in states if s != m.group(1))
    replace(m, f"\"torch.aten.index_put\"(%arg{other}, ")
elif kind == "changed-attribute":
    m = first(r"\"torch\.aten\.pow\"\((%\d+)\) \{([^}]*)coreai\.overload = \"default\"")
    replace(m, m.group(0).replace("coreai.overload = \"default\"", "coreai.overload = \"Tensor_Tensor\""))
elif kind == "input-made-state":
    # The argument kinds decide what the replay lets the function write.
    m = first(r"coreai\.kind = \"input\"")
    replace(m, "coreai.kind = \"state\"")
else:
    sys.exit(f"plant.py: unknown fault '{kind}'")

planted = head + body + tail
if planted == text:
    sys.exit(f"plant.py: '{kind}' changed nothing")
open(out, "w").write(planted)

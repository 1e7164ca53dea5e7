#!/usr/bin/env python3
"""Plants one borrowing fault into the first function of a planned graph.

    plant_borrow.py PLANNED.mlir KIND OUT.mlir

  into-output  the heap buffer that lives longest moves into the output
               whose storage the plan borrows, at offset 0: it is still
               needed when the output's own value is written there
  misaligned   a borrowed offset moves by 8 bytes

The edit is checked to have happened, so a test cannot pass by planting
nothing.
"""
import re
import sys

path, kind, out = sys.argv[1:4]
text = open(path).read()
start = text.index("func.func @")
end = text.find("func.func @", start + 1)
end = len(text) if end < 0 else end
head, body, tail = text[:start], text[start:end], text[end:]

BORROWED = re.compile(r"coreai\.borrow = array<i64: (\d+)>, coreai\.offsets = array<i64: (\d+)>")
HEAP = re.compile(r"\{coreai\.offsets = array<i64: (\d+)>")

borrowed = list(BORROWED.finditer(body))
if not borrowed:
    sys.exit("plant_borrow.py: the plan borrows nothing")
if kind == "into-output":
    m = HEAP.search(body)
    if not m:
        sys.exit("plant_borrow.py: no heap buffer")
    output = borrowed[0].group(1)
    new = f"{{coreai.borrow = array<i64: {output}>, coreai.offsets = array<i64: 0>"
    body = body[:m.start()] + new + body[m.end():]
elif kind == "misaligned":
    m = borrowed[0]
    new = m.group(0).replace(f"coreai.offsets = array<i64: {m.group(2)}>",
                             f"coreai.offsets = array<i64: {int(m.group(2)) + 8}>")
    body = body[:m.start()] + new + body[m.end():]
else:
    sys.exit(f"plant_borrow.py: unknown kind '{kind}'")
if head + body + tail == text:
    sys.exit("plant_borrow.py: nothing changed")
open(out, "w").write(head + body + tail)

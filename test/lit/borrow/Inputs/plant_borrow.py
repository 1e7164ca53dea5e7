#!/usr/bin/env python3
"""Plants one borrowing fault into the first function of a planned graph.

    plant_borrow.py PLANNED.mlir KIND OUT.mlir

  into-output  the first heap buffer (not written in place) moves into the
               output whose storage the plan borrows, at offset 0: it is
               still needed when the output's own value is written there
  misaligned   a borrowed offset moves by 8 bytes

Borrowed scratch is `#coreai.lent<output = k, offset = ..., size = ...>`;
the edits are plant.py's (replay/Inputs), so the two agree on the
placements' text. The edit is checked to have happened, so a test cannot
pass by planting nothing.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "replay", "Inputs"))
import plant  # noqa: E402  (found through the path above)

# An op whose one result is scratch in an output's storage.
LENT = r"coreai\.placement = \[(?P<entry>#coreai\.lent<(?P<fields>[^>]*)>)\]"


def plant_borrow(p):
    lent = p.matching(LENT)
    if p.kind == "into-output":
        m = p.matching(plant.HEAP.pattern, lambda fields: "in_place" not in fields)
        size = plant.fields_of(m.group("fields"))["size"]
        output = plant.fields_of(lent.group("fields"))["output"]
        p.replace(m, plant.placement("lent", {"output": output, "offset": 0, "size": size}), "entry")
    elif p.kind == "misaligned":
        p.set_fields(lent, offset=plant.offset_of(lent) + 8)
    else:
        p.fail(f"unknown kind '{p.kind}'")


if __name__ == "__main__":
    plant.main("plant_borrow.py", plant_borrow)

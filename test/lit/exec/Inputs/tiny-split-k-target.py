#!/usr/bin/env python3
"""Writes h18p's target with its split-K threshold scaled to tiny widths.

h18p runs a matrix product split-K (with f32 partial outputs as workspace)
only where K is at least 2048, so no product of the tiny graphs ever has a
choice of kernel and none is downgraded. This target, `h18p-tiny`, is h18p
with that one bound lowered to 32: the same fusion, recompute, variants and
costs, so the planner downgrades products of the tiny graphs where their
split-K workspace sets the peak, and the executor can run those plans.

    tiny-split-k-target.py H18P_JSON OUT_DIR
"""
import json
import os
import sys

BOUND, TINY_BOUND = "(in0.dim(-1) >= 2048)", "(in0.dim(-1) >= 32)"


def main(source, folder):
    with open(source) as f:
        target = json.load(f)
    target["name"] = "h18p-tiny"
    target["description"] = "h18p with split-K from K >= 32 (tests only)"
    scaled = 0
    for rule in target["workspace"]:
        for variant in rule.get("variants", []):
            if BOUND in variant["bytes"]:
                variant["bytes"] = variant["bytes"].replace(BOUND, TINY_BOUND)
                scaled += 1
    if scaled == 0:
        sys.exit(f"{source}: no variant bounded by {BOUND}; update this script")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "h18p-tiny.json"), "w") as f:
        json.dump(target, f, indent=1)
    print(f"h18p-tiny: {scaled} split-K variants from K >= 32")


if __name__ == "__main__":
    main(*sys.argv[1:])

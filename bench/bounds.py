#!/usr/bin/env python3
"""Heap against its lower bounds on every graph we have (issue 25).

    python3 bench/bounds.py [--build DIR] [--base DIR] [--shared DIR] [--update]

Plans every static graph of ../shared/graphs and every decoder archive of
bench/decoders (full width and tiny) with `coreai-plan plan --target h18p
--json`, once with the target's defaults (fusion on) and once with
`--no-fusion`, and tabulates per entry: the heap, the old bound (as if
buffers could be split between the heap and the lent outputs,
`lower_bound_splittable`), the new bound (`lower_bound`: indivisible
buffers, docs/SOLVERS.md "Bounds"; both for the op order the plan uses),
how optimality was shown (`proof`), the heap's gap to the new bound and
the solver's time. With --base (the build directory of the previous
commit), each entry is planned by that build too, in the same run, and its
heap is shown beside. Writes the `bounds` section of docs/benchmarks.md
with --update.
"""
import argparse
import glob
import json
import os
import subprocess
import tempfile
import time

from benchlib import ROOT, publish

HEADER = ("| graph | entry | S | fusion | heap before (B) | heap (B) | old bound (B) "
          "| new bound (B) | heap / new bound | proof | solver (s) | plan (s) |\n"
          "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")


def inputs(shared):
    found = []
    if os.path.isdir(os.path.join(shared, "graphs")):
        for pattern in ("graphs/*.mlir", "graphs/tiny/*.mlir"):
            found += [g for g in sorted(glob.glob(os.path.join(shared, pattern)))
                      if ".dyn." not in os.path.basename(g)]
    # Static S only: the dynamic ones are bench/parametric.py's.
    for pattern in ("bench/decoders/*.pt2", "bench/decoders/tiny/*.pt2",
                    "bench/speed/*.pt2"):
        found += [g for g in sorted(glob.glob(os.path.join(ROOT, pattern)))
                  if ".dyn." not in os.path.basename(g)]
    return found


def plan(tool, model, fusion, out):
    command = [tool, "plan", model, "--target", "h18p", "--json", "-o", out]
    if not fusion:
        command.append("--no-fusion")
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit("%s failed: %s" % (" ".join(command), result.stderr))
    return json.loads(result.stdout)["entries"], wall


def rows(tool, base_tool, models):
    lines = []
    summary = {mode: {"entries": 0, "within": 0, "proven": 0, "improved": 0,
                      "worse": 0}
               for mode in ("h18p", "off")}
    with tempfile.TemporaryDirectory() as scratch:
        for model in models:
            for fusion in (True, False):
                mode = "h18p" if fusion else "off"
                entries, wall = plan(tool, model, fusion, scratch)
                before = {}
                if base_tool:
                    old, _ = plan(base_tool, model, fusion, scratch)
                    before = {(e["entry"], e["chunk"]): e["heap"] for e in old}
                for e in entries:
                    heap, bound = e["heap"], e["lower_bound"]
                    ratio = heap / bound if bound else 1.0
                    was = before.get((e["entry"], e["chunk"]))
                    counts = summary[mode]
                    counts["entries"] += 1
                    counts["within"] += ratio <= 1.01
                    counts["proven"] += e["optimal"]
                    counts["improved"] += was is not None and heap < was
                    counts["worse"] += was is not None and heap > was
                    lines.append("| %s | %s | %d | %s | %s | %d | %d | %d | %.4f | %s | %.3f | %.1f |" % (
                        os.path.basename(model), e["entry"], e["chunk"], mode,
                        "-" if was is None else str(was), heap,
                        e["lower_bound_splittable"], bound, ratio,
                        e["proof"], e["solver_seconds"], wall))
    return lines, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--base", help="build directory of the previous commit")
    parser.add_argument("--shared", default=os.environ.get(
        "COREAI_SHARED_DIR", os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args()
    tool = os.path.join(args.build, "bin", "coreai-plan")
    base_tool = os.path.join(args.base, "bin", "coreai-plan") if args.base else None
    models = inputs(args.shared)
    lines, summary = rows(tool, base_tool, models)
    text = "\n".join([
        "## Heaps against their bounds (issue 25, `bench/bounds.py`)",
        "",
        "Every static graph of `../shared/graphs`, every decoder archive of",
        "`bench/decoders` (Llama-, SmolLM2- and Qwen3-shaped, GQA, eager and sdpa",
        "attention, S = 1 and 32 full width, 1 and 8 tiny) and the graphs of",
        "`bench/speed` (Gemma-3-1B-shaped, ViT-B/16), planned with",
        "`--target h18p` and the target's fusion (*h18p*), and again with",
        "`--no-fusion` (*off*). *Old bound*: the bound under borrowing as if",
        "buffers could be split between the heap and the lent outputs; *new",
        "bound*: whole buffers (docs/SOLVERS.md, \"Bounds\"); both for the op",
        "order the plan uses. *Proof*: `meets-bound` (the heap equals the new",
        "bound), `exact-search` (the search proved a heap above it minimal),",
        "`none`: not proven (the exact search, over the heap and the lent outputs",
        "together where there are any, stopped at its time limit). *Heap before*:",
        "the heap the previous commit (`--base`) plans, in the same run.",
        "*Solver*: the solver's time, the search included; *plan*: wall time of",
        "the `plan` call, import included.",
        "",
    ] + ["%s: %d of %d entries within 1 %% of the new bound, %d proven optimal, "
         "%d with a smaller heap than before, %d with a larger one." % (
             "With the target's fusion" if mode == "h18p" else "Without fusion",
             c["within"], c["entries"], c["proven"], c["improved"],
             c["worse"])
         for mode, c in summary.items()] + [
        "",
        HEADER,
    ] + lines)
    publish(text, "bounds", args.update)


if __name__ == "__main__":
    main()

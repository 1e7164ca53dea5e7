#!/usr/bin/env python3
"""How long planning one decoder method without fusion takes (issue 40).

    python3 bench/speed/speed.py [--build DIR] [--base DIR] [--shared DIR]
        [--update]

Plans every static decoder archive of bench/decoders (full width), the
graphs of bench/speed (a Gemma-3-1B-shaped decoder at S = 1 and 32, ViT-B/16;
export_speed_graphs.py) and the static graphs of ../shared/graphs with
`coreai-plan plan --no-fusion`, once for `--target h18p` (its lent outputs,
in place, no fusion) and once for `--target generic` (what ExecuTorch's
portable kernels run: nothing in place, nothing lent), with this build and,
with --base, the previous commit's, one right after the other so that both
see the same load. Per graph: the wall time of the `plan` call (import
included), the CPU time of the process (user + system), the solver's time,
the heap, and whether it is proven minimal or how far above the bound it
is. Writes the `speed` section of docs/benchmarks.md with --update.
"""
import glob
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from benchlib import ROOT, parse_arguments, publish  # noqa: E402

TARGETS = ("h18p", "generic")


def inputs(shared):
    found = [g for g in sorted(glob.glob(os.path.join(ROOT, "bench/decoders/*.pt2")))
             if ".dyn." not in g]
    found += sorted(glob.glob(os.path.join(ROOT, "bench/speed/*.pt2")))
    found += [g for g in sorted(glob.glob(os.path.join(shared, "graphs/*.mlir")))
              if ".dyn." not in g and ".multi." not in g]
    return found


def plan(tool, model, target, out):
    command = [tool, "plan", model, "--target", target, "--no-fusion",
               "--json", "-o", out]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if result.returncode != 0:
        raise SystemExit("%s failed: %s" % (" ".join(command), result.stderr))
    return json.loads(result.stdout)["entries"], wall, cpu


def proof(entry):
    if entry["proof"] != "none":
        return entry["proof"]
    return "+%.2f %%" % (100.0 * (entry["heap"] / entry["lower_bound"] - 1))


def measure(tool, base_tool, models):
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for model in models:
            for target in TARGETS:
                new = plan(tool, model, target, scratch)
                old = plan(base_tool, model, target, scratch) if base_tool else None
                for k, e in enumerate(new[0]):
                    was = old[0][k] if old else None
                    rows.append(dict(graph=os.path.basename(model), target=target,
                                     entry=e, was=was, wall=new[1], cpu=new[2],
                                     old_wall=old[1] if old else None,
                                     old_cpu=old[2] if old else None))
    return rows


def table(rows, based):
    header = ("| graph | target | S | buffers | heap before (B) | heap (B) | proof "
              "| wall before (s) | wall (s) | CPU before (s) | CPU (s) "
              "| solver before (s) | solver (s) |\n"
              "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: "
              "| ---: | ---: | ---: | ---: |")
    lines = [header]
    for r in rows:
        e, was = r["entry"], r["was"]
        dash = "-"
        lines.append("| %s | %s | %d | %d | %s | %d | %s | %s | %.2f | %s | %.2f | %s | %.2f |" % (
            r["graph"], r["target"], e["chunk"], e["buffers"],
            str(was["heap"]) if was else dash, e["heap"], proof(e),
            "%.2f" % r["old_wall"] if based else dash, r["wall"],
            "%.2f" % r["old_cpu"] if based else dash, r["cpu"],
            "%.2f" % was["solver_seconds"] if was else dash,
            e["solver_seconds"]))
    return lines


def main():
    args = parse_arguments(__doc__.splitlines()[0], base=True)
    tool = os.path.join(args.build, "bin", "coreai-plan")
    base_tool = os.path.join(args.base, "bin", "coreai-plan") if args.base else None
    rows = measure(tool, base_tool, inputs(args.shared))
    worse = sum(1 for r in rows if r["was"] and r["entry"]["heap"] > r["was"]["heap"])
    better = sum(1 for r in rows if r["was"] and r["entry"]["heap"] < r["was"]["heap"])
    unproven = [r for r in rows if r["entry"]["proof"] == "none"]
    slowest = max(rows, key=lambda r: r["wall"])
    summary = [
        "## Planning one method without fusion (issue 40, `bench/speed/speed.py`)",
        "",
        "Each static decoder of `bench/decoders` (full width), the graphs of",
        "`bench/speed` (Gemma-3-1B-shaped at S = 1 and 32, ViT-B/16) and the",
        "static graphs of `../shared/graphs`, planned with `--no-fusion` for",
        "`--target h18p` and `--target generic` (no reuse a runtime must",
        "support: what ExecuTorch's portable kernels run), by this build and",
        "(*before*) the previous commit's, one after the other in the same run.",
        "*Wall*: the `plan` call, import included; *CPU*: user + system time of",
        "the process; *solver*: the search of the entry's plan. *Proof*:",
        "`meets-bound`, `exact-search`, or how far above the lower bound an",
        "unproven heap is. The machine is shared (2 cores, other builds",
        "running), so wall times are about twice the CPU times.",
        "",
        "%d entries: the slowest `plan` takes %.2f s wall (%s, %s; %.2f s before "
        "it); %s; heaps: %d smaller than before, %d larger." % (
            len(rows), slowest["wall"], slowest["graph"], slowest["target"],
            slowest["old_wall"] or 0,
            "every heap proven minimal" if not unproven else
            "unproven: " + ", ".join("%s %s (%s)" % (r["graph"], r["target"],
                                                     proof(r["entry"]))
                                     for r in unproven),
            better, worse),
        "",
    ]
    publish("\n".join(summary + table(rows, bool(base_tool))), "speed",
            args.update)


if __name__ == "__main__":
    main()

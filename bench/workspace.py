#!/usr/bin/env python3
"""Heap without and with kernel workspace (docs/WORKSPACE.md): the shared
Gemma bundle, the dynamic Gemma at S = 1, 16, 32, 64 and Qwen3-VL planned for
h18p (and MobileNetV2, the convolutions' im2col) with `--no-workspace` and
with its workspace rules, per entry and S;
then `coreai-plan fit --heap-total 145920` on the dynamic Gemma, bisecting
1..64, with and without workspace, for the largest S that fits.

    bench/workspace.py [--build BUILD_DIR] [--shared SHARED_DIR] [--update]

Prints the section as Markdown; --update rewrites the `workspace` section
of docs/benchmarks.md.
"""
import json
import os
import subprocess
import sys
import tempfile

from benchlib import parse_arguments, publish

# name, graphs (one bundle), extra plan arguments
BUNDLES = [
    ("Gemma bundle", ["gemma4-e2b.multi.mlir"], []),
    ("Gemma dynamic", ["gemma4-e2b.dyn.mlir"], ["--chunks", "1,16,32,64"]),
    ("Qwen3-VL", ["qwen3-vl-2b-text.s1.mlir", "qwen3-vl-2b-text.s64.mlir"], []),
    # The one graph with convolutions: im2col workspace.
    ("MobileNetV2", ["mobilenet_v2.mlir"], []),
]
HEAP_TOTAL = 145920


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 2):
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr}")
    return r


def plan(tool, shared, graphs, extra, outdir):
    cmd = [tool, "plan"] + [os.path.join(shared, "graphs", g) for g in graphs]
    cmd += ["--target", "h18p", "-o", outdir, "--json"] + extra
    return {(e["entry"], e["chunk"]): e for e in json.loads(run(cmd).stdout)["entries"]}


def fit(tool, shared, extra):
    cmd = [tool, "fit", "--heap-total", str(HEAP_TOTAL),
           os.path.join(shared, "graphs", "gemma4-e2b.dyn.mlir"), "--target", "h18p",
           "--chunks", "1..64", "--json"] + extra
    answer = json.loads(run(cmd).stdout)
    return {e["entry"]: e.get("largest_fitting") for e in answer["entries"]}


def main():
    args = parse_arguments(__doc__.splitlines()[0])
    tool = os.path.join(args.build, "bin", "coreai-plan")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, graphs, extra in BUNDLES:
            heaps = {}
            for label, flags in [("off", ["--no-workspace"]), ("on", []),
                                 ("off-nb", ["--no-workspace", "--no-borrow-outputs"]),
                                 ("on-nb", ["--no-borrow-outputs"])]:
                heaps[label] = plan(tool, args.shared, graphs, extra + flags, os.path.join(tmp, label))
            for key in sorted(heaps["on"], key=lambda k: (k[0], k[1])):
                e = heaps["on"][key]
                rows.append((name, key[0], key[1], heaps["off"][key]["heap"], e["heap"],
                             heaps["off-nb"][key]["heap"], heaps["on-nb"][key]["heap"], e["workspaces"],
                             e["workspace_bytes"]))
    lines = [
        "Heap without and with kernel workspace (`bench/workspace.py`; h18p's rules, "
        "docs/WORKSPACE.md: a model of its kernels, not a measurement), with h18p's defaults and with "
        "`--no-borrow-outputs` (no output lent as scratch). \"workspaces\" counts the steps with scratch, "
        "\"bytes\" sums them over time. A workspace adds to the heap only where it is live at the peak "
        "and neither a lent output nor the packing's slack holds it.",
        "",
        "| graphs | entry | S | heap without | heap with | growth | no borrowing: without | with | growth "
        "| workspaces | bytes |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, entry, s, off, on, off_nb, on_nb, count, total in rows:
        lines.append(f"| {name} | @{entry} | {s} | {off:,} | {on:,} | {on - off:+,} | {off_nb:,} | {on_nb:,} "
                     f"| {on_nb - off_nb:+,} | {count} | {total:,} |")
    with_ws = fit(tool, args.shared, [])
    without = fit(tool, args.shared, ["--no-workspace"])
    lines += ["", f"Largest S of the dynamic Gemma whose heap fits {HEAP_TOTAL:,} bytes (`coreai-plan fit "
              "--heap-total 145920 gemma4-e2b.dyn.mlir --target h18p --chunks 1..64`, bisected):", ""]
    lines += ["| entry | without workspace | with workspace |", "| --- | ---: | ---: |"]
    for entry in sorted(with_ws):
        lines.append(f"| @{entry} | {without.get(entry) or 'none'} | {with_ws[entry] or 'none'} |")
    publish("\n".join(lines), "workspace", args.update)


if __name__ == "__main__":
    main()

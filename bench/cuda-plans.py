#!/usr/bin/env python3
"""Plans for the `cuda` target (issue 46): the shared graphs and the
last-token decoders planned for `cuda` and for `h18p` on this machine's
CPU, each plan replayed against the target (`coreai-plan-opt
--coreai-verify-replay=target=...`), beside Inductor's memory_planning
scratch where bench/decoders/inductor.json has it.

    bench/cuda-plans.py [--build BUILD] [--shared DIR] [--update]

Graphs: Gemma 4 E2B's bundle (`main` S=1, `prefill` S=32), Qwen3-VL-2B's
text decoder at S=64, the tiny graphs of ../shared/graphs/tiny (static S),
and every last-token prefill of bench/decoders/last-token/ (S=32, S=128).
A `cuda` heap is the plan for targets/cuda.json (its figures measured on
the GPU: docs/WORKSPACE.md, "The cuda target"); an `h18p` heap is that
target's model. Fails when a plan or its replay fails. The section it
writes is `cuda-plans` of docs/benchmarks.md.
"""
import glob
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

from benchlib import ROOT, parse_arguments, publish


def kernel_choices():
    """bench/kernel-choices.py as a module: its archive list and Inductor
    figures, so both tables name the same programs and figures."""
    spec = importlib.util.spec_from_file_location(
        "kernel_choices", os.path.join(ROOT, "bench", "kernel-choices.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def plan(build, path, target, extra=()):
    """The manifest's entries of `plan --target TARGET`, after replaying the
    planned IR against the target; and the seconds the plan took."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [os.path.join(build, "bin", "coreai-plan"), "plan", path, "--target", target,
               "-o", out, "--json", *extra]
        started = time.monotonic()
        done = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.monotonic() - started
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr}")
        planned = glob.glob(os.path.join(out, "*.planned.mlir"))
        for mlir in planned:
            replay = [os.path.join(build, "bin", "coreai-plan-opt"), "--allow-unregistered-dialect",
                      f"--coreai-verify-replay=target={target}", mlir, "-o", os.devnull]
            checked = subprocess.run(replay, capture_output=True, text=True)
            if checked.returncode != 0:
                sys.exit(f"{' '.join(replay)} failed: {checked.stderr}")
        with open(os.path.join(out, "plan.json")) as fp:
            manifest = json.load(fp)
    return manifest["entries"], seconds


def graphs(shared):
    """(label, path, plan arguments) of the shared graphs."""
    found = [("gemma4-e2b bundle", os.path.join(shared, "graphs", "gemma4-e2b.multi.mlir"), []),
             ("qwen3-vl-2b-text", os.path.join(shared, "graphs", "qwen3-vl-2b-text.s64.mlir"), [])]
    for path in sorted(glob.glob(os.path.join(shared, "graphs", "tiny", "*.s*.mlir"))):
        found.append((os.path.basename(path)[:-len(".mlir")], path, []))
    return found


def dtype_text(entry):
    records = entry.get("kernel_dtypes", [])
    if not records:
        return "-"
    return "; ".join(f"{r['results']} {r['op'].split('.')[-1]} {r['graph_dtype']}->{r['kernel_dtype']} "
                     f"(+{r['extra_bytes']:,} B)" for r in records)


def fmt(value):
    return "-" if value is None else f"{value:,}"


def rows_of(label, path, build, inductor=None):
    cuda, cuda_s = plan(build, path, "cuda")
    h18p, _ = plan(build, path, "h18p")
    by_name = {(e["entry"], e["chunk"]): e for e in h18p}
    rows = []
    for entry in cuda:
        other = by_name.get((entry["entry"], entry["chunk"]), {})
        rows.append(dict(label=label, entry=entry["entry"], S=entry["chunk"], cuda=entry["heap"],
                         workspace=sum(b["size"] for b in entry["buffers"] if b.get("workspace")),
                         h18p=other.get("heap"), inductor=inductor, dtypes=dtype_text(entry),
                         seconds=cuda_s))
    return rows


def table(rows):
    lines = ["| graph | entry | S | Inductor memory_planning | `cuda` heap | ratio | `cuda` workspaces, "
             "summed over their steps | `h18p` heap | result dtypes the target changes | plan s |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |"]
    for r in rows:
        ratio = f"{r['cuda'] / r['inductor']:.2f}" if r["inductor"] else "-"
        lines.append(f"| {r['label']} | @{r['entry']} | {r['S']} | {fmt(r['inductor'])} | {fmt(r['cuda'])} | "
                     f"{ratio} | {fmt(r['workspace'])} | {fmt(r['h18p'])} | {r['dtypes']} | "
                     f"{r['seconds']:.1f} |")
    return "\n".join(lines)


def main():
    args = parse_arguments(__doc__.split("\n\n")[0])
    choices = kernel_choices()
    inductor, sources = choices.inductor_figures([choices.MEASURED])
    rows = []
    for label, path, _ in graphs(args.shared):
        rows += rows_of(label, path, args.build)
    for path, fields in choices.archives():
        if os.path.dirname(path) != choices.LAST_TOKEN or fields["form"] != "core-aten":
            continue
        figure = inductor.get(choices.inductor_id(fields))
        label = f"{fields['family']} ({fields['attn']}, last token)"
        rows += rows_of(label, path, args.build, figure[0] if figure else None)
    above = [r for r in rows if r["inductor"] and r["cuda"] > r["inductor"]]
    text = "\n".join([
        "`bench/cuda-plans.py --update`: each graph planned on this machine's CPU for `cuda` "
        "(targets/cuda.json, its figures measured on the GPU machine: docs/WORKSPACE.md, "
        "\"The cuda target\") and for `h18p` (that target's model), every plan replayed against its "
        "target. The `cuda` heap is the heap the plan asks for, weights, states and outputs apart; "
        "measured calls on the GPU are docs/EXECUTOR.md's. Inductor's figures:",
        *sources,
        "",
        table(rows),
        "",
        f"{len(above)} of {sum(1 for r in rows if r['inductor'])} `cuda` heaps with an Inductor figure are "
        "above it" + (": " + ", ".join(f"{r['label']} S={r['S']}" for r in above) if above else "."),
    ])
    publish(text, "cuda-plans", args.update)
    return 0


if __name__ == "__main__":
    sys.exit(main())

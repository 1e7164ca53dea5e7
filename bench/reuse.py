#!/usr/bin/env python3
"""Plans every function of every graph in the shared graphs folder at every
chunk size with the reuse techniques switched on one after another, and
replays each plan on a shadow heap (coreai-verify-replay):

  no reuse     the problem as exported: every intermediate its own buffer,
               ops in the exported order (its lower bound: no packing of it
               can be smaller)
  in-place     + elementwise results written over a dying operand
  + placement  + in-place chains ending in an output built in the output's
               storage, state updates written into their state argument
  + reorder    + the memory-aware op order (kept only where it helps)
  + borrow     + intermediates that die before an output is written live in
               that output's storage (h18p's default); its lower bound and
               the gap to it
  + softmax    + softmax written over its input (the "softmax" op class, which
               a target opts into; h18p does not)

    bench/reuse.py [--build BUILD_DIR] [--shared SHARED_DIR] [--update]

Alignment 256 (the h18p target). Prints the table as Markdown; --update
rewrites the `reuse` section of docs/benchmarks.md.
"""
import functools
import os
import re
import subprocess
import sys
import time

from benchlib import ROOT, parse_arguments, publish

ALIGNMENT = 256
CHUNKS = [1, 16, 32, 64]

# (column, pass options on top of the alignment)
CONFIGS = [
    ("no reuse", ""),
    ("in-place", "in-place=true"),
    ("+ placement", "in-place=true output-placement=true state-placement=true"),
    ("+ reorder", "in-place=true output-placement=true state-placement=true "
                  "reorder=true"),
    ("+ borrow outputs", "in-place=true output-placement=true "
                         "state-placement=true reorder=true "
                         "borrow-outputs=true"),
    ("+ softmax in place", "in-place=true output-placement=true "
                           "state-placement=true reorder=true "
                           "borrow-outputs=true in-place-softmax=true"),
]
PLAN = re.compile(r"func\.func @(\w+)\(.*?coreai\.plan = #coreai\.plan<([^>]*)>")


def plans(opt, graph, options, bind=None):
    """{function: {field: value}} of one coreai-plan-opt run, verdict."""
    pipeline = []
    if bind:
        pipeline.append(f"--coreai-specialize-shapes=bind={bind}")
    pipeline.append(f"--coreai-plan-buffers=alignment={ALIGNMENT} {options}")
    pipeline.append("--coreai-verify-replay")
    r = subprocess.run([opt, "--allow-unregistered-dialect", graph, *pipeline],
                       capture_output=True, text=True)
    if r.returncode != 0:
        first = next((l for l in r.stderr.splitlines() if "error:" in l),
                     r.stderr.strip()[:200])
        return None, first
    result = {}
    for name, fields in PLAN.findall(r.stdout):
        result[name] = dict(re.findall(r"(\w+) = (\"[^\"]*\"|\w+)", fields))
    return result, "pass"


@functools.lru_cache(maxsize=None)
def read(path):
    with open(path) as f:
        return f.read()


def sequence_length(graph, function):
    """S of a static function by the rule of exportedChunkSize
    (lib/Exporter/ChunkSize.cpp): its coreai.seq_len, else its input_ids
    width, else 0."""
    text = read(graph)
    m = re.search(rf"func\.func @{function}\((.*?)\)\s*->", text, re.S)
    if not m:
        return 0
    seq = re.search(r"coreai\.seq_len = (\d+)", text[m.start():])
    if seq:
        return int(seq.group(1))
    ids = re.search(r"tensor<1x(\d+)xi64> \{coreai\.kind = \"input\", "
                    r"coreai\.name = \"input_ids\"", m.group(1))
    return int(ids.group(1)) if ids else 0


def main():
    args = parse_arguments(__doc__.splitlines()[0])
    opt = os.path.join(args.build, "bin", "coreai-plan-opt")
    folder = os.path.join(args.shared, "graphs")
    if not os.path.isdir(folder):
        sys.exit(f"reuse.py: no {folder}")

    rows = []
    started = time.time()
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".mlir"):
            continue
        graph = os.path.join(folder, name)
        binds = [None]
        if ".dyn." in name:
            binds = [f"s58={s}" for s in CHUNKS]
        for bind in binds:
            columns, verdicts, lower = {}, [], {}
            for column, options in CONFIGS:
                result, verdict = plans(opt, graph, options, bind)
                verdicts.append(verdict)
                if result is None:
                    continue
                for function, fields in result.items():
                    columns.setdefault(function, {})[column] = int(fields["heap"])
                    if column == "no reuse":
                        lower[function] = int(fields["lower_bound"])
                    if column == "+ reorder":
                        columns[function]["reordered"] = fields.get("reordered")
                    if column == "+ borrow outputs":
                        columns[function]["borrow LB"] = int(fields["lower_bound"])
                        columns[function]["borrow optimal"] = fields.get("optimal")
            for function in sorted(columns):
                s = int(bind.split("=")[1]) if bind else sequence_length(graph, function)
                rows.append((name, function, s, lower.get(function),
                             columns[function], verdicts))
    elapsed = time.time() - started

    lines = [
        f"Heap in bytes per function at alignment {ALIGNMENT}, each technique "
        "added to the ones before (`bench/reuse.py`; "
        f"{len(rows)} plans per column, {elapsed:.0f} s in all on this "
        "machine). `no-reuse LB` is the lower bound of the problem as "
        "exported, which `no reuse` reaches. `borrow LB` is the lower bound "
        "under borrowing (`borrowingLowerBound`, include/coreai-plan/OutputBins.h: "
        "at each op, the live bytes no output can take, because they outlive "
        "every output's first write or fit none, plus the other live bytes "
        "beyond what the outputs can absorb then, buffers whole: the best "
        "subset of the buffers each output may take that fits it, in units "
        "of the alignment (docs/SOLVERS.md, Bounds); raised to the heap's "
        "own bound when every buffer an output could take was borrowed); "
        "`gap` is heap / that bound, `*` where the heap is proven minimal. "
        "`vs no reuse` compares the h18p default (borrowing) with `no "
        "reuse`. `replay` is the verdict of `coreai-verify-replay` on every "
        "plan of the row (all six columns).",
        "",
        "| graph | function | S | no-reuse LB | no reuse | in-place | "
        "+ output/state placement | + reorder | + borrow outputs (h18p "
        "default) | borrow LB | gap | vs no reuse | "
        "+ softmax in place (opt-in) | replay |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: | ---: | ---: | --- |",
    ]
    for name, function, s, lb, heaps, verdicts in rows:
        cells = [f"{heaps[c]:,}" if c in heaps else "error"
                 for c, _ in CONFIGS[:5]]
        softmax = heaps.get("+ softmax in place")
        best = heaps.get("+ borrow outputs")
        if best is not None and heaps.get("no reuse"):
            ratio = f"{best / heaps['no reuse'] * 100:.1f} %"
        else:
            ratio = "n/a"
        if heaps.get("reordered") == "true":
            cells[3] += " (reordered)"
        bound = heaps.get("borrow LB")
        if bound is not None and best is not None:
            cells.append(f"{bound:,}")
            gap = f"{best / bound:.4f}" if bound else "1.0000"
            if heaps.get("borrow optimal") == "true":
                gap += " *"
            cells.append(gap)
        else:
            cells += ["n/a", "n/a"]
        verdict = "pass" if all(v == "pass" for v in verdicts) else \
            next(v for v in verdicts if v != "pass")
        lines.append(f"| {name} | @{function} | {s} | "
                     f"{lb:,} | " + " | ".join(cells) +
                     f" | {ratio} | "
                     f"{f'{softmax:,}' if softmax is not None else 'error'}"
                     f" | {verdict} |")
    publish("\n".join(lines), "reuse", args.update)


if __name__ == "__main__":
    main()

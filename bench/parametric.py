#!/usr/bin/env python3
"""One plan for every S (issue 17): for each dynamic graph, the heap of the
parametric plan (`coreai-plan plan --chunks 1..64`) beside the heap of a plan
made for that S alone (`--chunks S`), at S = 1, 7, 16, 23, 32, 50, 64, and
the size of the manifest of the parametric plan against the manifest of the
four per-S plans 1,16,32,64, and the wall time of the two commands in the
same run (alternated, median of TIMED runs each) with its ratio. With
--base (the previous commit's build directory), its `--chunks 1..64` is
timed in the same alternation, and its heaps and manifest size compared.
Fails when a cut does not say why neither neighbour's plan covers both.

    bench/parametric.py [--build BUILD_DIR] [--base BUILD_DIR]
                        [--shared SHARED_DIR] [--update]

Target h18p (alignment 256, every reuse technique on, borrowing included;
the same again with --no-borrow-outputs). Prints the table as
Markdown; --update rewrites the `parametric` section of docs/benchmarks.md.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from benchlib import ROOT, parse_arguments, publish

RANGE = (1, 64)
TIMED = 3
SHOWN = [1, 7, 16, 23, 32, 50, 64]
LISTED = [1, 16, 32, 64]


def plan(tool, graph, chunks, out, *extra):
    """The --json summary of one `coreai-plan plan` run, and its seconds."""
    started = time.time()
    r = subprocess.run([tool, "plan", graph, "--target", "h18p", "--chunks",
                        chunks, "-o", out, "--json", *extra],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"parametric.py: {os.path.basename(graph)} --chunks {chunks}:"
                 f" {r.stderr.strip()[:300]}")
    return json.loads(r.stdout), time.time() - started


def median_seconds(runs, graph, out):
    """Each (key, tool, chunks) run's wall time, alternated so that drift
    hits all of them."""
    times = {key: [] for key, _, _ in runs}
    for _ in range(TIMED):
        for key, tool, chunks in runs:
            times[key].append(plan(tool, graph, chunks, out + ".timed")[1])
    return {key: sorted(t)[len(t) // 2] for key, t in times.items()}


def check_cut(name, piece):
    """A cut must say why neither plan covers both pieces (mergePieces
    tried the upper one stretched down and the lower one stretched up)."""
    why = piece.get("cut") or ""
    if "stretched down" not in why or "stretched up" not in why:
        sys.exit(f"parametric.py: {name}: the cut below {piece['lo']} does "
                 f"not say why the pieces are not merged: {why!r}")


def graphs(shared):
    found = []
    for folder in ("graphs", os.path.join("graphs", "tiny")):
        path = os.path.join(shared, folder)
        if os.path.isdir(path):
            found += [os.path.join(path, n) for n in sorted(os.listdir(path))
                      if ".dyn." in n and n.endswith(".mlir")]
    exports = os.path.join(shared, "exports")
    if os.path.isdir(exports):
        found += [os.path.join(exports, n) for n in sorted(os.listdir(exports))
                  if ".dyn." in n and n.endswith(".pt2")]
    # Dynamic decoders of other families exported for bench/decoders, if
    # any are there (export_decoders.py writes static ones today).
    for folder in ("decoders", os.path.join("decoders", "tiny")):
        path = os.path.join(ROOT, "bench", folder)
        if os.path.isdir(path):
            found += [os.path.join(path, n) for n in sorted(os.listdir(path))
                      if ".dyn." in n and n.endswith(".pt2")]
    for name in ("crossover.mlir", "shrinking-bins.mlir"):
        found.append(os.path.join(ROOT, "test", "lit", "parametric", "Inputs",
                                  name))
    return found


def range_heaps(summary):
    """Heap at every S of the range, the pieces and the term count."""
    heaps, pieces, terms, buffers = {}, [], 0, 0
    for p in summary["parametric"]:
        pieces.append(f"[{p['lo']}, {p['hi']}]")
        terms += p["terms"]
        buffers = p["buffers"]
        for i, h in enumerate(p["heaps"]):
            heaps[p["lo"] + i] = h
    return heaps, pieces, terms, buffers


def main():
    args = parse_arguments(__doc__.splitlines()[0], base=True)
    tool = os.path.join(args.build, "bin", "coreai-plan")
    base_tool = (os.path.join(args.base, "bin", "coreai-plan")
                 if args.base else None)

    heap_rows, size_rows, cut_rows = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for graph in graphs(args.shared):
            name = os.path.basename(graph)
            out = os.path.join(tmp, name)
            chunks = f"{RANGE[0]}..{RANGE[1]}"
            shown = ",".join(map(str, SHOWN))
            # With borrowing (h18p's default) and without (the comparison
            # made before parametric plans borrowed).
            summary, _ = plan(tool, graph, chunks, out + ".range")
            for p in summary['parametric'][1:]:
                check_cut(name, p)
            cut_rows += [(name, f"[{p['lo']}, {p['hi']}]", p['cut'])
                         for p in summary['parametric'] if p.get('cut')]
            heaps, pieces, terms, buffers = range_heaps(summary)
            before = None
            if base_tool:
                previous, _ = plan(base_tool, graph, chunks, out + ".base")
                old_heaps = range_heaps(previous)[0]
                changed = [s for s in heaps if heaps[s] != old_heaps.get(s)]
                before = {
                    "heaps": ("same" if not changed else
                              f"differ at {len(changed)} S, from S="
                              f"{min(changed)}"),
                    "manifest": os.path.getsize(
                        os.path.join(out + ".base", "plan.manifest")),
                }
            plain, _ = plan(tool, graph, chunks, out + ".plain",
                            "--no-borrow-outputs")
            plain_heaps = range_heaps(plain)[0]
            alone, _ = plan(tool, graph, shown, out + ".alone")
            own = {e["chunk"]: e["heap"] for e in alone["entries"]}
            alone_plain, _ = plan(tool, graph, shown, out + ".alone-plain",
                                  "--no-borrow-outputs")
            own_plain = {e["chunk"]: e["heap"] for e in alone_plain["entries"]}
            for s in SHOWN:
                heap_rows.append((name, s, heaps[s], own[s],
                                  plain_heaps[s], own_plain[s]))
            listed_chunks = ",".join(map(str, LISTED))
            listed, _ = plan(tool, graph, listed_chunks, out + ".listed")
            runs = [("range", tool, chunks), ("listed", tool, listed_chunks)]
            if base_tool:
                runs.append(("base", base_tool, chunks))
            timed = median_seconds(runs, graph, out)
            if before:
                before["seconds"] = timed["base"]
            size_rows.append((
                name, buffers, " ".join(pieces), terms, timed["range"],
                timed["listed"],
                os.path.getsize(os.path.join(out + ".range", "plan.manifest")),
                os.path.getsize(os.path.join(out + ".listed",
                                             "plan.manifest")), before))

    def above(heap, own):
        return f"{(heap - own) / own * 100:.2f} %"

    lines = [
        "Target h18p (alignment 256, every reuse technique on, borrowing of "
        "the outputs' storage included). `parametric` is the heap of the one "
        f"plan for S in [{RANGE[0]}, {RANGE[1]}] (`coreai-plan plan --chunks "
        "1..64`) at S, `alone` the heap of `coreai-plan plan --chunks S` "
        "(a plan made for that S alone, in its own op order); the last "
        "three columns are the same two with `--no-borrow-outputs`. "
        "crossover.mlir (sizes that cross over at S=32) and "
        "shrinking-bins.mlir (scratch buffers an output of 128*S bytes can "
        "hold only from some S on) are hand-written test graphs "
        "(test/lit/parametric/Inputs); the `.pt2` rows are the dynamic tiny "
        "Llama as torch.export archives, planned straight from the archive.",
        "",
        "| graph | S | parametric | alone | above | parametric, no "
        "borrowing | alone, no borrowing | above |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, s, heap, own, plain, own_plain in heap_rows:
        lines.append(f"| {name} | {s} | {heap:,} | {own:,} | "
                     f"{above(heap, own)} | {plain:,} | {own_plain:,} | "
                     f"{above(plain, own_plain)} |")
    lines += [
        "",
        "Manifest bytes (FlatBuffers `plan.manifest`, with borrowing): the "
        "parametric plan (its expressions and the instance at S=64) against "
        "the four per-S plans 1,16,32,64. `pieces`: the ranges with a plan "
        "of their own (cut where a borrowed buffer stops fitting its output, "
        "or where one plan is more than 2 % above the plan for that S alone "
        "in its own op order, or above both the lower bound and a plan "
        "solved for that S alone in the piece's op order; each piece has "
        "the op order best at its top); `terms`: "
        "max terms over every offset and the heap; `1..64` and `4 per-S`: "
        "the wall time of the whole `plan --chunks 1..64` run (verifier and "
        "replay at all 64 S) and of `plan --chunks 1,16,32,64`, measured in "
        f"the same run, alternated, median of {TIMED} each; `time ratio` "
        "the first over the second. Besides ../shared's Gemma graphs and "
        "tiny Llama, the dynamic decoders exported for this project "
        "(bench/decoders/export_dynamic.py, transformers' own model code, "
        "random weights, S in [1, 64]): Qwen3 and SmolLM2 at tiny width in "
        "f32, and Llama 3.2 1B at its published shape in f16.",
        "",
        "| graph | buffers | pieces | count | terms | 1..64 | 4 per-S | "
        "time ratio | parametric manifest | 4 per-S plans | ratio |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: |",
    ]
    for (name, buffers, pieces, terms, seconds, listed_seconds, param,
         listed, _) in size_rows:
        count = pieces.count("[")
        lines.append(f"| {name} | {buffers:,} | {pieces} | {count} | "
                     f"{terms:,} | {seconds:.2f} s | {listed_seconds:.2f} s | "
                     f"{seconds / listed_seconds:.2f} | {param:,} | "
                     f"{listed:,} | {param / listed:.2f} |")
    if base_tool:
        lines += [
            "",
            f"Against the previous commit (`--base {args.base}`), in the "
            "same run: its `plan --chunks 1..64` timed in the same "
            "alternation, its heap at every S of the range and its "
            "manifest's bytes.",
            "",
            "| graph | 1..64 before | 1..64 now | speed-up | heaps at every "
            "S | manifest before | manifest now |",
            "| --- | ---: | ---: | ---: | --- | ---: | ---: |",
        ]
        for (name, _, _, _, seconds, _, param, _, before) in size_rows:
            lines.append(f"| {name} | {before['seconds']:.2f} s | "
                         f"{seconds:.2f} s | "
                         f"{before['seconds'] / seconds:.2f} | "
                         f"{before['heaps']} | {before['manifest']:,} | "
                         f"{param:,} |")
    lines += [
        "",
        "Why each cut exists (`plan --json`, `cut`): for each piece with "
        "one below it, why neither its plan stretched down nor the plan "
        "below stretched up covers both.",
        "",
        "| graph | piece | why it is not merged with the piece below |",
        "| --- | --- | --- |",
    ]
    for name, piece, why in cut_rows:
        lines.append(f"| {name} | {piece} | {why} |")
    publish("\n".join(lines), "parametric", args.update)


if __name__ == "__main__":
    main()

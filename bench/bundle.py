#!/usr/bin/env python3
"""Plans the shared Gemma / Qwen bundles with `coreai-plan plan --target h18p`
and replays each manifest with `coreai-plan check-heap`: at the heap the
decode entry (main, S=1) needs, at the bundle heap, and as runtimes without
the plan would allocate (naive: no reuse; first-fit: reuse on free).

    bench/bundle.py [--build BUILD_DIR] [--shared SHARED_DIR] [--update]

Prints the tables as Markdown; --update rewrites the `bundle-table` section
of docs/BUNDLE.md and the `bundle` section of docs/benchmarks.md.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from benchlib import parse_arguments, replace_section

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name, graphs (one bundle), extra plan arguments
BUNDLES = [
    ("gemma4-e2b.multi (main + prefill)", ["gemma4-e2b.multi.mlir"], []),
    ("gemma4-e2b.s1 + s16", ["gemma4-e2b.s1.mlir", "gemma4-e2b.s16.mlir"], []),
    ("gemma4-e2b.s1 + s32", ["gemma4-e2b.s1.mlir", "gemma4-e2b.s32.mlir"], []),
    ("gemma4-e2b.s1 + s64", ["gemma4-e2b.s1.mlir", "gemma4-e2b.s64.mlir"], []),
    ("gemma4-e2b.dyn at 1,16,32,64", ["gemma4-e2b.dyn.mlir"],
     ["--chunks", "1,16,32,64"]),
    ("qwen3-vl-2b-text.s1 + s64",
     ["qwen3-vl-2b-text.s1.mlir", "qwen3-vl-2b-text.s64.mlir"], []),
    ("qwen3-vl-2b-text.s64", ["qwen3-vl-2b-text.s64.mlir"], []),
]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def mib(n):
    return f"{n / 1048576:.2f}"


def replay(tool, manifest, heap, mode="planned"):
    """Exit code, first overflow (message, where) and bytes needed per entry."""
    r = run([tool, "check-heap", "--manifest", manifest, "--heap-total", heap,
             "--replay", mode])
    if r.returncode not in (0, 2):
        sys.exit(f"check-heap failed: {r.stderr}")
    lines = r.stdout.splitlines()
    first = None
    for i, line in enumerate(lines):
        if line.startswith("allocateMTLBufferFromMTLHeap"):
            where = lines[i + 1].strip()
            where = re.sub(r", at .*\)$", ")", where)  # drop the file path
            first = (line, where)
            break
    needs = {}
    for line in lines:
        m = re.match(r"^@(\S+)\s+(\d+)\s+(\d+)\s+(fits|OVERFLOW)$", line)
        if m:
            needs[(m.group(1), int(m.group(2)))] = int(m.group(3))
    return r.returncode, first, needs


def plan_bundle(tool, shared, graphs, extra, outdir):
    cmd = [tool, "plan"] + [os.path.join(shared, "graphs", g) for g in graphs]
    cmd += ["--target", "h18p", "-o", outdir, "--json"] + extra
    start = time.monotonic()
    r = run(cmd)
    wall = time.monotonic() - start
    if r.returncode != 0:
        sys.exit(f"plan failed ({' '.join(cmd)}): {r.stderr}")
    times = {(e["entry"], e["chunk"]): e["solver_seconds"]
             for e in json.loads(r.stdout)["entries"]}
    with open(os.path.join(outdir, "plan.json")) as fp:
        return json.load(fp), times, wall


def measure(tool, shared):
    results = []
    with tempfile.TemporaryDirectory() as work:
        for i, (name, graphs, extra) in enumerate(BUNDLES):
            out = os.path.join(work, str(i))
            manifest, times, wall = plan_bundle(tool, shared, graphs, extra, out)
            path = os.path.join(out, "plan.manifest")
            decode = next(e["heap"] for e in manifest["entries"]
                          if e["entry"] == "main" and e["chunk"] == 1) \
                if any(e["chunk"] == 1 for e in manifest["entries"]) else None
            results.append({
                "name": name, "manifest": manifest, "times": times,
                "wall": wall, "decode": decode,
                "at_decode": replay(tool, path, "main:1") if decode else None,
                "at_bundle": replay(tool, path, "bundle"),
                "naive": replay(tool, path, "bundle", "naive"),
                "first_fit": replay(tool, path, "bundle", "first-fit"),
            })
    return results


def entry_table(results):
    rows = ["| bundle | entry | S | buffers | lower bound (B) | heap (B) | "
            "heap (MiB) | heap / LB | solver | optimal | solver time (s) |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|"]
    for r in results:
        for e in r["manifest"]["entries"]:
            lb, heap = e["lower_bound"], e["heap"]
            rows.append(
                f"| {r['name']} | @{e['entry']} | {e['chunk']} | "
                f"{len(e['buffers'])} | {lb} | {heap} | {mib(heap)} | "
                f"{heap / lb if lb else 1:.4f} | {e['solver']} | "
                f"{'yes' if e['optimal'] else 'no'} | "
                f"{r['times'][(e['entry'], e['chunk'])]:.3f} |")
    return "\n".join(rows)


def check_table(results):
    rows = ["| bundle | decode heap, main S=1 (B) | bundle heap (B) | "
            "check-heap at the decode heap | check-heap at the bundle heap | "
            "naive runtime needs (B) | first-fit runtime needs (B) |",
            "|---|---:|---:|---|---|---:|---:|"]
    for r in results:
        m = r["manifest"]
        n = len(m["entries"])
        if r["at_decode"]:
            code, first, needs = r["at_decode"]
            over = sum(1 for e in m["entries"]
                       if needs[(e["entry"], e["chunk"])] > r["decode"])
            decode = (f"exit {code}: {over} of {n} overflow" if code
                      else f"exit 0: all {n} fit")
        else:
            decode = "n/a (no S=1 entry)"
        code, _, _ = r["at_bundle"]
        bundle = f"exit {code}: " + ("all fit" if code == 0 else "overflow")
        naive = max(r["naive"][2].values())
        first_fit = max(r["first_fit"][2].values())
        rows.append(f"| {r['name']} | {r['decode'] or '–'} | "
                    f"{m['bundle_heap']} | {decode} | {bundle} | {naive} | "
                    f"{first_fit} |")
    return "\n".join(rows)


def overflow_list(results):
    lines = []
    for r in results:
        if r["at_decode"] and r["at_decode"][1]:
            message, where = r["at_decode"][1]
            lines.append(f"- **{r['name']}**, `--heap-total main:1` "
                         f"({r['decode']} B):\n  `{message}`\n  {where}")
    return "\n".join(lines)


def timing_table(results):
    rows = ["| bundle | entries | bundle heap (MiB) | `plan` wall time (s) |",
            "|---|---:|---:|---:|"]
    for r in results:
        rows.append(f"| {r['name']} | {len(r['manifest']['entries'])} | "
                    f"{mib(r['manifest']['bundle_heap'])} | {r['wall']:.2f} |")
    return "\n".join(rows)


def main():
    args = parse_arguments(__doc__.splitlines()[0])
    tool = os.path.join(args.build, "bin", "coreai-plan")
    if not os.access(tool, os.X_OK):
        sys.exit(f"bundle.py: no {tool} (build first)")
    results = measure(tool, args.shared)
    tables = (f"{entry_table(results)}\n\n{check_table(results)}\n\n"
              f"First overflow at the decode heap, as check-heap prints it:\n\n"
              f"{overflow_list(results)}")
    bench = ("## Bundle planning (`coreai-plan plan --target h18p`)\n\n"
             "Wall time of one `plan` run per bundle (parse, specialise, "
             "liveness, solve, verify, write the three files), regenerated "
             "by `bench/bundle.py --update`. Heaps per entry and the "
             "check-heap replays are in [BUNDLE.md](BUNDLE.md).\n\n"
             + timing_table(results))
    print(tables + "\n\n" + bench)
    if args.update:
        replace_section(os.path.join(ROOT, "docs", "BUNDLE.md"),
                        "bundle-table", tables)
        replace_section(os.path.join(ROOT, "docs", "benchmarks.md"),
                        "bundle", bench)


if __name__ == "__main__":
    main()

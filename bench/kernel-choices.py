#!/usr/bin/env python3
"""Kernel choices (issue 38): decoders exported with last-token logits
(bench/decoders/last-token/, made by export_decoders.py on the CPU), planned
for h18p with its kernel variants and recompute, beside PyTorch Inductor's
scratch for the same programs; the same for the full-sequence-logit and
S = 1 archives of bench/decoders/ and bench/speed/, against the previous
commit only (no row may get worse).

    bench/kernel-choices.py [--build BUILD] [--base BASE_BUILD]
        [--inductor FILE.json]... [--update]

Per archive: `coreai-plan plan --target h18p --json` with this build (its
heap, the ops downgraded to a variant without workspace, the chains
recomputed: ops cloned and elements of extra work), the same with
`--no-recompute`, and with the base build (the previous commit, same
run). Inductor's figures come from the JSON files given (export_decoders.py's
inductor.json from a GPU run, or a merge of several: `scratch_bytes` of its
ok results by job id; or a file of quoted figures, {"source": ...,
"scratch_bytes": {id: bytes}}); by default bench/decoders/inductor.json,
measured on an H200. Every h18p figure is the target's model of a runtime
(docs/WORKSPACE.md, FUSION.md), not a measurement. Fails when a row's heap
is larger than the base's, or a last-token prefill's heap is above
Inductor's figure for it.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from benchlib import ROOT, publish

LAST_TOKEN = os.path.join(ROOT, "bench", "decoders", "last-token")
FULL_LOGITS = [os.path.join(ROOT, "bench", "decoders"),
               os.path.join(ROOT, "bench", "decoders", "s128"),
               os.path.join(ROOT, "bench", "speed")]
MEASURED = os.path.join(ROOT, "bench", "decoders", "inductor.json")
NAME = re.compile(r"(?P<family>.+?)\.f16\.(?P<attn>eager|sdpa)"
                  r"\.s(?P<S>\d+)(?P<last>\.last)?\.(?P<form>export|core-aten)\.pt2$")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--base", help="build directory of the previous commit")
    parser.add_argument("--inductor", action="append",
                        help="Inductor figures (repeatable; later files win)")
    parser.add_argument("--update", action="store_true")
    return parser.parse_args()


def archives():
    """(path, fields) of every static f16 decoder archive, last-token ones
    first."""
    found = []
    for folder in [LAST_TOKEN] + FULL_LOGITS:
        for path in sorted(glob.glob(os.path.join(folder, "*.pt2"))):
            m = NAME.match(os.path.basename(path))
            if m:
                fields = m.groupdict()
                fields["S"] = int(fields["S"])
                fields["last"] = bool(fields["last"]) or fields["S"] == 1
                found.append((path, fields))
    return found


def plan(build, path, extra):
    """The entry's record from `plan --json`, and the seconds it took."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [os.path.join(build, "bin", "coreai-plan"), "plan", path,
               "--target", "h18p", "-o", out, "--json"] + extra
        started = time.monotonic()
        r = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.monotonic() - started
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr}")
    entries = json.loads(r.stdout)["entries"]
    assert len(entries) == 1, f"{path}: {len(entries)} entries"
    return entries[0], seconds


def inductor_figures(files):
    """Job id -> (scratch bytes, source label); and a line per file saying
    where its figures come from."""
    figures, sources = {}, []
    for path in files:
        with open(path) as fp:
            data = json.load(fp)
        if "scratch_bytes" in data:  # quoted figures
            sources.append(f"- `{os.path.relpath(path, ROOT)}`: "
                           + data.get("source", "quoted figures"))
            for job, value in data["scratch_bytes"].items():
                figures[job] = (value, "quoted")
            continue
        for r in data.get("results", []):
            if r.get("status") == "ok" and "scratch_bytes" in r:
                v = r.get("versions") or data.get("versions", {})
                figures[r["id"]] = (r["scratch_bytes"],
                                    f"measured, {v.get('gpu', 'GPU')}")
        sources.append(f"- `{os.path.relpath(path, ROOT)}`: measured by "
                       "export_decoders.py (`scratch_bytes` of each job: "
                       "Inductor with memory_planning=True, the allocator's "
                       "history of one call after two warm-up calls, the "
                       "call's output left out); " + measured_on(data))
    return figures, sources


def measured_on(data):
    """Where and with what the file's GPU runs measured."""
    runs = data.get("runs") or [dict(file="(one run)",
                                     versions=data.get("versions", {}))]
    gpu_runs = [r for r in runs if r["versions"].get("gpu")]
    return "runs " + ", ".join(
        f"{r['file']} ({r['versions']['gpu']}, torch {r['versions']['torch']}, "
        f"transformers {r['versions']['transformers']})" for r in gpu_runs) + "."


def inductor_id(fields):
    last = ".last" if fields["last"] and fields["S"] > 1 else ""
    return (f"inductor.full.{fields['family']}.{fields['attn']}.s{fields['S']}"
            f"{last}.mp1")


def row(path, fields, args, inductor):
    entry, seconds = plan(args.build, path, [])
    kept, _ = plan(args.build, path, ["--no-recompute"])
    base = plan(args.base, path, [])[0]["heap"] if args.base else None
    figure = inductor.get(inductor_id(fields))
    return dict(fields, archive=os.path.basename(path), heap=entry["heap"],
                kept_heap=kept["heap"], base_heap=base, seconds=seconds,
                downgraded=entry.get("downgraded", 0),
                chains=entry.get("recomputed_chains", 0),
                ops=entry.get("recomputed_ops", 0),
                elements=entry.get("recomputed_elements", 0),
                inductor=figure[0] if figure else None,
                inductor_source=figure[1] if figure else None)


def fmt(value):
    return "-" if value is None else f"{value:,}"


def ratio_text(heap, inductor):
    if not inductor:
        return "-"
    ratio = heap / inductor
    return "<0.01" if ratio < 0.005 else f"{ratio:.2f}"


def table(rows):
    rows = sorted(rows, key=lambda r: (r["family"], r["attn"], r["S"],
                                       r["form"]))
    lines = ["| model | attention | S | form | Inductor memory_planning | "
             "h18p heap | ratio | previous commit | without recompute | "
             "downgraded | recomputed: chains / ops / extra elements | "
             "plan s |",
             "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | "
             "---: | ---: | ---: |"]
    for r in rows:
        ratio = ratio_text(r["heap"], r["inductor"])
        source = f" ({r['inductor_source']})" if r["inductor"] else ""
        lines.append(
            f"| {r['family']} | {r['attn']} | {r['S']} | {r['form']} | "
            f"{fmt(r['inductor'])}{source} | {fmt(r['heap'])} | {ratio} | "
            f"{fmt(r['base_heap'])} | {fmt(r['kept_heap'])} | "
            f"{r['downgraded']} | {r['chains']} / {r['ops']} / "
            f"{fmt(r['elements'])} | {r['seconds']:.1f} |")
    return "\n".join(lines)


def main():
    args = parse_arguments()
    files = args.inductor or [MEASURED]
    inductor, sources = inductor_figures(files)
    rows = [row(path, fields, args, inductor) for path, fields in archives()]
    worse = [r for r in rows if r["base_heap"] is not None
             and r["heap"] > r["base_heap"]]
    above = [r for r in rows if r["inductor"] and r["heap"] > r["inductor"]]
    above_last = [r for r in above if r["last"] and r["S"] > 1]
    prefill_last = [r for r in rows if r["last"] and r["S"] > 1]
    prefill_all = [r for r in rows if not r["last"]]
    decode = [r for r in rows if r["S"] == 1]
    text = "\n".join([
        "`bench/kernel-choices.py" + (" --base <previous commit's build>"
                                      if args.base else "") + " --update`: "
        "every heap is h18p's model of a runtime (its fusion, workspace, "
        "variants and recompute rules), planned on this machine's CPU. "
        "Inductor's figures, where there are any:",
        *sources,
        "",
        "### Prefill with last-token logits",
        "",
        table(prefill_last),
        "",
        "### Full-sequence logits",
        "",
        table(prefill_all),
        "",
        "### Decode (S = 1)",
        "",
        table(decode),
        "",
        f"Rows larger than the previous commit: {len(worse)}"
        + ("" if args.base else " (no --base given: not compared)")
        + f"; rows above Inductor's figure: {len(above)} of "
        f"{sum(1 for r in rows if r['inductor'])} with one.",
    ])
    publish(text, "kernel-choices", args.update)
    if worse:
        sys.exit("larger than the previous commit: "
                 + ", ".join(r["archive"] for r in worse))
    if above_last:
        sys.exit("last-token prefill above Inductor: "
                 + ", ".join(r["archive"] for r in above_last))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Issue 46's table: plans for a target run strict on the executor's CUDA
runtime (tools/coreai-exec --runtime cuda --strict, docs/EXECUTOR.md "The
CUDA runtime"), beside Inductor memory_planning's scratch for the same
model and S and the h18p plan's heap.

    bench/cuda-runtime.py prepare [--target cuda] [--build B] [--shared S] [--folder F] [--small]
    bench/cuda-runtime.py run [--folder F] [--device cuda] [--only REGEX] [--jobs N] [--results DIR]
    bench/cuda-runtime.py report [--folder F] [--results DIR] [--inductor JSON] [--markdown FILE] [--summary FILE]

`prepare` (here: it needs the C++ tools) imports the `.pt2` decoders, plans
every graph for --target into F (and for h18p, keeping only its heaps) and
lists one run per planned function in F/runs.json. `run` (the GPU machine:
torch with CUDA, no C++ tools) runs each in its own process, N at a time:
strict, two calls (a warm-up, then the measured one), then the planted
overlap (`--corrupt overlap`) on the first run, which must be caught.
`report` writes the table: per model and S the target's heap, what the
measured call allocated beyond it (named per kernel kind), Inductor's
scratch (from --inductor, default bench/decoders/inductor.json, measured
with `memory_planning` on the GPU named there) and the ratio, the h18p heap.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXECUTOR = os.path.join(ROOT, "tools", "coreai-exec")
DECODERS = os.path.join(ROOT, "bench", "decoders")

# (name, source, Inductor's job id without ".mpN", what)
FULL = [("gemma4-e2b.multi", "shared:graphs/gemma4-e2b.multi.mlir", "inductor.full.gemma4-e2b.eager.s{S}",
         "Gemma 4 E2B bundle: main S=1, prefill S=32"),
        ("qwen3-vl-2b-text.s64", "shared:graphs/qwen3-vl-2b-text.s64.mlir",
         "inductor.full.qwen3-vl-2b-text.eager.s64", "Qwen3-VL-2B text decoder, S=64")]
for family in ("llama3.2-1b", "qwen3-0.6b", "phi3-mini", "gemma3-1b", "olmo2-1b"):
    for seq in (32, 128):
        FULL.append(("%s.s%d.last" % (family, seq),
                     "decoders:last-token/%s.f16.eager.s%d.last.core-aten.pt2" % (family, seq),
                     "inductor.full.%s.eager.s%d.last" % (family, seq),
                     "%s, last-token logits, S=%d (transformers' code, published config, random weights)"
                     % (family, seq)))
SMALL = [("qwen3-tiny.f32.s8", "shared:graphs/tiny/qwen3-tiny.f32.s8.mlir", None, "tiny Qwen3, S=8"),
         ("gemma4-tiny.f32.s8", "shared:graphs/tiny/gemma4-tiny.f32.s8.mlir", None, "tiny Gemma 4, S=8")]


def source_path(source, shared):
    kind, path = source.split(":", 1)
    return os.path.join(shared if kind == "shared" else DECODERS, path)


def planned_functions(path):
    sys.path.insert(0, EXECUTOR)
    from coreai_exec import mlir
    module = mlir.parse_file(path)
    return [(f.name, f.attrs.get("coreai.entry", f.name), int(f.attrs.get("coreai.seq_len", 0)),
             f.attrs["coreai.plan"]["heap"]) for f in module.functions if f.ops or f.returned]


def plan(coreai_plan, original, target, folder):
    os.makedirs(folder, exist_ok=True)
    subprocess.run([coreai_plan, "plan", original, "--target", target, "-o", folder], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(folder, os.path.basename(original)[:-len(".mlir")] + ".planned.mlir")


def prepare(args):
    coreai_plan = os.path.join(args.build, "bin", "coreai-plan")
    runs = []
    for name, source, inductor, what in (SMALL if args.small else FULL):
        folder = os.path.join(args.folder, name)
        os.makedirs(folder, exist_ok=True)
        original = source_path(source, args.shared)
        if original.endswith(".pt2"):
            imported = os.path.join(folder, name + ".mlir")
            subprocess.run([coreai_plan, "import", original, "-o", imported], check=True)
            original = imported
        elif not original.startswith(args.folder):  # ../shared does not travel to the GPU machine
            copy = os.path.join(folder, os.path.basename(original))
            with open(original) as f, open(copy, "w") as g:
                g.write(f.read())
            original = copy
        started = time.time()
        planned = plan(coreai_plan, original, args.target, folder)
        scratch = os.path.join(args.folder, ".h18p", name)
        h18p = {f: heap for f, _, _, heap in planned_functions(plan(coreai_plan, original, "h18p", scratch))}
        shutil.rmtree(os.path.join(args.folder, ".h18p"))  # only its heaps are kept: the folder travels
        for extra in ("plan.json", "plan.manifest"):
            if os.path.exists(os.path.join(folder, extra)):
                os.remove(os.path.join(folder, extra))
        for function, entry, seq_len, heap in planned_functions(planned):
            runs.append({"name": "%s.%s" % (name, function), "graph": name, "what": what, "function": function,
                         "entry": entry, "seq_len": seq_len, "heap": heap, "h18p_heap": h18p.get(function),
                         "inductor": inductor.format(S=seq_len) if inductor else None,
                         "planned": os.path.relpath(planned, args.folder),
                         "original": os.path.relpath(original, args.folder)})
        print("%s: planned for %s and h18p in %.1f s" % (name, args.target, time.time() - started), flush=True)
    with open(os.path.join(args.folder, "runs.json"), "w") as f:
        json.dump({"target": args.target, "small": args.small, "runs": runs}, f, indent=2)
    print("%d runs listed in %s" % (len(runs), os.path.join(args.folder, "runs.json")))


def command_of(args, entry, record_path, extra=()):
    return [sys.executable, "-m", "coreai_exec", os.path.join(args.folder, entry["planned"]),
            "--original", os.path.join(args.folder, entry["original"]), "--function", entry["function"],
            "--runtime", "cuda", "--device", args.device, "--json", record_path,
            # Deterministic algorithms sort the KV writes' indices (bench/cuda-kernels-runs: 1 KB at S=32).
            "--no-deterministic"] + (["--strict"] if args.strict else []) + list(extra)


def run(args):
    with open(os.path.join(args.folder, "runs.json")) as f:
        runs = [r for r in json.load(f)["runs"] if not args.only or re.search(args.only, r["name"])]
    results = args.results or os.path.join(args.folder, "results")
    os.makedirs(results, exist_ok=True)
    environment = dict(os.environ, PYTHONPATH=EXECUTOR, PYTHONUNBUFFERED="1")
    environment.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(ROOT, ".cache", "inductor"))
    jobs = [(entry["name"], command_of(args, entry, os.path.join(results, entry["name"] + ".json")))
            for entry in runs]
    if runs and args.negative:  # the planted overlap, on the first run
        entry = runs[0]
        jobs.append((entry["name"] + ".overlap", command_of(args, entry, os.path.join(
            results, entry["name"] + ".overlap.json"), ["--corrupt", "overlap"])))
    started, running, status = time.time(), [], 0
    while jobs or running:
        while jobs and len(running) < args.jobs:
            name, command = jobs.pop(0)
            log = open(os.path.join(results, name + ".log"), "w")
            running.append((name, subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment),
                            time.time(), log))
        for item in list(running):
            name, process, began, log = item
            code = process.poll()
            if code is None and time.time() - began > args.timeout:
                process.kill()
                code = "timeout"
            if code is not None:
                running.remove(item)
                log.close()
                print("%s: exit %s in %.0f s" % (name, code, time.time() - began), flush=True)
                expected = 2 if name.endswith(".overlap") else 0
                status = status or (code != expected)
        time.sleep(0.5)
    print("all runs in %.0f s" % (time.time() - started))
    return 1 if status else 0


def inductor_scratch(path):
    with open(path) as f:
        data = json.load(f)
    found = {}
    for result in data["results"]:
        if result.get("status") == "ok" and result["id"].endswith(".mp1"):
            found[result["id"][:-len(".mp1")]] = result["scratch_bytes"]
    return found, data.get("versions", {})


def summarise(entry, report, scratch):
    row = {key: entry[key] for key in ("name", "what", "entry", "seq_len", "heap", "h18p_heap")}
    row["inductor_scratch"] = scratch.get(entry["inductor"]) if entry["inductor"] else None
    if row["inductor_scratch"]:
        row["ratio"] = round(row["heap"] / row["inductor_scratch"], 3)
    row["exit"] = report.get("exit")
    if not report.get("functions"):
        return row
    record = report["functions"][0]
    allocations = record.get("allocations") or {}
    row.update(status=record["status"], message=record.get("message"), device=report.get("device"),
               torch=report.get("torch"), attention_groups=record.get("stats", {}).get("attention_groups"),
               kv_in_place=record.get("stats", {}).get("kv_in_place"),
               compiled_groups=record.get("stats", {}).get("compiled_groups"),
               largest_attention_difference=record.get("largest_attention_difference"),
               largest_scaled_difference=record.get("largest_scaled_difference"),
               measured=allocations.get("measured"), unplanned_bytes=allocations.get("unplanned_bytes"),
               allocated_max=allocations.get("allocated_max"), first_unplanned=allocations.get("first_unplanned"),
               by_kind=allocations.get("by_kind"), setup=allocations.get("setup"))
    return row


def fmt(value):
    if value is None:
        return "-"
    return "{:,}".format(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)


def report(args):
    with open(os.path.join(args.folder, "runs.json")) as f:
        runs = json.load(f)["runs"]
    results = args.results or os.path.join(args.folder, "results")
    scratch, versions = inductor_scratch(args.inductor)
    os.makedirs(results, exist_ok=True)
    rows = []
    for entry in runs:
        path = os.path.join(results, entry["name"] + ".json")
        report_data = {"exit": "not run"}
        if os.path.exists(path):
            with open(path) as f:
                report_data = json.load(f)
        rows.append(summarise(entry, report_data, scratch))
    negatives = {}
    for entry in runs:
        path = os.path.join(results, entry["name"] + ".overlap.json")
        if os.path.exists(path):
            with open(path) as f:
                data = json.load(f)
            negatives[entry["name"]] = {"exit": data.get("exit"), "status": [r["status"] for r in data["functions"]],
                                        "message": [r.get("message") for r in data["functions"]]}
    summary = {"inductor_versions": versions, "rows": rows, "planted_overlap": negatives}
    with open(args.summary or os.path.join(results, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    lines = ["| model, entry, S | status | cuda heap (B) | unplanned bytes in the call | largest step allocation "
             "(B) | Inductor scratch (B) | heap / scratch | h18p heap (B) |", "|" + " --- |" * 8]
    for row in rows:
        lines.append("| %s, %s, %s | %s | %s | %s | %s | %s | %s | %s |" % (
            row["name"].rsplit(".", 1)[0], row["entry"], row["seq_len"], row.get("status", row["exit"]),
            fmt(row["heap"]), fmt(row.get("unplanned_bytes")) if row.get("measured") else "not measured",
            fmt(row.get("allocated_max") if row.get("measured") else None), fmt(row["inductor_scratch"]),
            fmt(row.get("ratio")),
            fmt(row["h18p_heap"])))
    text = "\n".join(lines) + "\n"
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    print(text, end="")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["prepare", "run", "report"])
    parser.add_argument("--folder", default=os.path.join(ROOT, "out", "cuda-runtime"))
    parser.add_argument("--target", default="cuda")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--shared", default=os.environ.get("COREAI_SHARED_DIR", os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--small", action="store_true", help="the tiny graphs (a CPU run)")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--only", help="run only the runs whose name matches this regex")
    parser.add_argument("--jobs", type=int, default=6, help="runs at a time (default 6)")
    parser.add_argument("--timeout", type=int, default=500, help="seconds per run (default 500)")
    parser.add_argument("--strict", action="store_true",
                        help="stop each run at its first unplanned byte (default: name every one in the report)")
    parser.add_argument("--no-negative", dest="negative", action="store_false",
                        help="skip the planted overlap")
    parser.add_argument("--results", help="where run writes and report reads (default FOLDER/results)")
    parser.add_argument("--inductor", default=os.path.join(DECODERS, "inductor.json"))
    parser.add_argument("--markdown", help="report: also write the table here")
    parser.add_argument("--summary", help="report: the summary JSON (default RESULTS/summary.json)")
    args = parser.parse_args()
    args.folder = os.path.abspath(args.folder)
    return {"prepare": prepare, "run": run, "report": report}[args.command](args) or 0


if __name__ == "__main__":
    sys.exit(main())

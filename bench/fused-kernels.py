#!/usr/bin/env python3
"""Issue 39's graphs planned for h18p and run with real fused kernels: the
executor's fused mode (tools/coreai-exec --fused, docs/EXECUTOR.md), each
kernel group compiled by torch.compile (Inductor: Triton on a GPU, C++ on a
CPU), per group the model's workspace against the bytes the compiled kernels
allocated beyond their results (the CUDA allocator's history; a CPU has none).

    bench/fused-kernels.py prepare [--small] [--build B] [--shared S] [--folder F]
    bench/fused-kernels.py run [--folder F] [--device cuda] [--only REGEX] [--results DIR]
    bench/fused-kernels.py report [--folder F] [--results DIR] [--markdown FILE]

`prepare` (here: it needs the C++ tools) imports the `.pt2` decoders, plans
every graph for h18p into F (default out/fused-kernels; a few MB) and lists
the runs in F/runs.json: one per planned function. `run` (the GPU machine:
torch with CUDA, no C++ tools) runs each in its own process, so one run's
compilations and memory end with it, writing DIR/NAME.json (default
F/results) and NAME.log; a run that exceeds --timeout is recorded as such.
`report` (anywhere) writes DIR/summary.json and a markdown table: per graph
and S the heap, the model's workspace, the compiled groups (distinct
compilations), the groups Inductor split into several launches (its
generated kernels and library calls such as a matrix product), the groups
whose kernels allocated beyond their results, and the largest such
allocation against the model's workspace of that step. `--small` plans the
tiny graphs instead, so the whole chain runs on a CPU in about a minute
(the measurement then says it is unavailable).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXECUTOR = os.path.join(ROOT, "tools", "coreai-exec")
DECODERS = os.path.join(ROOT, "bench", "decoders")

# (name, source, what) per graph; a source under decoders/ is a .pt2 archive,
# imported first. Every entry point of a graph at its S is one run.
FULL = [
    ("gemma4-e2b.multi", "shared:graphs/gemma4-e2b.multi.mlir", "Gemma 4 E2B bundle: main S=1, prefill S=32"),
    ("qwen3-vl-2b-text.s64", "shared:graphs/qwen3-vl-2b-text.s64.mlir", "Qwen3-VL-2B text decoder, S=64"),
    ("qwen3-0.6b.eager.s32", "decoders:qwen3-0.6b.f16.eager.s32.core-aten.pt2", "Qwen3-0.6B, eager attention"),
    ("llama3.2-1b.eager.s32", "decoders:llama3.2-1b.f16.eager.s32.core-aten.pt2", "Llama-3.2-1B, eager attention"),
    ("gemma3-1b.eager.s32.last", "decoders:last-token/gemma3-1b.f16.eager.s32.last.core-aten.pt2",
     "Gemma-3-1B, last-token logits: kernel variants and recomputed masks and RoPE tables (issue 38)"),
]
SMALL = [
    ("gemma4-tiny.f32.s8", "shared:graphs/tiny/gemma4-tiny.f32.s8.mlir", "tiny Gemma 4, S=8"),
    ("qwen3-tiny.f32.s8", "shared:graphs/tiny/qwen3-tiny.f32.s8.mlir", "tiny Qwen3, S=8"),
    ("qwen3-tiny.eager.s8", "decoders:tiny/qwen3-tiny.f32.eager.s8.core-aten.pt2", "tiny Qwen3 export, S=8"),
    ("llama3.2-tiny.eager.s8", "decoders:tiny/llama3.2-tiny.f32.eager.s8.core-aten.pt2", "tiny Llama export, S=8"),
]


def source_path(source, shared):
    kind, path = source.split(":", 1)
    return os.path.join(shared if kind == "shared" else DECODERS, path)


def planned_functions(path):
    """(name, entry, S) of every planned function in a planned file."""
    sys.path.insert(0, EXECUTOR)
    from coreai_exec import mlir  # the reader alone: no torch where the plans are made
    module = mlir.parse_file(path)
    return [(f.name, f.attrs.get("coreai.entry", f.name), int(f.attrs.get("coreai.seq_len", 0)))
            for f in module.functions if f.ops or f.returned]


def prepare(args):
    coreai_plan = os.path.join(args.build, "bin", "coreai-plan")
    runs = []
    for name, source, what in (SMALL if args.small else FULL):
        folder = os.path.join(args.folder, name)
        os.makedirs(folder, exist_ok=True)
        original = source_path(source, args.shared)
        if original.endswith(".pt2"):
            imported = os.path.join(folder, name + ".mlir")
            subprocess.run([coreai_plan, "import", original, "-o", imported], check=True)
            original = imported
        started = time.time()
        subprocess.run([coreai_plan, "plan", original, "--target", "h18p", "-o", folder], check=True,
                       stdout=subprocess.DEVNULL)
        planned = os.path.join(folder, os.path.basename(original)[:-len(".mlir")] + ".planned.mlir")
        for function, entry, seq_len in planned_functions(planned):
            runs.append({"name": "%s.%s" % (name, function), "graph": name, "what": what, "function": function,
                         "entry": entry, "seq_len": seq_len,
                         "planned": os.path.relpath(planned, args.folder),
                         "original": os.path.relpath(original, args.folder) if original.startswith(args.folder)
                         else original})
        print("%s: planned in %.1f s" % (name, time.time() - started), flush=True)
    # The originals from ../shared travel with the plans: the GPU machine has no ../shared.
    for run in runs:
        if os.path.isabs(run["original"]):
            copy = os.path.join(args.folder, run["graph"], os.path.basename(run["original"]))
            if not os.path.exists(copy):
                with open(run["original"]) as f, open(copy, "w") as g:
                    g.write(f.read())
            run["original"] = os.path.relpath(copy, args.folder)
    with open(os.path.join(args.folder, "runs.json"), "w") as f:
        json.dump({"small": args.small, "runs": runs}, f, indent=2)
    print("%d runs listed in %s" % (len(runs), os.path.join(args.folder, "runs.json")))


def run(args):
    with open(os.path.join(args.folder, "runs.json")) as f:
        runs = json.load(f)["runs"]
    results = args.results or os.path.join(args.folder, "results")
    os.makedirs(results, exist_ok=True)
    environment = dict(os.environ, PYTHONPATH=EXECUTOR, PYTHONUNBUFFERED="1")
    environment.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(ROOT, ".cache", "inductor"))
    status = 0
    for entry in runs:
        if args.only and not re.search(args.only, entry["name"]):
            continue
        record_path = os.path.join(results, entry["name"] + ".json")
        command = [sys.executable, "-m", "coreai_exec", os.path.join(args.folder, entry["planned"]),
                   "--original", os.path.join(args.folder, entry["original"]), "--function", entry["function"],
                   "--fused", "--device", args.device, "--json", record_path]
        started = time.time()
        with open(os.path.join(results, entry["name"] + ".log"), "w") as log:
            try:
                code = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=environment,
                                      timeout=args.timeout).returncode
            except subprocess.TimeoutExpired:
                code = "timeout"
                with open(record_path, "w") as f:
                    json.dump({"exit": "timeout", "timeout_s": args.timeout, "functions": []}, f)
        print("%s: exit %s in %.0f s" % (entry["name"], code, time.time() - started), flush=True)
        status = status or (code != 0)
    return 1 if status else 0


def launches(step):
    """Kernels one compiled group runs: Inductor's generated ones and library
    calls (a matrix product, an attention kernel); above one, the values
    between them went through memory."""
    return step["generated_kernels"] + sum(step.get("library_calls", {}).values())


def summarise(entry, report):
    """One row of the table from a run's JSON."""
    row = {"name": entry["name"], "what": entry["what"], "entry": entry["entry"], "seq_len": entry["seq_len"],
           "exit": report.get("exit"), "device": report.get("device"), "torch": report.get("torch")}
    if not report.get("functions"):
        return row
    record = report["functions"][0]
    steps = record.get("steps", [])
    compiled = [s for s in steps if s["compiled"]]
    measured = [s for s in steps if s.get("measured")]
    row.update(status=record["status"], message=record.get("message"), heap=record["heap"],
               model_workspace_max=max((s["model_workspace"] for s in steps), default=0),
               model_workspace_steps=sum(1 for s in steps if s["model_workspace"]),
               steps=len(steps), compiled_groups=len(compiled),
               distinct_compilations=sum(1 for s in compiled if s["compiled_now"]),
               split_groups=sum(1 for s in compiled if launches(s) > 1),
               attention_library_calls=sum(n for s in compiled for name, n in s.get("library_calls", {}).items()
                                           if "attention" in name),
               largest_group_difference=record.get("largest_group_difference"),
               largest_scaled_difference=record.get("largest_scaled_difference"),
               measured=bool(measured))
    if measured:
        beyond = [s for s in measured if s["measured"]["extra_peak"] > 0]
        worst = max(measured, key=lambda s: s["measured"]["extra_peak"] - s["model_workspace"])
        groups = [s for s in measured if s["compiled"]]
        top_group = max(groups, key=lambda s: s["measured"]["extra_peak"], default=None)
        row.update(groups_allocating=sum(1 for s in beyond if s["compiled"]),
                   ops_allocating=sum(1 for s in beyond if not s["compiled"]),
                   extra_peak_max=max(s["measured"]["extra_peak"] for s in measured),
                   group_extra_peak_max=top_group["measured"]["extra_peak"] if top_group else 0,
                   group_extra_step=({"op": top_group["op"], "line": top_group["line"], "ops": top_group["ops"],
                                      "model_workspace": top_group["model_workspace"],
                                      "launches": launches(top_group)} if top_group else None),
                   shortfall_max=max(0, worst["measured"]["extra_peak"] - worst["model_workspace"]),
                   shortfall_step={"op": worst["op"], "line": worst["line"], "compiled": worst["compiled"],
                                   "extra_peak": worst["measured"]["extra_peak"],
                                   "model_workspace": worst["model_workspace"]},
                   kept_max=max(s["measured"]["kept"] for s in measured))
    return row


def cell(row, key, unavailable="not measured"):
    if key not in row:
        return unavailable
    value = row[key]
    return "{:,}".format(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)


def report(args):
    with open(os.path.join(args.folder, "runs.json")) as f:
        runs = json.load(f)["runs"]
    results = args.results or os.path.join(args.folder, "results")
    rows = []
    for entry in runs:
        path = os.path.join(results, entry["name"] + ".json")
        if os.path.exists(path):
            with open(path) as f:
                rows.append(summarise(entry, json.load(f)))
        else:
            rows.append({"name": entry["name"], "what": entry["what"], "entry": entry["entry"],
                         "seq_len": entry["seq_len"], "exit": "not run"})
    with open(os.path.join(results, "summary.json"), "w") as f:
        json.dump(rows, f, indent=2, sort_keys=True)
    lines = ["| graph | entry, S | device | status | heap (B) | model workspace, largest step (B) | compiled groups "
             "(distinct) | split by Inductor | groups / single ops allocating | largest extra allocation (B) | "
             "beyond the model's workspace (B) | largest in a compiled group (B): its step |", "|" + " --- |" * 12]
    for row in rows:
        if "status" not in row:
            lines.append("| %s | %s, %s | | %s | | | | | | | | |" % (row["name"], row["entry"], row["seq_len"],
                                                                   row["exit"]))
            continue
        allocating = ("%s / %s" % (row["groups_allocating"], row["ops_allocating"]) if row["measured"]
                      else "not measured")
        step = row.get("group_extra_step")
        in_group = ("%s: %s at line %d (%d ops, %d launches; model workspace %s)" % (
            cell(row, "group_extra_peak_max"), step["op"], step["line"], step["ops"], step["launches"],
            "{:,}".format(step["model_workspace"])) if step else cell(row, "group_extra_peak_max"))
        lines.append("| %s | %s, %d | %s | %s | %s | %s | %d (%d) | %d | %s | %s | %s | %s |" % (
            row["name"], row["entry"], row["seq_len"], row["device"], row["status"], cell(row, "heap"),
            cell(row, "model_workspace_max"), row["compiled_groups"], row["distinct_compilations"],
            row["split_groups"], allocating, cell(row, "extra_peak_max"), cell(row, "shortfall_max"), in_group))
    text = "\n".join(lines) + "\n"
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    print(text, end="")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["prepare", "run", "report"])
    parser.add_argument("--folder", default=os.path.join(ROOT, "out", "fused-kernels"))
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--shared", default=os.environ.get("COREAI_SHARED_DIR", os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--small", action="store_true", help="prepare the tiny graphs (a CPU run)")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--only", help="run only the runs whose name matches this regex")
    parser.add_argument("--timeout", type=int, default=540, help="seconds per run (default 540)")
    parser.add_argument("--results", help="where run writes and report reads (default FOLDER/results)")
    parser.add_argument("--markdown", help="report: also write the table here")
    args = parser.parse_args()
    args.folder = os.path.abspath(args.folder)
    return {"prepare": prepare, "run": run, "report": report}[args.command](args) or 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Plans a tiny graph for h18p and runs it in the executor's fused mode
(docs/EXECUTOR.md, "Fused mode"): every kernel group of two or more ops
compiled by torch.compile (Inductor, C++ kernels on a CPU) and run on the
planned storages.

    fused_graph.py COREAI_PLAN GRAPH.mlir [--corrupt MODE]

Without --corrupt the run must be within tolerance of the unplanned eager
run, with compiled groups, fewer distinct compilations than groups (layers
share theirs) and values kept inside kernels. With --corrupt the broken plan
must be caught: exit 2 and a MISMATCH or FAILED line; `overlap` by the
bit-for-bit comparison with the same compiled kernels on private storage
(the plan's verdict), not by the tolerance. Exit 77 (skipped)
where ../shared's graphs are absent.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXECUTOR = os.path.join(HERE, "..", "..", "tools", "coreai-exec")


def main():
    coreai_plan, graph = sys.argv[1], sys.argv[2]
    corrupt = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--corrupt" else None
    if not os.path.exists(graph):
        print("SKIPPED: %s is absent (../shared's graphs)" % graph)
        return 77
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([coreai_plan, "plan", graph, "--target", "h18p", "-o", folder], check=True,
                       stdout=subprocess.DEVNULL)
        name = os.path.basename(graph)[:-len(".mlir")]
        report = os.path.join(folder, "report.json")
        command = [sys.executable, "-m", "coreai_exec", os.path.join(folder, name + ".planned.mlir"),
                   "--original", graph, "--fused", "--json", report]
        if corrupt:
            command += ["--corrupt", corrupt]
        run = subprocess.run(command, cwd=EXECUTOR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = [line for line in run.stdout.splitlines() if line.startswith("@")]
        print("\n".join(lines) or run.stdout)
        with open(report) as f:
            functions = json.load(f)["functions"]
        if corrupt:
            caught = run.returncode == 2 and all(f["status"] in ("mismatch", "failed") for f in functions)
            if corrupt == "overlap":
                caught = caught and all("every value in memory of its own" in l for l in lines)
            return 0 if caught and lines and all("MISMATCH" in l or "FAILED" in l for l in lines) else 1
        if run.returncode != 0:
            return 1
        for record in functions:
            stats = record["stats"]
            compiled = [s for s in record["steps"] if s["compiled"]]
            distinct = {s["first"] for s in compiled if s["compiled_now"]}
            problems = []
            if record["status"] not in ("identical", "close"):
                problems.append("status %s" % record["status"])
            if not compiled or stats["compiled_groups"] != len(compiled):
                problems.append("no compiled group, or steps and counts disagree")
            if stats["fused"] == 0 or sum(s["fused_values"] for s in compiled) == 0:
                problems.append("no value kept inside a compiled group")
            if stats["compiled_copies"] != sum(s["results"] for s in compiled):
                problems.append("copies into slots (%d) are not the groups' results" % stats["compiled_copies"])
            if len(distinct) >= len(compiled):
                problems.append("every group compiled anew: layers did not share a compilation")
            if any(s["measured"] is not None for s in record["steps"]):
                problems.append("a measurement without CUDA")
            if problems:
                print("%s: %s" % (record["function"], "; ".join(problems)))
                return 1
            print("%s: %d compiled groups, %d distinct, %d plain steps" % (
                record["function"], len(compiled), len(distinct), len(record["steps"]) - len(compiled)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

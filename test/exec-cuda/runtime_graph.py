#!/usr/bin/env python3
"""Plans a tiny graph and runs it on the executor's CUDA runtime
(tools/coreai-exec --runtime cuda, docs/EXECUTOR.md, "The CUDA runtime") on
whatever device the test machine has (a CPU in CI: the allocations are then
not measured, and say so).

    runtime_graph.py COREAI_PLAN GRAPH.mlir TARGET [--corrupt overlap | --plant-allocation STEP:BYTES]

Without a negative control the run must pass --strict within tolerance of
the unplanned eager run, with every attention group run as one
scaled_dot_product_attention and every KV-cache write in place. With
`--corrupt overlap` the broken plan must be caught by the comparison with
the same kernels on private storage; with `--plant-allocation` the fake
allocator's planted bytes must fail --strict, naming the step. Exit 77
(skipped) where ../shared's graphs are absent.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXECUTOR = os.path.join(HERE, "..", "..", "tools", "coreai-exec")


def main():
    coreai_plan, graph, target = sys.argv[1:4]
    control = sys.argv[4:6]
    if not os.path.exists(graph):
        print("SKIPPED: %s is absent (../shared's graphs)" % graph)
        return 77
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([coreai_plan, "plan", graph, "--target", target, "-o", folder], check=True,
                       stdout=subprocess.DEVNULL)
        name = os.path.basename(graph)[:-len(".mlir")]
        report = os.path.join(folder, "report.json")
        command = [sys.executable, "-m", "coreai_exec", os.path.join(folder, name + ".planned.mlir"),
                   "--original", graph, "--runtime", "cuda", "--strict", "--json", report] + control
        run = subprocess.run(command, cwd=EXECUTOR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = [line for line in run.stdout.splitlines() if line.startswith("@")]
        print("\n".join(lines) or run.stdout)
        with open(report) as f:
            functions = json.load(f)["functions"]
        if control and control[0] == "--corrupt":
            caught = run.returncode == 2 and all(f["status"] == "mismatch" for f in functions)
            return 0 if caught and all("every value in memory of its own" in line for line in lines) else 1
        if control:
            caught = run.returncode == 2 and all(f["status"] == "unplanned" for f in functions)
            return 0 if caught and all("UNPLANNED ALLOCATION (--strict): step %s " % control[1].split(":")[0] in line
                                       for line in lines) else 1
        if run.returncode != 0:
            return 1
        for record in functions:
            stats = record["stats"]
            problems = []
            if record["status"] not in ("identical", "close"):
                problems.append("status %s" % record["status"])
            attention_steps = [s for s in record["steps"] if s.get("attention")]
            if not attention_steps or stats["attention_groups"] != len(attention_steps):
                problems.append("no attention group ran as one SDPA")
            if stats["kv_in_place"] == 0:
                problems.append("no KV-cache write ran in place")
            if problems:
                print("%s: %s" % (record["function"], "; ".join(problems)))
                return 1
            print("%s: %d attention groups as one SDPA, %d KV writes in place, %d compiled groups" % (
                record["function"], stats["attention_groups"], stats["kv_in_place"], stats["compiled_groups"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

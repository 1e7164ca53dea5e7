#!/usr/bin/env python3
"""Lowering time (`to_executorch`) through the package against ExecuTorch's
greedy, this commit's python/ against the previous commit's (issue 48).

    .venv-executorch/bin/python bench/executorch-lowering.py [--build DIR]
        [--layers N] [--repeats R] [--before REF] [--update]
    .venv-executorch/bin/python bench/executorch-lowering.py --profile OUT
        [--layers N]

One decoder program: Qwen3-0.6B's published shape (bench/decoders/
export_decoders.py: random f16 weights, transformers' static KV cache of
1024 positions, S = 32) with fewer layers (default 8 of 28), exported once
and brought to the edge dialect once; then `to_executorch` of a fresh copy of
the edge program, R times each, alternating: with ExecuTorch's default
configuration (its greedy) and with `memory_planning_pass()` of the package
(coreai-plan beside greedy, ExecuTorch's Verifier on the result). The
package's two versions (this checkout's python/ and REF's, default HEAD~1,
from `git archive`) run in their own processes, one after the other, each
measuring greedy too; every figure is the median of R. --profile writes a
cProfile of one lowering through the package (pstats format) and prints its
top entries.
"""
import argparse
import copy
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "decoders"))
from benchlib import ROOT, publish  # noqa: E402

FAMILY = "qwen3-0.6b"
S = 32


def edge_program(layers):
    import torch
    import export_decoders as decoders
    from executorch.exir import EdgeCompileConfig, to_edge
    spec = decoders.spec_of(FAMILY, tiny=False)
    spec["num_hidden_layers"] = layers
    model = decoders.make_model(spec, "sdpa", torch.float16, "cpu")
    wrapper = decoders.make_wrapper(model, "cpu")
    exported = torch.export.export(
        wrapper, args=(), kwargs=decoders.inputs(spec, S, "cpu"),
        strict=False)
    return to_edge(exported, compile_config=EdgeCompileConfig(
        preserve_ops=[torch.ops.aten.linear.default]))


def configurations():
    from executorch.exir import ExecutorchBackendConfig
    from coreai_plan_executorch import memory_planning_pass
    return {"greedy": lambda: ExecutorchBackendConfig(),
            "package": lambda: ExecutorchBackendConfig(
                memory_planning_pass=memory_planning_pass())}


def lower_once(edge, config):
    """Seconds of one `to_executorch` on a fresh copy of `edge`, and the
    program's arena sizes."""
    fresh = copy.deepcopy(edge)
    begin = time.perf_counter()
    program = fresh.to_executorch(config)
    seconds = time.perf_counter() - begin
    sizes = [list(plan.non_const_buffer_sizes)
             for plan in program.executorch_program.execution_plan]
    return seconds, sizes


def job(layers, repeats):
    import torch
    torch.set_num_threads(1)
    begin = time.perf_counter()
    edge = edge_program(layers)
    made = time.perf_counter() - begin
    configs = configurations()
    times = {name: [] for name in configs}
    sizes = {}
    for _ in range(repeats):
        for name, make in configs.items():
            seconds, sizes[name] = lower_once(edge, make())
            times[name].append(seconds)
    specs = sum(1 for node in edge.exported_program().graph.nodes
                if node.op == "call_function")
    return dict(edge_s=made, ops=specs, sizes=sizes,
                times=times, medians={name: statistics.median(values)
                                      for name, values in times.items()})


def profile(layers, out):
    import cProfile
    import pstats
    import torch
    torch.set_num_threads(1)
    edge = edge_program(layers)
    config = configurations()["package"]()
    fresh = copy.deepcopy(edge)
    profiler = cProfile.Profile()
    profiler.enable()
    fresh.to_executorch(config)
    profiler.disable()
    profiler.dump_stats(out)
    stats = pstats.Stats(out)
    stats.sort_stats("cumulative").print_stats(40)
    stats.sort_stats("tottime").print_stats(25)


def previous_package(ref, scratch):
    """REF's python/ unpacked under `scratch`: the directory to import the
    package from."""
    archive = os.path.join(scratch, "before.tar")
    subprocess.run(["git", "-C", ROOT, "archive", "-o", archive, ref,
                    "python"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(scratch)
    return os.path.join(scratch, "python")


def measure(package_dir, solver, layers, repeats):
    env = dict(os.environ, COREAI_SOLVE=solver,
               PYTHONPATH=os.pathsep.join(
                   [package_dir] + [p for p in os.environ.get(
                       "PYTHONPATH", "").split(os.pathsep) if p]))
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--job",
         "--layers", str(layers), "--repeats", str(repeats)],
        env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"the job with {package_dir} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(before, after, layers, repeats, ref, wall):
    cpu = platform.processor() or platform.machine()
    rows = []
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short",
                             ref], capture_output=True, text=True
                            ).stdout.strip() or ref
    for label, result in ((f"before ({ref}: {commit})", before),
                          ("after (this commit)", after)):
        greedy = result["medians"]["greedy"]
        package = result["medians"]["package"]
        arena_greedy = result["sizes"]["greedy"][0][1:]
        arena_package = result["sizes"]["package"][0][1:]
        rows.append(
            f"| {label} | {greedy:.2f} | {package:.2f} | "
            f"{package / greedy:.2f} | {arena_greedy} | {arena_package} |")
    return "\n".join([
        "## Lowering through the package against greedy (issue 48, "
        "`bench/executorch-lowering.py`)",
        "",
        f"Measured on this project's shared 2-core CPU machine ({cpu}; "
        f"{wall:.0f} s for the whole run), ExecuTorch 1.5.1 and torch "
        "2.14.1, one thread: `to_executorch` of one edge program, "
        f"{FAMILY}'s shape with {layers} of its 28 layers (random f16 "
        f"weights, static KV cache of 1024 positions, S = {S}, "
        f"{after['ops']} ops in the edge graph), with ExecuTorch's default "
        "configuration (greedy) and with the package's "
        "`memory_planning_pass()` (coreai-plan beside greedy, checked). "
        f"Medians of {repeats} lowerings each, alternating, in one process "
        "per version of the package (the checkout's python/ and "
        f"{ref}'s, one after the other in the same run); each "
        "process measures greedy too. Arena sizes: the program's arena 1 "
        "(one method, so the KV cache is planned in it too).",
        "",
        "| package | greedy (s) | package (s) | package / greedy | "
        "arenas, greedy (B) | arenas, package (B) |",
        "| --- | ---: | ---: | ---: | --- | --- |",
        *rows])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", default="HEAD~1")
    parser.add_argument("--update", action="store_true")
    parser.add_argument("--profile")
    parser.add_argument("--job", action="store_true")
    args = parser.parse_args()
    if args.job:
        print(json.dumps(job(args.layers, args.repeats)))
        return
    if args.profile:
        profile(args.layers, args.profile)
        return
    solver = os.path.join(args.build, "bin", "coreai-solve")
    begin = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="coreai-lowering-") as scratch:
        before = measure(previous_package(args.before, scratch), solver,
                         args.layers, args.repeats)
        after = measure(os.path.join(ROOT, "python"), solver, args.layers,
                        args.repeats)
    text = report(before, after, args.layers, args.repeats, args.before,
                  time.monotonic() - begin)
    publish(text, "executorch-lowering", args.update)


if __name__ == "__main__":
    main()

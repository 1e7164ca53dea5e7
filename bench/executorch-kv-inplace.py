#!/usr/bin/env python3
"""The KV cache's second copy (issue 48): decoders lowered with each
functional cache update in storage of its own (as exported) and written into
its buffer (`update_caches_in_place`), by ExecuTorch's greedy and by
coreai-plan, run in ExecuTorch's runtime against eager PyTorch.

    .venv-executorch/bin/python bench/executorch-kv-inplace.py [--build DIR]
        [--layers N] [--steps K] [--update] [--only NAME ...] [--tiny]

Llama-3.2-1B, Qwen3-0.6B and SmolLM2-360M at their published widths
(bench/decoders/export_decoders.py: random f16 weights, seed 0, sdpa,
transformers' static KV cache of 1024 positions) with N layers (default 2;
0: the published depth), one method
exported at S = 1 and called K times in one loaded program (positions 0 to
K-1, the cache carried from call to call in the method's arena: single
method, so the buffers are planned with the activations). Four programs per
model: greedy and coreai-plan, each without and with the pairing. Outputs
of the paired program must equal the unpaired one's bit for bit (same
planner); each is compared with eager PyTorch running the same model.
--tiny: the f32 width-64 versions (a quick check).
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "decoders"))
sys.path.insert(0, os.path.join(HERE, "..", "test", "executorch"))
from benchlib import ROOT, publish  # noqa: E402

MODELS = ("llama3.2-1b", "qwen3-0.6b", "smollm2-360m")


def build(name, layers, tiny):
    import torch
    import export_decoders as decoders
    spec = decoders.spec_of(name, tiny=tiny)
    if layers:              # 0: the published depth
        spec["num_hidden_layers"] = layers
    dtype = torch.float32 if tiny else torch.float16
    model = decoders.make_model(spec, "sdpa", dtype, "cpu")
    return spec, decoders.make_wrapper(model, "cpu"), dtype


def step_inputs(spec, steps):
    import torch
    generator = torch.Generator().manual_seed(1)
    return [[torch.randint(0, spec["vocab_size"], (1, 1),
                           generator=generator),
             torch.tensor([position], dtype=torch.long)]
            for position in range(steps)]


def job(name, layers, steps, solver, tiny):
    import torch
    from executorch.exir.memory_planning import (MemoryPlanningAlgorithmSuite,
                                                 greedy)
    from coreai_plan_executorch import (CoreAIPlanAlgorithm,
                                        VerifiedMemoryPlanningPass)
    import harness
    torch.set_num_threads(2)
    spec, wrapper, _ = build(name, layers, tiny)
    calls = step_inputs(spec, steps)
    exported = torch.export.export(
        wrapper, args=(), kwargs={"input_ids": calls[0][0],
                                  "cache_position": calls[0][1]},
        strict=False)
    edge = harness.export_edge({"forward": exported}, keep_linear=True)
    # Eager PyTorch on a fresh copy of the same model (same seed).
    _, eager, _ = build(name, layers, tiny)
    with torch.no_grad():
        reference = [[eager(input_ids=ids, cache_position=position)]
                     for ids, position in calls]
    row = dict(model=name, layers=spec["num_hidden_layers"], steps=steps)
    outputs = {}
    for planner in ("greedy", "coreai"):
        for paired in (False, True, "reinplace"):
            algorithm = CoreAIPlanAlgorithm(solver=solver) \
                if planner == "coreai" else greedy
            planning = VerifiedMemoryPlanningPass(
                memory_planning_algo=MemoryPlanningAlgorithmSuite(
                    [algorithm]),
                update_caches_in_place=paired is True)
            begin = time.perf_counter()
            # ExecuTorch's own (experimental) reinplace pass, for comparison.
            program = harness.lower(edge, planning, run_reinplace_pass=(
                paired == "reinplace"))
            key = planner + {False: "", True: "_paired",
                             "reinplace": "_reinplace"}[paired]
            row[key] = harness.arenas(program)["forward"]
            row[key + "_s"] = time.perf_counter() - begin
            if paired is True:
                row["pairings"] = len(planning.cache_pairings)
                row["paired_bytes"] = sum(p.bytes for p in
                                          planning.cache_pairings)
                row["refusals"] = [f"{r.update}: {r.reason}"
                                   for r in planning.cache_refusals]
                if planner == "coreai":
                    record = algorithm.records[-1]
                    row["coreai_without_pairing"] = \
                        record.bufsizes_without_pairing[1:]
            outputs[key] = [[t.clone() for t in call] for call in
                            harness.run(program, [("forward", c)
                                                  for c in calls])]
            row[key + "_eager"] = harness.largest_difference(
                outputs[key], reference)
        row[planner + "_exact"] = harness.same_bits(
            outputs[planner], outputs[planner + "_paired"])
        row[planner + "_reinplace_exact"] = harness.same_bits(
            outputs[planner], outputs[planner + "_reinplace"])
    return row


class Planned(Exception):
    """Raised once the plans are made: nothing is emitted."""


class PlanEveryWay:
    """In place of the memory planning pass: a copy of the graph planned by
    each planner, without and with the pairing, then a stop before the
    emitter (no program, no copy of the weights)."""

    def __init__(self, solver):
        self.solver = solver
        self.row = {}

    def run(self, graph_module, graph_signature=None):
        import copy
        from executorch.exir.memory_planning import (
            MemoryPlanningAlgorithmSuite, greedy)
        from coreai_plan_executorch import (CoreAIPlanAlgorithm,
                                            VerifiedMemoryPlanningPass)
        # Unpaired first: the copies share the specs' objects with the
        # graph (a deepcopy of a GraphModule keeps node.meta's), so the
        # storage a pairing gives must not reach an unpaired plan.
        for paired in (False, True):
            for planner in ("greedy", "coreai"):
                algorithm = CoreAIPlanAlgorithm(solver=self.solver) \
                    if planner == "coreai" else greedy
                planning = VerifiedMemoryPlanningPass(
                    memory_planning_algo=MemoryPlanningAlgorithmSuite(
                        [algorithm]),
                    update_caches_in_place=paired)
                module = copy.deepcopy(graph_module)
                planning.run(module, graph_signature)
                key = planner + ("_paired" if paired else "")
                self.row[key] = list(module.meta["non_const_buffer_sizes"][1:])
                if paired:
                    self.row["pairings"] = len(planning.cache_pairings)
                    self.row["paired_bytes"] = sum(
                        p.bytes for p in planning.cache_pairings)
                    self.row["refusals"] = [f"{r.update}: {r.reason}" for r
                                            in planning.cache_refusals]
        raise Planned()


def plan_job(name, layers, solver):
    """Arenas only, at any depth: the four plans of one export."""
    import torch
    from executorch.exir import ExecutorchBackendConfig
    import harness
    torch.set_num_threads(2)
    spec, wrapper, _ = build(name, layers, False)
    ids, position = step_inputs(spec, 1)[0]
    exported = torch.export.export(
        wrapper, args=(), kwargs={"input_ids": ids,
                                  "cache_position": position}, strict=False)
    edge = harness.export_edge({"forward": exported}, keep_linear=True)
    planning = PlanEveryWay(solver)
    try:
        edge.to_executorch(ExecutorchBackendConfig(
            memory_planning_pass=planning))
    except Planned:
        pass
    return dict(model=name, layers=spec["num_hidden_layers"], **planning.row)


def measure(name, args, solver):
    command = [sys.executable, os.path.abspath(__file__), "--job", name,
               "--layers", str(args.layers), "--steps", str(args.steps),
               "--solver", solver] + (["--tiny"] if args.tiny else []) + \
        (["--plan-only"] if args.plan_only else [])
    done = subprocess.run(command, capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    if done.returncode == 0 and lines:
        return json.loads(lines[-1])
    reason = (done.stderr.strip().splitlines() or
              [f"exit {done.returncode}"])[-1]
    return dict(model=name, error=reason[:300])


def mib(value):
    return f"{value:,} ({value / 2**20:.2f} MiB)"


def report(rows, args, wall):
    cpu = platform.processor() or platform.machine()
    width = "tiny (width 64, f32)" if args.tiny else \
        "published widths, random f16 weights"
    lines = [
        "## The KV cache's second copy: cache updates written into their "
        "buffers (issue 48, `bench/executorch-kv-inplace.py`)",
        "",
        f"Measured on this project's shared 2-core CPU machine ({cpu}; "
        f"{wall:.0f} s for the whole run), ExecuTorch 1.5.1 and torch "
        f"2.14.1: {width}, " + (
            "at their published depth" if not args.layers else
            f"{args.layers} layers each (fewer than the models' 16-32, for "
            "time; the cache and its second copy grow by the same bytes per "
            "layer)") + ", static KV cache of 1024 positions, one "
        f"method at S = 1 called {args.steps} times in one loaded program "
        "(the cache carried from call to call). The cache buffers are "
        "planned with the activations (one method: no "
        "share_mutable_buffers), so each arena below holds the cache once "
        "and, unpaired, its second copy. *Paired*: "
        "`VerifiedMemoryPlanningPass(update_caches_in_place=True)`; each "
        "pairing proven (no reader of the old cache after the update). "
        "*Exact*: the paired program's outputs equal the unpaired one's "
        "bit for bit in ExecuTorch's runtime (same planner); *eager*: the "
        "largest difference from eager PyTorch over all calls, unpaired / "
        "paired. *Reinplace pass*: the unpaired planning with "
        "ExecuTorch's own experimental `run_reinplace_pass=True` "
        "(ExecutorchBackendConfig), its outputs compared bit for bit with "
        "the unpaired program's.",
        "",
        "| model | layers | pairings (bytes) | greedy (B) | greedy, paired "
        "(B) | coreai-plan (B) | coreai-plan, paired (B) | saved | exact "
        "(greedy, coreai-plan) | eager, coreai-plan | reinplace pass: "
        "greedy, coreai-plan (B) | reinplace exact |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | "
        "--- | --- | --- |"]
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['model']} | not measured here: "
                         f"{row['error']} |||||||||")
            continue
        saved = row["coreai"][0] - row["coreai_paired"][0]
        exact = ", ".join("yes" if row[f"{p}_exact"] else "NO"
                          for p in ("greedy", "coreai"))
        lines.append(
            f"| {row['model']} | {row['layers']} | {row['pairings']} "
            f"({mib(row['paired_bytes'])}) | {mib(row['greedy'][0])} | "
            f"{mib(row['greedy_paired'][0])} | {mib(row['coreai'][0])} | "
            f"{mib(row['coreai_paired'][0])} | {mib(saved)} | {exact} | "
            f"{row['coreai_eager']:.3g} / {row['coreai_paired_eager']:.3g} "
            f"| {row['greedy_reinplace'][0]:,}, "
            f"{row['coreai_reinplace'][0]:,} | " +
            ", ".join("yes" if row[f"{p}_reinplace_exact"] else "NO"
                      for p in ("greedy", "coreai")) + " |")
    refusals = sorted({r for row in rows for r in row.get("refusals", [])})
    if refusals:
        lines += ["", "Updates not paired: " + "; ".join(refusals[:6])]
    return "\n".join(lines)


def plan_report(rows, args, wall):
    cpu = platform.processor() or platform.machine()
    lines = [
        "### At the models' depth: arenas only",
        "",
        f"The same exports at the published depth (measured here, {cpu}, "
        f"{wall:.0f} s for the run; `--layers 0 --plan-only`), planned four "
        "ways on copies of one graph and not run: the runtime's outputs "
        "are compared above, at two layers (the pairing is the same per "
        "layer).",
        "",
        "| model | layers | pairings (bytes) | greedy (B) | greedy, paired "
        "(B) | coreai-plan (B) | coreai-plan, paired (B) | saved by the "
        "pairing (coreai-plan) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['model']} | not measured here: "
                         f"{row['error']} |||||||")
            continue
        lines.append(
            f"| {row['model']} | {row['layers']} | {row['pairings']} "
            f"({mib(row['paired_bytes'])}) | {mib(row['greedy'][0])} | "
            f"{mib(row['greedy_paired'][0])} | {mib(row['coreai'][0])} | "
            f"{mib(row['coreai_paired'][0])} | "
            f"{mib(row['coreai'][0] - row['coreai_paired'][0])} |")
    refusals = sorted({r for row in rows for r in row.get("refusals", [])})
    if refusals:
        lines += ["", "Updates not paired: " + "; ".join(refusals[:6])]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=list(MODELS))
    parser.add_argument("--tiny", action="store_true")
    parser.add_argument("--plan-only", action="store_true",
                        help="arenas only, nothing run (any depth)")
    parser.add_argument("--update", action="store_true")
    parser.add_argument("--job")
    parser.add_argument("--solver")
    args = parser.parse_args()
    if args.job and args.plan_only:
        print(json.dumps(plan_job(args.job, args.layers, args.solver)))
        return
    if args.job:
        print(json.dumps(job(args.job, args.layers, args.steps, args.solver,
                             args.tiny)))
        return
    solver = os.path.join(args.build, "bin", "coreai-solve")
    begin = time.monotonic()
    rows = []
    for name in args.only:
        rows.append(measure(name, args, solver))
        print(json.dumps(rows[-1]), file=sys.stderr)
    if args.plan_only:
        publish(plan_report(rows, args, time.monotonic() - begin),
                "executorch-kv-inplace-depth", args.update)
        return
    publish(report(rows, args, time.monotonic() - begin),
            "executorch-kv-inplace", args.update)


if __name__ == "__main__":
    main()

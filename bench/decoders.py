#!/usr/bin/env python3
"""Decoders against PyTorch Inductor, side by side: plans every archive in
bench/decoders/ (Llama-3.2-1B, SmolLM2-360M, Qwen3-0.6B shapes, random
fp16 weights, static KV cache of 1024; and bench/decoders/tiny/) and the
static graphs of ../shared/graphs (Gemma 4 E2B at S=1/16/32/64, Qwen3-VL-2B's
text decoder at S=1/64) with `coreai-plan plan --target h18p --json`, once
with the target's fusion (the default) and once with `--no-fusion`, and
sets both heaps beside the scratch Inductor needed for the same model,
attention and S, with memory_planning and with its defaults, read from
bench/decoders/inductor.json (made on a GPU machine by
bench/decoders/export_decoders.py; see its docstring). It also plans
Gemma's bundle (gemma4-e2b.multi.mlir) and asks `check-heap` whether its
S=32 entry fits the phone's 145,920-byte heap. Where `plan --json`'s
entries carry `kernels` and `fused_bytes`, the tables get those columns.

    bench/decoders.py [--build BUILD_DIR] [--shared SHARED] [--update]

Prints the tables as Markdown; --update rewrites the `decoders` section of
docs/benchmarks.md. A refusal by the importer or planner is shown with its
message, not hidden. Without ../shared the rows of its graphs are left out,
with a note saying so.
"""
import json
import os
import re
import subprocess
import tempfile
import time

from benchlib import ROOT, parse_arguments, publish

HERE = os.path.join(ROOT, "bench", "decoders")
NAME = re.compile(r"^(?P<model>.+)\.(?P<dtype>f16|f32)"
                  r"\.(?P<attn>eager|sdpa)\.s(?P<S>\d+)"
                  r"\.(?P<form>export|core-aten)\.pt2$")
FAMILY = {"llama3.2-tiny": "llama3.2-1b", "smollm2-tiny": "smollm2-360m",
          "qwen3-tiny": "qwen3-0.6b"}
# The static graphs of ../shared/graphs Inductor was measured for (eager
# attention, decomposed by run_decompositions(): the core-ATen form).
SHARED = {"gemma4-e2b": (1, 16, 32, 64), "qwen3-vl-2b-text": (1, 64)}
BUNDLE = "gemma4-e2b.multi.mlir"
# Hidden size per family: one activation [1, S, hidden] is S * hidden
# * 2 bytes in f16 (the tiny versions: hidden 64, f32).
HIDDEN = {"llama3.2-1b": 2048, "smollm2-360m": 960, "qwen3-0.6b": 1024,
          "gemma4-e2b": 1536, "qwen3-vl-2b-text": 2048}
PHONE_HEAP = 145920   # bytes: the phone runtime's MTLHeap
PEAK = re.compile(r"peak at op \d+ \(([\w.]+)")   # in `explain`'s text


def run_plan(tool, model, extra=(), out=None):
    """(the --json summary or {"error": message}, wall seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.monotonic()
        r = subprocess.run([tool, "plan", model, "--target", "h18p",
                            "--json", "-o", out or tmp, *extra],
                           capture_output=True, text=True)
        seconds = time.monotonic() - start
    if r.returncode != 0:
        message = r.stderr.strip().splitlines()
        return {"error": message[0] if message else f"exit {r.returncode}"}, \
            seconds
    return json.loads(r.stdout), seconds


def plan_both(tool, model):
    """The first entry of the fused plan and of the --no-fusion plan, each
    with its wall time as `wall_s`."""
    found = []
    for extra in (("--explain",), ("--no-fusion",)):
        summary, seconds = run_plan(tool, model, extra)
        e = summary if "error" in summary else summary["entries"][0]
        e["wall_s"] = seconds
        peak = PEAK.search(summary.get("explain", ""))
        if peak:
            e["peak_op"] = peak[1]
        found.append(e)
    return found


def inductor_table(path):
    """(family, tiny, attention, S, memory_planning) -> the measurement."""
    with open(path) as fp:
        data = json.load(fp)
    found = {}
    for r in data["results"]:
        job = r["job"]
        if job["kind"] != "inductor":
            continue
        key = (job["family"], job["tiny"], job["attn"], job["S"],
               job["mp"])
        found[key] = r
    return data, found


def scratch(found, key):
    r = found.get(key)
    if r is None:
        return "not measured", None
    if r["status"] != "ok":
        return f"{r['status']}: {r.get('error', '')[:120]}", None
    return f"{r['scratch_bytes']:,}", r["scratch_bytes"]


def row(found, tiny, model, family, attn, s, form, fused, unfused, extras):
    """One table line and the fused heap / Inductor mp ratio (or None)."""
    mp_text, mp = scratch(found, (family, tiny, attn, s, True))
    default_text, _ = scratch(found, (family, tiny, attn, s, False))
    cells = [model, attn, str(s), form, mp_text, default_text]
    if "error" in unfused:
        cells.append(f"refused: `{unfused['error'][:300]}`")
    else:
        star = "" if unfused["optimal"] else "*"
        cells.append(f"{unfused['heap']:,}{star}")
    ratio = None
    if "error" in fused:
        cells += [f"refused: `{fused['error'][:300]}`", "-", "-"]
        cells += ["-"] * len(extras) + ["-"]
    else:
        cells += [f"{fused['heap']:,}", f"{fused['lower_bound']:,}",
                  "yes" if fused["optimal"] else "no"]
        cells += [f"{fused[k]:,}" if k in fused else "-" for k in extras]
        if mp:
            ratio = fused["heap"] / mp
        cells.append(f"**{ratio:.3f}**" if ratio and ratio > 1
                     else f"{ratio:.3f}" if ratio else "-")
    cells.append(f"{unfused['wall_s']:.1f} / {fused['wall_s']:.1f}")
    return "| " + " | ".join(cells) + " |", ratio


def archive_cases(folder):
    """(model, family, attention, S, form, path) per archive in folder."""
    for name in sorted(os.listdir(folder)):
        m = NAME.match(name)
        if m:
            yield (m["model"], FAMILY.get(m["model"], m["model"]),
                   m["attn"], int(m["S"]), m["form"],
                   os.path.join(folder, name))


def shared_cases(shared):
    graphs = os.path.join(shared, "graphs")
    for family, sizes in SHARED.items():
        for s in sizes:
            yield (family, family, "eager", s, "core-aten (../shared)",
                   os.path.join(graphs, f"{family}.s{s}.mlir"))


def table(tool, cases, found, tiny):
    """Plans every case; the Markdown table and the rows whose fused heap is
    above Inductor's memory_planning scratch."""
    planned = [(c, plan_both(tool, c[5])) for c in cases]
    # kernels / fused_bytes: columns only when `plan --json` reports them.
    extras = [k for k in ("kernels", "fused_bytes")
              if any(k in f for _, (f, _) in planned)]
    names = {"kernels": "kernels", "fused_bytes": "fused (B)"}
    header = ("| model | attention | S | form | Inductor, memory_planning (B) "
              "| Inductor, default (B) | coreai-plan, no fusion (B) "
              "| coreai-plan, h18p fusion (B) | lower bound (B) | optimal | "
              + "".join(f"{names[k]} | " for k in extras)
              + "fused heap / Inductor mp | plan wall s (no fusion / fused) |\n"
              "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: "
              "| --- | " + "---: | " * len(extras) + "---: | ---: |")
    lines = [header]
    stats = dict(rows=len(planned), above=[], same={}, activation=[],
                 same_activation=[])
    for (model, family, attn, s, form, _), (fused, unfused) in planned:
        line, ratio = row(found, tiny, model, family, attn, s, form, fused,
                          unfused, extras)
        lines.append(line)
        name = f"{model} {attn} S={s} {form}"
        if ratio and ratio > 1:
            stats["above"].append((name, ratio))
        if "heap" not in fused:
            continue
        # One [1, S, hidden] activation: what lives between two kernels.
        width = 64 if tiny else HIDDEN[family]
        one = fused["heap"] == s * width * (4 if tiny else 2)
        if one:
            stats["activation"].append(name)
        if fused["heap"] == unfused.get("heap"):
            if one:
                stats["same_activation"].append(name)
            else:
                stats["same"].setdefault(fused.get("peak_op", "?"),
                                         []).append(name)
    return "\n".join(lines) + "\n", stats


def bundle_fit(tool, shared):
    """A paragraph: Gemma's bundle planned with fusion, and whether its S=32
    entry fits the phone's heap by check-heap."""
    path = os.path.join(shared, "graphs", BUNDLE)
    with tempfile.TemporaryDirectory() as out:
        summary, seconds = run_plan(tool, path, out=out)
        if "error" in summary:
            return f"Gemma's bundle (`{BUNDLE}`) was refused: " \
                   f"`{summary['error'][:300]}`.\n"
        r = subprocess.run([tool, "check-heap", "--manifest",
                            os.path.join(out, "plan.manifest"),
                            "--heap-total", str(PHONE_HEAP),
                            "--entry", "prefill", "--chunk", "32"],
                           capture_output=True, text=True)
    unfused, _ = run_plan(tool, path, ("--no-fusion",))
    heaps = {(e["entry"], e["chunk"]): e["heap"] for e in summary["entries"]}
    prefill = heaps.get(("prefill", 32))
    words = (r.stdout + r.stderr).strip().splitlines()
    answer = {0: "**fits**", 2: "**does not fit**"}.get(
        r.returncode, f"could not be checked (exit {r.returncode})")
    text = (f"**Gemma's bundle** (`../shared/graphs/{BUNDLE}`: `@main` at "
            f"S=1, `@prefill` at S=32), planned with h18p fusion in "
            f"{seconds:.1f} s: `@prefill` at S=32 needs {prefill:,} bytes "
            f"(`@main` at S=1 {heaps.get(('main', 1), 0):,}; bundle heap "
            f"{summary['bundle_heap']:,}")
    if "error" not in unfused:
        text += f"; {unfused['bundle_heap']:,} with `--no-fusion`"
    text += (f"), so it {answer} in the phone's {PHONE_HEAP:,}-byte heap: "
             f"`coreai-plan check-heap --manifest plan.manifest --heap-total "
             f"{PHONE_HEAP} --entry prefill --chunk 32` exits "
             f"{r.returncode}")
    if r.returncode == 2:
        overflow = [w for w in words if "exceeds heap total" in w]
        if overflow:
            text += f" with `{overflow[0].strip()[:240]}`"
    return text + ".\n"


def archive_sizes(data):
    """Smallest and largest full-width archive, the most weight data
    dropped from one, in bytes (the export records)."""
    files = [f for r in data["results"] if r["job"]["kind"] == "export"
             and not r["job"]["tiny"] and r["status"] == "ok"
             for f in r["files"].values()]
    sizes = [f["bytes"] for f in files]
    return min(sizes), max(sizes), max(f["dropped_bytes"] for f in files)


def intro(data):
    v = data["versions"]
    small, large, dropped = archive_sizes(data)
    return f"""## Decoders against PyTorch Inductor, with and without fusion (`bench/decoders.py`)

Llama-3.2-1B-, SmolLM2-360M- and Qwen3-0.6B-shaped decoders (the published
configs' shapes typed in: hidden size, layers, heads, GQA KV heads, head
dim, intermediate size, vocab, rope settings; transformers'
`LlamaForCausalLM` / `Qwen3ForCausalLM` with random fp16 weights, nothing
downloaded), behind transformers' ExecuTorch wrapper
(`TorchExportableModuleWithStaticCache`, a static KV cache of
{data['cache_positions']} positions), attention `eager` and `sdpa`, decode at S=1 (position
{data['decode_position']}) and prefill at S=32 from position 0; and the static graphs of
`../shared/graphs`: Gemma 4 E2B's text decoder at S=1, 16, 32 and 64
(`TorchExportableModuleWithHybridCache`, as the graphs were exported) and
Qwen3-VL-2B's text decoder (a plain Qwen3 with its shapes) at S=1 and 64,
eager attention. Made on one {v.get('gpu', '?')}
with torch {v['torch']}, transformers {v['transformers']}, CUDA {v['cuda']}, by
`python3 bench/decoders/export_decoders.py run OUT` ({len(data['runs'])} calls, merged
with its `merge` into `bench/decoders/inductor.json`; each job's record
there holds its times and archive sizes):

- **Archives**: `torch.export.export(strict=False)` under `no_grad` on the
  CPU, saved as returned (`.export.pt2`) and after `run_decompositions()`
  (`.core-aten.pt2`); then every `data/` member over 4 KB (weights, KV
  caches; up to {dropped / 1e9:.1f} GB an archive) is dropped and the rest
  deflated ({small // 1000}-{large // 1000} KB an archive; coreai-plan reads only
  `models/*.json`). The wrapper rebinds the
  cache layers' tensors to its registered buffers at each call: otherwise
  non-strict export lifts the cache's own tensors as constants and
  `run_decompositions()` fails with `expected compiled_fn to be
  GraphModule`. Tiny versions (hidden 64, 2 layers, 4 heads, 2 KV heads,
  f32; Qwen3's head dim 32 != hidden / heads) at S=1 and 8 are in
  `bench/decoders/tiny/` for tests. Gemma and Qwen3-VL are not exported
  here: coreai-plan reads their `.mlir` graphs from `../shared/graphs`
  (exported with `run_decompositions()`, so their form is core-ATen).
- **Inductor**: the same wrapper on the GPU (most Inductor calls ran
  before the rebinding was added; the last call measured Llama and Qwen3
  sdpa S=32 with it again and got the same bytes),
  `torch.compile(fullgraph=True, dynamic=False)` with
  `torch._inductor.config.memory_planning` on, and with Inductor's defaults
  (off), one fresh process per measurement; two warm-up calls, then the
  allocator's history of one call (`../shared/notes/inductor-scratch-like-for-like.md`):
  the peak of the blocks allocated and freed within the call is the
  scratch; the blocks still allocated when it returns are the logits and
  are left out, as coreai-plan leaves out what lives in an output
  (*borrowed*). Sizes are the history's as recorded (many are not
  multiples of 512 bytes, so not every figure is in the allocator's
  512-byte blocks). Inductor fuses too: its Triton kernels keep a fused
  chain's inner values in registers, and its SDPA is one fused kernel.
- **coreai-plan**: `coreai-plan plan MODEL --target h18p --json` (every
  reuse technique on) on the CPU machine, twice: with `--no-fusion`
  (every op's result is a buffer) and with the target's fusion (the
  default). With h18p's rules the planner groups ops into kernels as the
  phone's Metal kernels run them (elementwise chains, reductions and norms
  with their elementwise prologue and epilogue, dtype casts into their
  consumer, and attention: a softmax between two matrix products), and a
  value inside a kernel takes no memory (docs/FUSION.md). *lower bound*
  and *optimal* are the fused plan's (*optimal*: the solver proved the
  heap minimal; a `*` on a no-fusion heap marks one not proven minimal);
  the last column is the wall time of each `plan` call, import included.
  Inductor compiles for CUDA; the core-ATen archives were decomposed on
  the CPU (SDPA as math ops).
"""


def summary(stats, skipped):
    """The sentences after a table: rows above Inductor, rows whose fused
    heap is one activation, rows fusion left as they were (by the op at the
    fused plan's peak), and ../shared's rows left out."""
    text = ""
    if skipped:
        text += (f"\n*The rows of ../shared's Gemma 4 E2B and Qwen3-VL-2B "
                 f"graphs and the bundle line are left out: `{skipped}` "
                 f"was not found (`--shared`).*\n")
    above = stats["above"]
    if above:
        listed = "; ".join(f"{name} ({ratio:.3f})" for name, ratio in above)
        text += (f"\nWhere the fused heap is above Inductor's "
                 f"memory_planning scratch (ratio in bold): {listed}.\n")
    else:
        text += ("\nThe fused heap is below Inductor's memory_planning "
                 "scratch in every row Inductor was measured for.\n")
    rows, same = stats["rows"], stats["same"]
    if stats["activation"]:
        text += (f"\nIn {len(stats['activation'])} of {rows} rows the fused "
                 f"heap is one activation `[1, S, hidden]` (S × hidden × "
                 f"bytes per element: a residual-stream-sized value between "
                 f"two kernels; the other values are fused, smaller, or live "
                 f"in an output's or a state's storage)")
        if stats["same_activation"]:
            text += (f"; in {len(stats['same_activation'])} of them the heap "
                     f"was that already without fusion ("
                     + ", ".join(stats["same_activation"]) + ")")
        text += ".\n"
    if same:
        count = sum(len(names) for names in same.values())
        by_op = "; ".join(f"`{op}` ({len(names)}: {', '.join(names)})"
                          for op, names in sorted(same.items()))
        text += (f"\nFusion leaves a larger heap as it was in {count} rows; "
                 f"the op whose result sets the fused plan's peak there "
                 f"(`plan --explain`): {by_op}.")
        if "torch.aten.reshape" in same:
            text += (" In the export form, `reshape` after `expand` (GQA's "
                     "`repeat_kv` over the 1024-position cache) copies and "
                     "no h18p rule fuses it into its consumer, while the "
                     "core-ATen form of the same step (`expand`, `clone`, "
                     "`view`) is fused into the matrix product.")
        if "torch.aten.dropout" in same:
            text += (" Eager attention's `dropout` (p=0, not training) is "
                     "planned as a copy of the attention weights in the "
                     "export form; core ATen decomposes it away.")
        text += "\n"
    return text


def main():
    args = parse_arguments(__doc__.split("\n")[0])
    tool = os.path.join(args.build, "bin", "coreai-plan")
    data, found = inductor_table(os.path.join(HERE, "inductor.json"))
    shared = os.path.abspath(args.shared)
    has_shared = os.path.isdir(os.path.join(shared, "graphs"))
    cases = list(archive_cases(HERE))
    if has_shared:
        cases += list(shared_cases(shared))
    text = intro(data) + "\n"
    body, stats = table(tool, cases, found, False)
    text += body + summary(stats, None if has_shared else shared)
    if has_shared:
        text += "\n" + bundle_fit(tool, shared)
    tiny_cases = list(archive_cases(os.path.join(HERE, "tiny")))
    body, stats = table(tool, tiny_cases, found, True)
    text += ("\n### Tiny versions (f32, for tests)\n\nInductor was measured "
             "on the tiny models only as a check of the method.\n\n" + body
             + summary(stats, None))
    publish(text, "decoders", args.update)


if __name__ == "__main__":
    main()

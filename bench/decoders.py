#!/usr/bin/env python3
"""Decoders of other families (Llama-3.2-1B, SmolLM2-360M, Qwen3-0.6B
shapes, random fp16 weights, static KV cache of 1024) against PyTorch
Inductor: plans every archive in bench/decoders/ (and bench/decoders/tiny/)
with `coreai-plan plan --target h18p --json` and sets its heap beside the
scratch Inductor needed for the same model, attention and S, read from
bench/decoders/inductor.json (made on a GPU machine by
bench/decoders/export_decoders.py; see its docstring).

    bench/decoders.py [--build BUILD_DIR] [--update]

Prints the tables as Markdown; --update rewrites the `decoders` section of
docs/benchmarks.md. A refusal by the importer or planner is shown with its
message, not hidden.
"""
import json
import os
import re
import subprocess
import tempfile

from benchlib import ROOT, parse_arguments, publish

HERE = os.path.join(ROOT, "bench", "decoders")
NAME = re.compile(r"^(?P<model>.+)\.(?P<dtype>f16|f32)"
                  r"\.(?P<attn>eager|sdpa)\.s(?P<S>\d+)"
                  r"\.(?P<form>export|core-aten)\.pt2$")
FAMILY = {"llama3.2-tiny": "llama3.2-1b", "smollm2-tiny": "smollm2-360m",
          "qwen3-tiny": "qwen3-0.6b"}


def plan(tool, archive):
    """The --json summary's first entry, or the refusal's message."""
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([tool, "plan", archive, "--target", "h18p",
                            "--json", "-o", out],
                           capture_output=True, text=True)
    if r.returncode != 0:
        message = r.stderr.strip().splitlines()
        return {"error": message[0] if message else f"exit {r.returncode}"}
    return json.loads(r.stdout)["entries"][0]


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
    return str(r["scratch_bytes"]), r["scratch_bytes"]


def rows(tool, folder, found, tiny):
    lines = []
    for name in sorted(os.listdir(folder)):
        m = NAME.match(name)
        if not m:
            continue
        model, attn, s = m["model"], m["attn"], int(m["S"])
        family = FAMILY.get(model, model)
        mp_text, mp = scratch(found, (family, tiny, attn, s, True))
        default_text, _ = scratch(found, (family, tiny, attn, s, False))
        e = plan(tool, os.path.join(folder, name))
        if "error" in e:
            ours = [f"refused: `{e['error'][:300]}`", "-", "-", "-", "-"]
            ratio = "-"
        else:
            ours = [str(e["heap"]), str(e["lower_bound"]),
                    "yes" if e["optimal"] else "no",
                    str(e.get("borrowed_bytes", 0))]
            ratio = f"{e['heap'] / mp:.3f}" if mp else "-"
            ours.append(ratio)
        lines.append(f"| {model} | {attn} | {s} | {m['form']} | {mp_text} "
                     f"| {default_text} | " + " | ".join(ours) + " |")
    return lines


HEADER = ("| model | attention | S | form | Inductor, memory_planning (B) "
          "| Inductor, default (B) | coreai-plan heap (B) | lower bound (B) "
          "| optimal | borrowed (B) | heap / Inductor mp |\n"
          "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- "
          "| ---: | ---: |")


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
    return f"""## Decoders of other families against PyTorch Inductor (`bench/decoders.py`)

Llama-3.2-1B-, SmolLM2-360M- and Qwen3-0.6B-shaped decoders (the published
configs' shapes typed in: hidden size, layers, heads, GQA KV heads, head
dim, intermediate size, vocab, rope settings; transformers'
`LlamaForCausalLM` / `Qwen3ForCausalLM` with random fp16 weights, nothing
downloaded), behind transformers' ExecuTorch wrapper
(`TorchExportableModuleWithStaticCache`, a static KV cache of
{data['cache_positions']} positions), attention `eager` and `sdpa`, decode at S=1 (position
{data['decode_position']}) and prefill at S=32 from position 0. Made on one {v.get('gpu', '?')}
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
  `bench/decoders/tiny/` for tests.
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
  (*borrowed*). Sizes are the allocator's, rounded to 512 bytes.
- **coreai-plan**: `coreai-plan plan ARCHIVE --target h18p --json` (every
  reuse technique on) on the CPU machine; *optimal*: the solver proved the
  heap minimal. Inductor compiles for CUDA (its SDPA is a fused kernel);
  the core-ATen archives were decomposed on the CPU (SDPA as math ops).
"""


def main():
    args = parse_arguments(__doc__.split("\n")[0])
    tool = os.path.join(args.build, "bin", "coreai-plan")
    data, found = inductor_table(os.path.join(HERE, "inductor.json"))
    text = intro(data) + "\n" + HEADER + "\n"
    text += "\n".join(rows(tool, HERE, found, False)) + "\n"
    text += ("\n### Tiny versions (f32, for tests)\n\nInductor was measured "
             "on the tiny models only as a check of the method.\n\n"
             + HEADER + "\n")
    text += "\n".join(rows(tool, os.path.join(HERE, "tiny"), found, True))
    publish(text, "decoders", args.update)


if __name__ == "__main__":
    main()

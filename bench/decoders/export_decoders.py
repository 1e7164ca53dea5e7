#!/usr/bin/env python3
"""Decoders of three families as torch.export archives, and the scratch
PyTorch Inductor needs for the same programs. Runs on a CUDA machine with
torch and transformers; nothing is downloaded: every model is built from a
config with the published shapes typed in, with random weights.

    python3 bench/decoders/export_decoders.py run OUT [--deadline S]
        [--workers N] [--only REGEX] [--skip REGEX]
    python3 bench/decoders/export_decoders.py job OUT JOB_JSON   (one job)
    python3 bench/decoders/export_decoders.py merge MERGED RUN.json...

`merge` (no torch needed) joins the inductor.json of several runs (or of
earlier merges, whose runs are kept): per job the last result that is
"ok", else the last one; tracebacks are dropped.

`run` schedules every job (exports first, then Inductor with
memory_planning on, then Inductor's defaults) over N worker processes and
stops starting jobs DEADLINE seconds after it began; what did not run is
recorded as such. It writes OUT/archives/*.pt2 (full width),
OUT/archives/tiny/*.pt2, OUT/results/*.json (one per job) and
OUT/inductor.json (everything measured, with the versions and the GPU).

Exports: `TorchExportableModuleWithStaticCache` (transformers' ExecuTorch
wrapper: a StaticCache of CACHE positions registered as buffers
key_cache_i / value_cache_i), `torch.export.export(strict=False)` under
no_grad on the CPU, saved as returned (`.export.pt2`) and after
`run_decompositions()` (`.core-aten.pt2`). The archives are then stripped:
every member under data/ over 4 KB (weights, KV caches, sample inputs) is
dropped, the rest is deflated. coreai-plan reads only models/*.json.

Inductor: the same wrapper on the GPU, `torch.compile(fullgraph=True,
dynamic=False)`, two warm-up calls, then one call under the allocator's
history (../shared/notes/inductor-scratch-like-for-like.md): the blocks
allocated and freed within the call are replayed (alloc / free_completed)
and their peak is the scratch; the blocks still allocated when the call
returns are its outputs (the logits) and are reported apart.
The models of ../shared/graphs (Gemma 4 E2B's text decoder, Qwen3-VL-2B's
as a plain Qwen3) are measured only here, not exported, with the graphs'
eager attention, at their S; Gemma gets the wrapper that transformers'
`TorchExportableModuleForDecoderOnlyLM` picks for sliding-window layers
(`TorchExportableModuleWithHybridCache`), as the graphs did.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
import zipfile

CACHE = 1024          # static KV cache positions
DECODE_POS = 100      # the position an S=1 decode call writes
KEEP_DATA = 4096      # data members up to this size stay in the archive

# Published configs' shapes (hub config.json of each model), typed in.
FAMILIES = {
    "llama3.2-1b": dict(
        cls="llama", hidden_size=2048, intermediate_size=8192,
        num_hidden_layers=16, num_attention_heads=32, num_key_value_heads=8,
        head_dim=64, vocab_size=128256, max_position_embeddings=131072,
        rms_norm_eps=1e-5, tie_word_embeddings=True,
        rope=dict(rope_type="llama3", rope_theta=500000.0, factor=32.0,
                  low_freq_factor=1.0, high_freq_factor=4.0,
                  original_max_position_embeddings=8192)),
    "smollm2-360m": dict(
        cls="llama", hidden_size=960, intermediate_size=2560,
        num_hidden_layers=32, num_attention_heads=15, num_key_value_heads=5,
        head_dim=64, vocab_size=49152, max_position_embeddings=8192,
        rms_norm_eps=1e-5, tie_word_embeddings=True,
        rope=dict(rope_type="default", rope_theta=100000.0)),
    "qwen3-0.6b": dict(
        cls="qwen3", hidden_size=1024, intermediate_size=3072,
        num_hidden_layers=28, num_attention_heads=16, num_key_value_heads=8,
        head_dim=128, vocab_size=151936, max_position_embeddings=40960,
        rms_norm_eps=1e-6, tie_word_embeddings=True,
        rope=dict(rope_type="default", rope_theta=1000000.0)),
    # ../shared/graphs/README.md's key configs (layer_types as in the
    # graphs' hf_config: 4 sliding + 1 full attention, x7).
    "gemma4-e2b": dict(
        cls="gemma4", hidden_size=1536, intermediate_size=6144,
        num_hidden_layers=35, num_attention_heads=8, num_key_value_heads=1,
        head_dim=256, vocab_size=262144, tie_word_embeddings=True,
        sliding_window=512, num_kv_shared_layers=20,
        hidden_size_per_layer_input=256, use_double_wide_mlp=True,
        final_logit_softcapping=30.0,
        layer_types=(["sliding_attention"] * 4 + ["full_attention"]) * 7,
        per_layer_config={f"{i:02d}": {"head_dim": 512}
                          for i in range(4, 35, 5)},
        rope=dict(full_attention=dict(partial_rotary_factor=0.25,
                                      rope_theta=1000000.0,
                                      rope_type="proportional"),
                  sliding_attention=dict(rope_theta=10000.0,
                                         rope_type="default"))),
    # Issue 38's families: last-token prefill (logits_to_keep=1), S = 1,
    # 32 and 128. Gemma-3-1B's layer pattern: 5 sliding + 1 full, x4, +2.
    "gemma3-1b": dict(
        cls="gemma3", hidden_size=1152, intermediate_size=6912,
        num_hidden_layers=26, num_attention_heads=4, num_key_value_heads=1,
        head_dim=256, vocab_size=262144, max_position_embeddings=32768,
        rms_norm_eps=1e-6, tie_word_embeddings=True, sliding_window=512,
        query_pre_attn_scalar=256,
        layer_types=(["sliding_attention"] * 5 + ["full_attention"]) * 4
        + ["sliding_attention"] * 2,
        rope=dict(full_attention=dict(rope_type="default",
                                      rope_theta=1000000.0),
                  sliding_attention=dict(rope_type="default",
                                         rope_theta=10000.0))),
    "phi3-mini": dict(
        cls="phi3", hidden_size=3072, intermediate_size=8192,
        num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=32,
        vocab_size=32064, max_position_embeddings=4096, rms_norm_eps=1e-5,
        tie_word_embeddings=False,
        rope=dict(rope_type="default", rope_theta=10000.0)),
    # A family the issue does not name: OLMo-2 (allenai/OLMo-2-0425-1B's
    # shapes; q/k norms over the whole projection, post-norm blocks).
    "olmo2-1b": dict(
        cls="olmo2", hidden_size=2048, intermediate_size=8192,
        num_hidden_layers=16, num_attention_heads=16, num_key_value_heads=16,
        vocab_size=100352, max_position_embeddings=4096, rms_norm_eps=1e-6,
        tie_word_embeddings=False,
        rope=dict(rope_type="default", rope_theta=500000.0)),
    "qwen3-vl-2b-text": dict(
        cls="qwen3", hidden_size=2048, intermediate_size=6144,
        num_hidden_layers=28, num_attention_heads=16, num_key_value_heads=8,
        head_dim=128, vocab_size=151936, max_position_embeddings=262144,
        rms_norm_eps=1e-6, tie_word_embeddings=True,
        rope=dict(rope_type="default", rope_theta=5000000.0)),
}
# Inductor only (no export): the S of the shared graphs, eager attention.
INDUCTOR_ONLY = {"gemma4-e2b": (64, 32, 16, 1), "qwen3-vl-2b-text": (64, 1)}
CLASSES = {"llama": ("LlamaConfig", "LlamaForCausalLM"),
           "qwen3": ("Qwen3Config", "Qwen3ForCausalLM"),
           "gemma4": ("Gemma4TextConfig", "Gemma4ForCausalLM"),
           "gemma3": ("Gemma3TextConfig", "Gemma3ForCausalLM"),
           "phi3": ("Phi3Config", "Phi3ForCausalLM"),
           "olmo2": ("Olmo2Config", "Olmo2ForCausalLM")}
# Tiny versions for tests: the family's structure (rope kind, GQA, Qwen3's
# head_dim != hidden / heads and q/k norms) at hidden 64, 2 layers, f32.
TINY = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, head_dim=16,
            vocab_size=256)
TINY_NAMES = {"llama3.2-1b": "llama3.2-tiny", "smollm2-360m": "smollm2-tiny",
              "qwen3-0.6b": "qwen3-tiny"}
ATTENTIONS = ("eager", "sdpa")
FULL_S = (1, 32)
TINY_S = (1, 8)
# Kernel choices (issue 38): the families and attention forms measured
# side by side with Inductor, with last-token prefill at these S.
LAST_TOKEN = {"llama3.2-1b": ("eager",), "qwen3-0.6b": ("eager", "sdpa"),
              "phi3-mini": ("eager",), "gemma3-1b": ("eager",),
              "olmo2-1b": ("eager",)}
LAST_TOKEN_S = (32, 128)


def spec_of(family, tiny):
    spec = dict(FAMILIES[family])
    if tiny:
        spec.update(TINY)
        if spec["cls"] == "qwen3":
            spec["head_dim"] = 32   # heads * head_dim != hidden, as in Qwen3
    return spec


def last_token(job):
    """Whether the job's prefill returns only the last position's logits
    (`logits_to_keep=1`, as `generate` does)."""
    return job.get("logits") == "last"


def archive_name(job, form):
    fam = TINY_NAMES[job["family"]] if job["tiny"] else job["family"]
    dtype = "f32" if job["tiny"] else "f16"
    last = ".last" if last_token(job) else ""
    return f"{fam}.{dtype}.{job['attn']}.s{job['S']}{last}.{form}.pt2"


def job_id(job):
    size = "tiny" if job["tiny"] else "full"
    mp = "" if job["kind"] == "export" else f".mp{int(job['mp'])}"
    last = ".last" if last_token(job) else ""
    return (f"{job['kind']}.{size}.{job['family']}.{job['attn']}"
            f".s{job['S']}{last}{mp}")


def kernel_choice_jobs():
    """Issue 38's jobs, last-token prefill first: exports, then Inductor
    with memory_planning on the same programs; then full-sequence logits
    at the same S and decode (S = 1, where the logits are one row anyway)."""
    forms = [(s, "last") for s in LAST_TOKEN_S]
    forms += [(s, "all") for s in (1,) + LAST_TOKEN_S]
    jobs = []
    for kind in ("export", "inductor"):
        for s, logits in forms:
            for fam, attns in LAST_TOKEN.items():
                for attn in attns:
                    job = dict(kind=kind, tiny=False, family=fam, attn=attn,
                               S=s)
                    if logits == "last":
                        job["logits"] = "last"
                    if kind == "inductor":
                        job["mp"] = True
                    jobs.append(job)
    return jobs


def all_jobs():
    """Highest priority first: tiny exports (fast), full exports, Inductor
    with memory_planning, Inductor's defaults; larger models first."""
    jobs = []
    order = ("llama3.2-1b", "qwen3-0.6b", "smollm2-360m")
    for fam in order:
        for attn in ATTENTIONS:
            for s in TINY_S:
                jobs.append(dict(kind="export", tiny=True, family=fam,
                                 attn=attn, S=s))
    for fam in order:
        for attn in ATTENTIONS:
            for s in FULL_S:
                jobs.append(dict(kind="export", tiny=False, family=fam,
                                 attn=attn, S=s))
    for mp in (True, False):
        for fam in order:
            for s in (32, 1):
                for attn in ATTENTIONS:
                    jobs.append(dict(kind="inductor", tiny=False, family=fam,
                                     attn=attn, S=s, mp=mp))
        for fam, sizes in INDUCTOR_ONLY.items():
            for s in sizes:
                jobs.append(dict(kind="inductor", tiny=False, family=fam,
                                 attn="eager", S=s, mp=mp))
    for fam in order:   # last: a check of the method on the tiny models
        for attn in ATTENTIONS:
            for mp in (True, False):
                jobs.append(dict(kind="inductor", tiny=True, family=fam,
                                 attn=attn, S=8, mp=mp))
    seen = {job_id(j) for j in jobs}
    return jobs + [j for j in kernel_choice_jobs() if job_id(j) not in seen]


# ---------------------------------------------------------------- the model

def classes(spec):
    """The config class and the model class of the spec's family."""
    import transformers
    return [getattr(transformers, n) for n in CLASSES[spec["cls"]]]


def make_config(spec, attn):
    import dataclasses
    import inspect
    cls = classes(spec)[0]
    kw = {k: v for k, v in spec.items() if k not in ("cls", "rope")}
    rope = dict(spec["rope"])
    if dataclasses.is_dataclass(cls):
        fields = {f.name for f in dataclasses.fields(cls)}
    else:
        fields = set(inspect.signature(cls.__init__).parameters)
    if "rope_parameters" in fields:          # transformers 5
        kw["rope_parameters"] = rope
    else:                                    # transformers 4
        kw["rope_theta"] = rope.pop("rope_theta")
        if rope["rope_type"] != "default":
            kw["rope_scaling"] = rope
    if spec["cls"] == "qwen3":
        kw.update(use_sliding_window=False, sliding_window=None)
    kw.update(use_cache=True, attn_implementation=attn)
    return cls(**kw)


def make_model(spec, attn, dtype, device):
    import torch
    cls = classes(spec)[1]
    config = make_config(spec, attn)
    torch.manual_seed(0)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device(device):
            model = cls(config)
    finally:
        torch.set_default_dtype(previous)
    model.requires_grad_(False)   # inference: no autograd in the programs
    if getattr(model.config, "_attn_implementation", attn) != attn:
        model.set_attn_implementation(attn)
    model.eval()
    got = model.config._attn_implementation
    assert got == attn, f"attention {got}, asked {attn}"
    return model


def keep_last_logits(model):
    """transformers' ExecuTorch wrapper calls the model without
    `logits_to_keep`; this makes 1 its default on this instance (the class
    is swapped, so parameter and buffer names stay as they are)."""
    base = type(model)

    class LastTokenLogits(base):
        def forward(self, *args, **kwargs):
            kwargs.setdefault("logits_to_keep", 1)
            return base.forward(self, *args, **kwargs)

    LastTokenLogits.__name__ = base.__name__
    model.__class__ = LastTokenLogits
    return model


def build_device():
    """Full-width models are built where it is fast: on the GPU when there
    is one, else on the CPU (f16 random init is slower there, not wrong)."""
    import torch
    return "cuda" if torch.cuda.is_available() else "cpu"


def make_wrapper(model, device):
    from transformers.integrations import executorch
    config = model.config.get_text_config()
    hybrid = (getattr(config, "layer_types", None) is not None
              and getattr(config, "sliding_window", None) is not None)
    Wrapper = (executorch.TorchExportableModuleWithHybridCache if hybrid
               else executorch.TorchExportableModuleWithStaticCache)

    class Rebound(Wrapper):
        """The wrapper, with each cache layer's tensors taken from the
        registered buffers at every call. Non-strict export swaps the
        module's buffers for traced ones; the cache object's own references
        would still hold the real tensors, which export lifts as constants,
        and run_decompositions() then fails ("expected compiled_fn to be
        GraphModule")."""

        def forward(self, input_ids=None, inputs_embeds=None,
                    cache_position=None):
            cache = (self.static_cache if hasattr(self, "static_cache")
                     else self.cache)   # the hybrid wrapper's name
            for i, layer in enumerate(cache.layers):
                for name, attr in (("key_cache", "keys"),
                                   ("value_cache", "values"),
                                   ("cumulative_length", "cumulative_length")):
                    if hasattr(self, f"{name}_{i}") and hasattr(layer, attr):
                        setattr(layer, attr, getattr(self, f"{name}_{i}"))
            return super().forward(input_ids=input_ids,
                                   inputs_embeds=inputs_embeds,
                                   cache_position=cache_position)

    gen = model.generation_config
    gen.use_cache = True
    gen.cache_implementation = "static"
    try:
        return Rebound(model, batch_size=1, max_cache_len=CACHE,
                       device=device)
    except TypeError:  # older transformers: sizes from the cache config
        gen.cache_config = {"batch_size": 1, "max_cache_len": CACHE,
                            "device": device}
        return Rebound(model)


def aliased_buffers(module):
    """Names of registered buffers that share storage with another."""
    seen, shared = {}, []
    for name, b in module.named_buffers():
        key = (b.untyped_storage().data_ptr(), b.device.type)
        if key in seen:
            shared.append(f"{name}={seen[key]}")
        seen.setdefault(key, name)
    return shared


def inputs(spec, s, device):
    import torch
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, spec["vocab_size"], (1, s), generator=g)
    if s == 1:
        pos = torch.tensor([DECODE_POS], dtype=torch.long)
    else:
        pos = torch.arange(s, dtype=torch.long)
    return {"input_ids": ids.to(device), "cache_position": pos.to(device)}


# ------------------------------------------------------------------ exports

def strip(src, dst):
    """Drops every data/ member over KEEP_DATA bytes, deflates the rest."""
    dropped = dropped_bytes = kept = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(
            dst, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for info in zin.infolist():
            if "/data/" in info.filename and info.file_size > KEEP_DATA:
                dropped += 1
                dropped_bytes += info.file_size
                continue
            kept += 1
            zout.writestr(info.filename, zin.read(info),
                          compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return dict(dropped_members=dropped, dropped_bytes=dropped_bytes,
                kept_members=kept, bytes=os.path.getsize(dst),
                unstripped_bytes=os.path.getsize(src))


def run_export(job, out):
    import torch
    spec = spec_of(job["family"], job["tiny"])
    dtype = torch.float32 if job["tiny"] else torch.float16
    build = "cpu" if job["tiny"] else build_device()
    t0 = time.time()
    model = make_model(spec, job["attn"], dtype, build).to("cpu")
    if last_token(job):
        keep_last_logits(model)
    wrapper = make_wrapper(model, "cpu")
    kwargs = inputs(spec, job["S"], "cpu")
    t1 = time.time()
    with torch.no_grad():
        ep = torch.export.export(wrapper, args=(), kwargs=kwargs,
                                 strict=False)
    t2 = time.time()
    folder = os.path.join(out, "archives", "tiny" if job["tiny"] else "")
    scratch = os.path.join(out, "unstripped")
    os.makedirs(folder, exist_ok=True)
    os.makedirs(scratch, exist_ok=True)
    files = {}

    def save(form, program):
        name = archive_name(job, form)
        full = os.path.join(scratch, name)
        torch.export.save(program, full)
        files[name] = strip(full, os.path.join(folder, name))
        files[name]["nodes"] = len(program.graph.nodes)
        os.remove(full)

    save("export", ep)   # kept even when the decomposition fails
    record = dict(files=files, build_s=t1 - t0, export_s=t2 - t1,
                  wrapper=type(wrapper).__mro__[1].__name__,
                  aliased_buffers=aliased_buffers(wrapper))
    t3 = time.time()
    with torch.no_grad():
        core = ep.run_decompositions()
    record["decompose_s"] = time.time() - t3
    save("core-aten", core)
    return record


# ----------------------------------------------------------------- Inductor

def replay(trace):
    """Peak bytes of the blocks allocated and freed within the trace, and
    the blocks still allocated at its end (the call's outputs)."""
    open_blocks = {}   # addr -> (index of its alloc, size)
    ends = {}          # alloc index -> event index of its free
    allocs = []
    for i, e in enumerate(trace):
        if e["action"] == "alloc":
            open_blocks[e["addr"]] = (len(allocs), e["size"])
            allocs.append((i, e["size"]))
        elif e["action"] == "free_completed" and e["addr"] in open_blocks:
            ends[open_blocks.pop(e["addr"])[0]] = i
    outputs = [size for k, (_, size) in open_blocks.items()]
    events = []
    for k, (start, size) in enumerate(allocs):
        if k in ends:
            events.append((start, size))
            events.append((ends[k], -size))
    live = peak = 0
    for _, delta in sorted(events):
        live += delta
        peak = max(peak, live)
    with_outputs = sorted(events + [(start, size) for k, (start, size)
                                    in enumerate(allocs) if k not in ends])
    live = peak_all = 0
    for _, delta in with_outputs:   # the same, the outputs counted
        live += delta
        peak_all = max(peak_all, live)
    return dict(scratch_bytes=peak, output_bytes=sum(outputs),
                output_blocks=sorted(outputs, reverse=True)[:4],
                allocs=len(allocs), peak_with_outputs_bytes=peak_all)


def run_inductor(job, out):
    import torch
    import torch._inductor.config as inductor_config
    inductor_config.memory_planning = bool(job["mp"])
    spec = spec_of(job["family"], job["tiny"])
    dtype = torch.float32 if job["tiny"] else torch.float16
    model = make_model(spec, job["attn"], dtype, "cuda")
    if last_token(job):
        keep_last_logits(model)
    wrapper = make_wrapper(model, "cuda")
    kwargs = inputs(spec, job["S"], "cuda")
    torch._dynamo.reset()
    fn = torch.compile(wrapper, fullgraph=True, dynamic=False)
    t0 = time.time()
    with torch.no_grad():
        warm = fn(**kwargs)
        torch.cuda.synchronize()
        compile_s = time.time() - t0
        del warm
        warm = fn(**kwargs)
        torch.cuda.synchronize()
        del warm
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        torch.cuda.memory._record_memory_history(max_entries=2_000_000)
        result = fn(**kwargs)
        torch.cuda.synchronize()
        snap = torch.cuda.memory._snapshot()
        torch.cuda.memory._record_memory_history(enabled=None)
        peak_delta = torch.cuda.max_memory_allocated() - before
    dev = torch.cuda.current_device()
    measured = replay(snap["device_traces"][dev])
    measured.update(
        compile_s=compile_s, max_allocated_delta_bytes=peak_delta,
        logits_shape=list(result.shape), logits_dtype=str(result.dtype),
        logits_bytes=result.numel() * result.element_size())
    return measured


# ------------------------------------------------------------------ driver

def versions():
    import torch
    import transformers
    v = dict(torch=torch.__version__, transformers=transformers.__version__,
             cuda=torch.version.cuda, python=sys.version.split()[0])
    if torch.cuda.is_available():
        v["gpu"] = torch.cuda.get_device_name(0)
    return v


def job_main(out, job_json):
    job = json.loads(job_json)
    os.makedirs(os.path.join(out, "results"), exist_ok=True)
    record = dict(job=job, id=job_id(job))
    started = time.time()
    try:
        if job["kind"] == "export":
            record.update(run_export(job, out))
        else:
            record.update(run_inductor(job, out))
        record["status"] = "ok"
    except Exception as e:  # recorded, the driver goes on
        import traceback
        record["status"] = "error"
        record["error"] = f"{type(e).__name__}: {e}"[:4000]
        record["traceback"] = traceback.format_exc()[-6000:]
    record["seconds"] = time.time() - started
    record["versions"] = versions()
    path = os.path.join(out, "results", record["id"] + ".json")
    with open(path, "w") as fp:
        json.dump(record, fp, indent=1)
    print(f"{record['id']}: {record['status']} in {record['seconds']:.1f} s",
          flush=True)


def schedule(out, jobs, workers, deadline, hard, started):
    env = dict(os.environ)
    env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "4")
    pending = list(jobs)
    running = []
    skipped = []
    while pending or running:
        running = [(j, p) for j, p in running if p.poll() is None]
        if time.time() - started > hard:   # the command's end is near
            for job, p in running:
                p.kill()
                skipped.append(dict(job, killed=True))
            running = []
        while pending and len(running) < workers:
            job = pending.pop(0)
            if time.time() - started > deadline:
                skipped.append(job)
                continue
            log = open(os.path.join(out, "logs", job_id(job) + ".log"), "w")
            p = subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "job", out,
                 json.dumps(job)], stdout=log, stderr=subprocess.STDOUT,
                env=env)
            running.append((job, p))
        time.sleep(0.5)
    return skipped


def collect(out, skipped, started):
    results = []
    folder = os.path.join(out, "results")
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name)) as fp:
            results.append(json.load(fp))
    for job in skipped:
        why = ("killed: still running at the hard time guard"
               if job.pop("killed", False) else
               "not started: past the time guard")
        results.append(dict(job=job, id=job_id(job), status="not run",
                            error=why))
    summary = dict(method=__doc__.split("Inductor:")[1].strip(),
                   cache_positions=CACHE, decode_position=DECODE_POS,
                   versions=versions(), wall_s=time.time() - started,
                   results=results)
    with open(os.path.join(out, "inductor.json"), "w") as fp:
        json.dump(summary, fp, indent=1)


def run_main(args):
    started = time.time()
    out = os.path.abspath(args.out)
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    os.makedirs(os.path.join(out, "results"), exist_ok=True)
    jobs = [j for j in all_jobs()
            if (not args.only or re.search(args.only, job_id(j)))
            and not (args.skip and re.search(args.skip, job_id(j)))]
    print(f"{len(jobs)} jobs, {args.workers} workers", flush=True)
    skipped = schedule(out, jobs, args.workers, args.deadline, args.hard,
                       started)
    collect(out, skipped, started)


def merge_main(target, runs):
    by_id, order, merged = {}, [], None
    for path in runs:
        with open(path) as fp:
            run = json.load(fp)
        merged = merged or dict(run, results=[], runs=[])
        merged["runs"].extend(run.get("runs") or [dict(
            file=os.path.basename(os.path.dirname(os.path.abspath(path))),
            versions=run["versions"], wall_s=run["wall_s"])])
        for r in run["results"]:
            r.pop("traceback", None)
            old = by_id.get(r["id"])
            if old is None:
                order.append(r["id"])
            if old is None or r["status"] == "ok" or old["status"] != "ok":
                by_id[r["id"]] = r
    merged.pop("wall_s", None)
    merged["results"] = [by_id[i] for i in order]
    with open(target, "w") as fp:
        json.dump(merged, fp, indent=1)
        fp.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("out")
    r.add_argument("--deadline", type=float, default=480)
    r.add_argument("--hard", type=float, default=560)
    r.add_argument("--workers", type=int, default=8)
    r.add_argument("--only")
    r.add_argument("--skip")
    r.add_argument("--list", action="store_true")
    m = sub.add_parser("merge")
    m.add_argument("target")
    m.add_argument("runs", nargs="+")
    j = sub.add_parser("job")
    j.add_argument("out")
    j.add_argument("job")
    args = parser.parse_args()
    if args.command == "job":
        job_main(args.out, args.job)
    elif args.command == "merge":
        merge_main(args.target, args.runs)
    elif args.list:
        for job in all_jobs():
            print(job_id(job))
    else:
        run_main(args)


if __name__ == "__main__":
    main()

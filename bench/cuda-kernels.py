#!/usr/bin/env python3
"""What the CUDA kernels a plan for `cuda` assumes really do (issue 46),
measured on the GPU machine; targets/cuda.json is written from its JSON.

    bench/cuda-kernels.py [--out DIR] [--quick]

Every figure is the CUDA caching allocator's history around one call after
two warm-up calls (coreai_exec/allocations.py replays it): the bytes the
call allocated beyond the tensors it returned ("extra"; the allocator's
block sizes), and the results' bytes. Sections of the JSON:

- `attention`: per shape (heads, KV heads, head size of the decoders the
  project plans) and S, with a KV cache of 1024 positions in float16: the
  graphs' eager attention (bmm, scale, float16 mask, float32 softmax, bmm,
  with K/V repeated to every head) against `scaled_dot_product_attention`
  per backend (cuDNN, flash, efficient, math), with the float16 mask, with
  none, and causal on the written prefix; GQA through `enable_gqa` or with
  the heads repeated. A backend that refuses a case says why.
- `kv_write`: `index_put` (a new cache) against `index_put_` and
  `index_copy_` on the cache itself, deterministic algorithms on and off.
- `result_dtypes`: the dtypes of the normalisation kernels' results for
  float16 input on the CPU and on CUDA (native_layer_norm's mean and rstd,
  native_group_norm, native_batch_norm, _fused_rms_norm where it exists).
- `alignment`: the results' data_ptr alignment, and SDPA per backend, mm
  (cuBLAS, out= a view), layer norm, index_copy_ and an Inductor-compiled
  group run on views at offsets of one uint8 arena: ran or refused, extra
  bytes, bit-identical to the aligned run.
- `cublas_workspace`: per CUBLAS_WORKSPACE_CONFIG, the bytes the first
  matrix product of a fresh process allocated and kept (a subprocess each).
- `inductor_groups`: small groups compiled with torch.compile (Inductor):
  generated kernels, library calls, CUDA kernels launched per call (the
  profiler), extra bytes beyond the results.

`--quick` runs one shape and S (a CPU-free smoke test of the script on the
GPU). On a machine without CUDA the script exits 2 saying so.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "coreai-exec"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

# (name, heads, KV heads, head size): the attention of the decoders planned
# in bench/ and ../shared/graphs.
SHAPES = [
    ("gemma3-1b", 4, 1, 256),
    ("llama3.2-1b", 32, 8, 64),
    ("qwen3-0.6b", 16, 8, 128),  # also Qwen3-VL-2B's text decoder
    ("gemma4-e2b.sliding", 8, 1, 256),
    ("gemma4-e2b.global", 8, 1, 512),
    ("phi3-mini", 32, 32, 96),
    ("olmo2-1b", 16, 16, 128),
]
SEQ_LENS = [1, 32, 64, 128]
CACHE = 1024
DECODE_POSITION = 100  # where S=1 writes, as bench/decoders does
BACKENDS = ["cudnn", "flash", "efficient", "math"]


def first_line(error):
    text = str(error).strip().splitlines()
    return (type(error).__name__ + ": " + (text[0] if text else ""))[:300]


def measure(call, warmups=2):
    """{"extra_peak", "extra_total", "extra_blocks", "kept", "results"} of one
    call after `warmups` calls, or {"error": ...} when the call raises."""
    from coreai_exec import allocations
    history = allocations.AllocatorHistory(torch.device("cuda", torch.cuda.current_device()))
    try:
        for _ in range(warmups):
            call()
        torch.cuda.synchronize()
        returned, replayed = history.measure(call)
    except Exception as error:  # a backend that refuses a case: recorded, not fatal
        return {"error": first_line(error)}, None
    return replayed, returned


def attention_inputs(heads, kv_heads, head, seq, device, dtype=torch.float16):
    generator = torch.Generator(device=device).manual_seed(heads * 1000 + seq)
    q = torch.randn(1, heads, seq, head, device=device, dtype=dtype, generator=generator)
    k = torch.randn(1, kv_heads, CACHE, head, device=device, dtype=dtype, generator=generator)
    v = torch.randn(1, kv_heads, CACHE, head, device=device, dtype=dtype, generator=generator)
    start = DECODE_POSITION if seq == 1 else 0
    written = start + seq  # positions written so far: the rest of the cache is masked
    rows = torch.arange(start, start + seq, device=device)[:, None]
    cols = torch.arange(CACHE, device=device)[None, :]
    allowed = (cols <= rows) & (cols < written)
    mask = torch.zeros(1, 1, seq, CACHE, device=device, dtype=dtype)
    mask.masked_fill_(~allowed, torch.finfo(dtype).min)
    return q, k, v, mask, start, written


def repeat_heads(x, times):
    if times == 1:
        return x
    b, h, n, d = x.shape
    return x[:, :, None].expand(b, h, times, n, d).reshape(b, h * times, n, d)


def eager_attention(q, k, v, mask, times):
    """The graphs' eager attention: K/V repeated, bmm, scale, mask, float32
    softmax back to float16, bmm."""
    k, v = repeat_heads(k, times), repeat_heads(v, times)
    scores = torch.matmul(q, k.transpose(2, 3)) * (q.shape[-1] ** -0.5)
    scores = scores + mask
    probs = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
    return torch.matmul(probs, v)


def backend_context(name):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    return sdpa_kernel({"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
                        "efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH}[name])


def sdpa_call(backend, q, k, v, mask, times, variant, gqa, start, written):
    """One SDPA case: variant "mask" (the float16 mask over the whole cache),
    "none" (the whole cache, no mask), "causal_prefix" (the written prefix
    only, causal when S > 1); gqa "enable_gqa" or "repeated"."""
    if gqa == "repeated":
        k, v = repeat_heads(k, times), repeat_heads(v, times)
    extra = {"enable_gqa": True} if gqa == "enable_gqa" and times > 1 else {}
    if variant == "causal_prefix":
        k, v = k[:, :, :written], v[:, :, :written]

    def call():
        with backend_context(backend):
            if variant == "mask":
                return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, **extra)
            if variant == "none":
                return F.scaled_dot_product_attention(q, k, v, **extra)
            return F.scaled_dot_product_attention(q, k, v, is_causal=q.shape[2] > 1 and start == 0, **extra)
    return call


def attention_section(quick):
    rows = []
    shapes = SHAPES[:1] if quick else SHAPES
    for name, heads, kv_heads, head in shapes:
        times = heads // kv_heads
        for seq in (SEQ_LENS[1:2] if quick else SEQ_LENS):
            q, k, v, mask, start, written = attention_inputs(heads, kv_heads, head, seq, "cuda")
            reference = eager_attention(q.float(), k.float(), v.float(), mask.float(), times)
            row = {"shape": name, "heads": heads, "kv_heads": kv_heads, "head": head, "S": seq, "cache": CACHE,
                   "result_bytes": q.numel() * 2, "cases": []}
            replayed, out = measure(lambda: eager_attention(q, k, v, mask, times))
            row["eager"] = replayed
            if out is not None:
                row["eager"]["max_abs_vs_f32"] = float((out.float() - reference).abs().max())
            for backend in BACKENDS:
                for variant in ("mask", "none", "causal_prefix"):
                    for gqa in (("enable_gqa", "repeated") if times > 1 else ("repeated",)):
                        call = sdpa_call(backend, q, k, v, mask, times, variant, gqa, start, written)
                        replayed, out = measure(call)
                        case = {"backend": backend, "variant": variant, "gqa": gqa}
                        case.update(replayed)
                        if out is not None and variant != "none":
                            case["max_abs_vs_f32"] = float((out.float() - reference).abs().max())
                        row["cases"].append(case)
            rows.append(row)
            print("attention %s S=%d: eager extra %s" % (name, seq, row["eager"].get("extra_peak")), flush=True)
    return rows


def kv_write_section(quick):
    rows = []
    for name, heads, kv_heads, head in (SHAPES[:1] if quick else SHAPES[:3] + SHAPES[5:]):
        for seq in (32,) if quick else (1, 32, 128):
            start = DECODE_POSITION if seq == 1 else 0
            cache = torch.randn(1, kv_heads, CACHE, head, device="cuda", dtype=torch.float16)
            values = torch.randn(1, kv_heads, seq, head, device="cuda", dtype=torch.float16)
            positions = torch.arange(start, start + seq, device="cuda")
            row = {"shape": name, "S": seq, "cache_bytes": cache.numel() * 2, "values_bytes": values.numel() * 2}
            for deterministic in (False, True):
                torch.use_deterministic_algorithms(deterministic, warn_only=True)
                suffix = ".deterministic" if deterministic else ""
                row["index_put" + suffix] = measure(
                    lambda: torch.ops.aten.index_put.default(cache, [None, None, positions], values))[0]
                row["index_put_" + suffix] = measure(
                    lambda: torch.ops.aten.index_put_.default(cache, [None, None, positions], values))[0]
                row["index_copy_" + suffix] = measure(lambda: cache.index_copy_(2, positions, values))[0]
            torch.use_deterministic_algorithms(False)
            rows.append(row)
    return rows


def norm_results(device):
    """{op: [result dtypes]} of the normalisation kernels for float16 input."""
    x = torch.randn(8, 64, device=device, dtype=torch.float16)
    w = torch.ones(64, device=device, dtype=torch.float16)
    b = torch.zeros(64, device=device, dtype=torch.float16)
    found = {}
    cases = {
        "native_layer_norm": lambda: torch.ops.aten.native_layer_norm.default(x, [64], w, b, 1e-5),
        "native_group_norm": lambda: torch.ops.aten.native_group_norm.default(
            x.reshape(8, 64, 1), w, b, 8, 64, 1, 4, 1e-5),
        "native_batch_norm(training)": lambda: torch.ops.aten.native_batch_norm.default(
            x, w, b, torch.zeros(64, device=device, dtype=torch.float16),
            torch.ones(64, device=device, dtype=torch.float16), True, 0.1, 1e-5),
        "_native_batch_norm_legit_no_training": lambda: torch.ops.aten._native_batch_norm_legit_no_training.default(
            x, w, b, torch.zeros(64, device=device, dtype=torch.float16),
            torch.ones(64, device=device, dtype=torch.float16), 0.1, 1e-5),
    }
    if hasattr(torch.ops.aten, "_fused_rms_norm"):
        cases["_fused_rms_norm"] = lambda: torch.ops.aten._fused_rms_norm.default(x, [64], w, 1e-6)
    for name, call in cases.items():
        try:
            results = call()
            results = results if isinstance(results, (tuple, list)) else [results]
            found[name] = [{"dtype": str(r.dtype).replace("torch.", ""), "shape": list(r.shape)} for r in results]
        except Exception as error:
            found[name] = {"error": first_line(error)}
    return found


def arena_views(arena, offset, tensors):
    """Copies of `tensors` as views of `arena`, each at a multiple of 4096
    plus `offset` bytes."""
    views, cursor = [], 0
    for t in tensors:
        nbytes = t.numel() * t.element_size()
        view = arena[cursor + offset:cursor + offset + nbytes].view(t.dtype).view(t.shape)
        view.copy_(t)
        views.append(view)
        cursor += (nbytes + offset + 4095) // 4096 * 4096 + 4096
    return views


def alignment_section():
    """Each offset in a process of its own: a misaligned access is a sticky
    CUDA error that ends the process's context. Each case's record is
    printed as it finishes, so the case that lost the context is named."""
    rows = []
    for offset in (0, 2, 16, 32, 64, 128, 256):
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--alignment-offset", str(offset)],
                              capture_output=True, text=True, timeout=240,
                              env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools", "coreai-exec")))
        cases = {}
        for line in done.stdout.splitlines():
            if line.startswith("CASE "):
                name, entry = json.loads(line[5:])
                cases[name] = entry
        row = {"offset": offset, "cases": cases, "exit": done.returncode}
        if done.returncode:
            started = [line[6:] for line in done.stdout.splitlines() if line.startswith("START ")]
            row["lost_context_at"] = started[-1] if started and started[-1] not in cases else None
            row["lost_context"] = [line for line in done.stderr.splitlines() if "Error" in line][-1:] or \
                (done.stderr.strip().splitlines() or ["?"])[-1:]
        rows.append(row)
        print("alignment offset %d: exit %d, %s" % (offset, done.returncode, {
            n: ("error" if "error" in c else c.get("extra_peak")) for n, c in cases.items()}), flush=True)
    return rows


def alignment_offset(offset):
    """The cases at one offset (run by alignment_section in a process of its own)."""
    heads, kv_heads, head, seq = 16, 8, 128, 32
    q, k, v, mask, start, written = attention_inputs(heads, kv_heads, head, seq, "cuda")
    a = torch.randn(seq, 1024, device="cuda", dtype=torch.float16)
    bmat = torch.randn(1024, 2048, device="cuda", dtype=torch.float16)
    w = torch.randn(1024, device="cuda", dtype=torch.float16)
    cache = torch.randn(1, kv_heads, CACHE, head, device="cuda", dtype=torch.float16)
    positions = torch.arange(seq, device="cuda")
    arena = torch.empty(64 << 20, device="cuda", dtype=torch.uint8)

    def group(x, weight):
        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
        return (h.to(x.dtype) * weight) + x

    compiled = torch.compile(group, fullgraph=True, dynamic=False)
    baseline_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "cuda-kernels-alignment-baseline.pt")
    baseline = torch.load(baseline_path) if offset and os.path.exists(baseline_path) else {}
    print("START the copies into the arena views", flush=True)
    qv, kv, vv, mv, av, bv, wv, cv, outv = arena_views(
        arena, offset, [q, k, v, mask, a, bmat, w, cache, torch.zeros(seq, 2048, device="cuda",
                                                                       dtype=torch.float16)])
    cases = {}
    for backend in BACKENDS:
        for variant in ("mask", "none"):
            cases["sdpa.%s.%s" % (backend, variant)] = (
                lambda backend=backend, variant=variant: sdpa_call(
                    backend, qv, kv, vv, mv, heads // kv_heads, variant, "enable_gqa", start, written)())
    cases["mm.out"] = lambda: torch.mm(av, bv, out=outv)
    cases["native_layer_norm"] = lambda: torch.ops.aten.native_layer_norm.default(av, [1024], wv, None, 1e-5)
    cases["index_copy_"] = lambda: cv.index_copy_(2, positions, kv[:, :, :seq])
    cases["inductor.rms_norm_residual"] = lambda: compiled(av, wv)
    for name, call in cases.items():
        print("START %s" % name, flush=True)
        replayed, out = measure(call)
        entry = dict(replayed)
        if out is not None:
            first = out[0] if isinstance(out, (tuple, list)) else out
            entry["result_ptr_mod_256"] = first.data_ptr() % 256
            snapshot = first.detach().clone()
            if offset == 0:
                baseline[name] = snapshot.cpu()
            elif name in baseline:
                entry["bit_identical_to_offset_0"] = bool(torch.equal(snapshot.cpu(), baseline[name]))
        print("CASE " + json.dumps([name, entry]), flush=True)
    if offset == 0:
        torch.save(baseline, baseline_path)


CUBLAS_PROBE = r"""
import json, torch
from coreai_exec import allocations
device = torch.device("cuda", 0)
a = torch.randn(32, 2048, device=device, dtype=torch.float16)
b = torch.randn(2048, 2048, device=device, dtype=torch.float16)
history = allocations.AllocatorHistory(device)
before = torch.cuda.memory_allocated()
out, first = history.measure(lambda: a @ b)
after_first = torch.cuda.memory_allocated() - before - out.numel() * 2
_, second = history.measure(lambda: a @ b)
x = torch.randn(8, 32, 128, device=device, dtype=torch.float16)
y = torch.randn(8, 128, 1024, device=device, dtype=torch.float16)
_, bmm = history.measure(lambda: torch.bmm(x, y))
print(json.dumps({"first_mm": first, "kept_after_first_mm": after_first, "second_mm": second, "first_bmm": bmm}))
"""


def cublas_section():
    rows = []
    for config in (None, ":4096:8", ":16:8", ":0:0"):
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools", "coreai-exec"))
        env.pop("CUBLAS_WORKSPACE_CONFIG", None)
        if config:
            env["CUBLAS_WORKSPACE_CONFIG"] = config
        done = subprocess.run([sys.executable, "-c", CUBLAS_PROBE], capture_output=True, text=True, env=env,
                              timeout=120)
        row = {"CUBLAS_WORKSPACE_CONFIG": config or "unset"}
        try:
            row.update(json.loads(done.stdout.strip().splitlines()[-1]))
        except Exception:
            row["error"] = (done.stderr or done.stdout)[-600:]
        rows.append(row)
        print("cublas %s: %s" % (row["CUBLAS_WORKSPACE_CONFIG"], row.get("kept_after_first_mm", row.get("error"))),
              flush=True)
    return rows


def inductor_groups(seq):
    """name -> (function, inputs): small groups of the decoders' kinds."""
    h = lambda *shape, dtype=torch.float16: torch.randn(*shape, device="cuda", dtype=dtype)  # noqa: E731
    hidden, inter, heads, head = 2048, 8192, 16, 128

    def swiglu(gate, up):
        return F.silu(gate) * up

    def rms_norm(x, w):
        y = x.float()
        y = y * torch.rsqrt(y.pow(2).mean(-1, keepdim=True) + 1e-6)
        return w * y.to(x.dtype)

    def residual_rms_norm(x, r, w):
        s = x + r
        y = s.float()
        y = y * torch.rsqrt(y.pow(2).mean(-1, keepdim=True) + 1e-6)
        return s, w * y.to(x.dtype)

    def layer_norm(x, w, b):
        return torch.ops.aten.native_layer_norm.default(x, [hidden], w, b, 1e-5)

    def rope(q, cos, sin):
        half = q.shape[-1] // 2
        rotated = torch.cat((-q[..., half:], q[..., :half]), dim=-1)
        return q * cos + rotated * sin

    def masked_softmax(scores, mask):
        return torch.softmax(scores * 0.088 + mask, dim=-1, dtype=torch.float32).to(torch.float16)

    def mm_epilogue(x, w, b):
        return F.gelu(torch.mm(x, w) + b, approximate="tanh")

    def attention_ops(q, k, v, mask):
        return eager_attention(q, k, v, mask, 2)

    def cast_chain(x):
        return (x.float() * 2.0 + 1.0).to(torch.float16)

    q, k, v, mask, _, _ = attention_inputs(heads, heads // 2, head, seq, "cuda")
    return {
        "elementwise.swiglu": (swiglu, (h(seq, inter), h(seq, inter))),
        "cast.f16-f32-f16": (cast_chain, (h(seq, hidden),)),
        "norm.rms_norm(cast prologue, weight epilogue)": (rms_norm, (h(seq, hidden), h(hidden))),
        "norm.residual_add+rms_norm": (residual_rms_norm, (h(seq, hidden), h(seq, hidden), h(hidden))),
        "norm.native_layer_norm": (layer_norm, (h(seq, hidden), h(hidden), h(hidden))),
        "rope": (rope, (h(1, heads, seq, head), h(1, 1, seq, head), h(1, 1, seq, head))),
        "softmax.scale+mask+f32": (masked_softmax, (h(1, heads, seq, CACHE), h(1, 1, seq, CACHE))),
        "matmul+bias+gelu": (mm_epilogue, (h(seq, hidden), h(hidden, inter), h(inter))),
        "attention.ops(bmm,scale,mask,softmax,bmm)": (attention_ops, (q, k, v, mask)),
    }


def kernel_launches(call):
    """CUDA kernels one call launched, from the profiler."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        call()
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if getattr(e, "device_type", None) is not None
             and str(e.device_type).endswith("CUDA")]
    return len(names), sorted(set(names))[:12]


def into_slots(function, inputs):
    """The group compiled with its results written into given tensors (the
    planned slots: `copy_` into inputs inside the compiled graph), as a
    runtime binds them: the extra bytes, and whether the slots got the
    values the group returns."""
    expected = function(*inputs)
    expected = expected if isinstance(expected, (tuple, list)) else (expected,)
    slots = [torch.empty_like(e) for e in expected]

    def writing(*args):
        values = function(*args[:len(inputs)])
        values = values if isinstance(values, (tuple, list)) else (values,)
        for slot, value in zip(args[len(inputs):], values):
            slot.copy_(value)

    compiled = torch.compile(writing, fullgraph=True, dynamic=False)
    from coreai_exec.fused import library_calls
    from torch._inductor import metrics
    from torch._inductor.utils import run_and_get_code
    before = metrics.generated_kernel_count
    _, codes = run_and_get_code(compiled, *inputs, *slots)
    found = {"generated_kernels": metrics.generated_kernel_count - before, "library_calls": library_calls(codes)}
    found["measured"] = measure(lambda: compiled(*inputs, *slots))[0]
    found["cuda_kernels_per_call"] = kernel_launches(lambda: compiled(*inputs, *slots))[0]
    found["max_abs_vs_eager"] = max(float((s.float() - e.float()).abs().max()) for s, e in zip(slots, expected))
    return found


def inductor_section(quick):
    from coreai_exec.fused import library_calls
    from torch._inductor import metrics
    from torch._inductor.utils import run_and_get_code
    rows = []
    for seq in (32,) if quick else (1, 32):
        for name, (function, inputs) in inductor_groups(seq).items():
            torch._dynamo.reset()
            compiled = torch.compile(function, fullgraph=True, dynamic=False)
            row = {"group": name, "S": seq}
            try:
                before = metrics.generated_kernel_count
                _, codes = run_and_get_code(compiled, *inputs)
                row["generated_kernels"] = metrics.generated_kernel_count - before
                row["library_calls"] = library_calls(codes)
                row["measured"] = measure(lambda: compiled(*inputs))[0]
                row["cuda_kernels_per_call"], row["kernel_names"] = kernel_launches(lambda: compiled(*inputs))
                row["into_slots"] = into_slots(function, inputs)
                eager = measure(lambda: function(*inputs))[0]
                row["eager_extra_peak"] = eager.get("extra_peak")
                row["eager_cuda_kernels_per_call"] = kernel_launches(lambda: function(*inputs))[0]
            except Exception as error:
                row["error"] = first_line(error)
            rows.append(row)
            print("inductor %s S=%d: %s kernels, %s" % (name, seq, row.get("cuda_kernels_per_call"),
                                                        row.get("library_calls", row.get("error"))), flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "cuda-kernels-runs"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--alignment-offset", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.alignment_offset is not None:
        alignment_offset(args.alignment_offset)
        return 0
    if not torch.cuda.is_available():
        print("cuda-kernels.py: no CUDA device here; this measures the GPU's kernels", file=sys.stderr)
        return 2
    started = time.time()
    card = torch.cuda.get_device_name()
    short = "h200" if "H200" in card else "h100" if "H100" in card else card.split()[-1].lower()
    record = {"method": __doc__.split("\n\n", 2)[2].split("\n\n- ")[0].strip(),
              "command": "python3 bench/cuda-kernels.py" + (" --quick" if args.quick else ""),
              "versions": {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
                           "python": platform.python_version(), "gpu": card},
              "date": datetime.date.today().isoformat(), "cache_positions": CACHE, "decode_position": DECODE_POSITION}
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(ROOT, ".cache", "inductor"))
    sections = [("result_dtypes", lambda: {"cpu": norm_results("cpu"), "cuda": norm_results("cuda")}),
                ("kv_write", lambda: kv_write_section(args.quick)),
                ("attention", lambda: attention_section(args.quick)),
                ("inductor_groups", lambda: inductor_section(args.quick)),
                ("cublas_workspace", cublas_section),
                ("alignment", alignment_section)]
    for name, section in sections:
        began = time.time()
        try:
            record[name] = section()
        except Exception:
            record[name] = {"error": traceback.format_exc()[-1500:]}
            print("section %s failed:\n%s" % (name, record[name]["error"]), flush=True)
        print("section %s: %.1f s" % (name, time.time() - began), flush=True)
    record["wall_s"] = round(time.time() - started, 1)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "%s-%s%s.json" % (short, record["date"], "-quick" if args.quick else ""))
    with open(path + ".tmp", "w") as f:
        json.dump(record, f, indent=1)
    os.replace(path + ".tmp", path)
    print("wrote %s in %.0f s" % (path, record["wall_s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

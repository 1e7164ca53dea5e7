#!/usr/bin/env python3
"""Tiny decoders with a DYNAMIC chunk size S as torch.export archives, for
`coreai-plan plan X.pt2 --chunks 1..64` (docs/PARAMETRIC.md). Runs where
torch 2.x and transformers are installed (export on the CPU); nothing is
downloaded: each model is built from a config, random f32 weights.

    python3 bench/decoders/export_dynamic.py OUT [--families qwen3,smollm2]
        [--smin 1] [--smax 64] [--hint 8]

A family of export_decoders.FAMILIES (`--families llama3.2-1b`) is
exported at its published shape instead, in f16, as
OUT/<family>.f16.dyn.*.pt2.

Writes OUT/<family>-tiny.f32.dyn.export.pt2 (torch.export.export as
returned) and OUT/<family>-tiny.f32.dyn.core-aten.pt2 (after
run_decompositions()), both stripped like export_decoders.py's (data/
members over 4 KB dropped, the rest deflated: coreai-plan reads only
models/*.json), and OUT/export_dynamic.json (versions, configs, node
counts, range_constraints, checks).

Conventions of ../shared/exports/llama-tiny.f32.dyn.*.pt2 and
../shared/graphs/tiny (qwen3-tiny, llama-tiny): hidden 64, 3 layers, 4
heads, 2 KV heads, head_dim 16, MLP 128, vocab 512, tied embeddings, eager
attention, a static KV cache of 128 positions held by transformers'
`TorchExportableModuleWithStaticCache` (buffers key_cache_i, value_cache_i,
cumulative_length_i; export_decoders.make_wrapper's rebinding of the cache
layers to those buffers), `torch.export.export(strict=False)` under
no_grad with kwargs input_ids [1, S] i64 and cache_position [S] i64 where
S = Dim("S", min=SMIN, max=SMAX), traced with S = HINT (positions 0..S-1).
"""
import argparse
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import export_decoders as ed  # noqa: E402  (no torch at import time)

CACHE = 128
ed.CACHE = CACHE          # make_wrapper reads the module's CACHE

TINY_DYN = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=3,
                num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                vocab_size=512, max_position_embeddings=4096,
                tie_word_embeddings=True)
SPECS = {
    # Qwen3: q/k RMSNorm per head, rope theta 1e6, eps 1e-6.
    "qwen3": dict(TINY_DYN, cls="qwen3", rms_norm_eps=1e-6,
                  rope=dict(rope_type="default", rope_theta=1000000.0)),
    # SmolLM2 (Llama layers): default rope theta 1e5, eps 1e-5.
    "smollm2": dict(TINY_DYN, cls="llama", rms_norm_eps=1e-5,
                    rope=dict(rope_type="default", rope_theta=100000.0)),
}


def sample(spec, s):
    import torch
    g = torch.Generator().manual_seed(1)
    return {"input_ids": torch.randint(0, spec["vocab_size"], (1, s),
                                       generator=g),
            "cache_position": torch.arange(s, dtype=torch.long)}


def export_dynamic(wrapper, kwargs, smin, smax):
    """torch.export with S dynamic; tries the spellings of dynamic_shapes
    that torch versions accept for a kwargs-only call."""
    import torch
    from torch.export import Dim
    S = Dim("S", min=smin, max=smax)
    variants = [
        {"input_ids": {1: S}, "cache_position": {0: S}},
        {"input_ids": {1: S}, "inputs_embeds": None, "cache_position": {0: S}},
        (),  # filled below: as a tuple over forward's parameters
    ]
    variants[2] = ({1: S}, None, {0: S})
    errors = []
    for dyn in variants:
        try:
            with torch.no_grad():
                ep = torch.export.export(wrapper, args=(), kwargs=kwargs,
                                         dynamic_shapes=dyn, strict=False)
            return ep, dyn, errors
        except Exception as e:  # next spelling
            errors.append(f"{type(e).__name__}: {e}"[:3000])
            # a constraint violation is not a spelling problem: stop
            if "Constraint" in type(e).__name__ or "ConstraintViolation" in str(e)[:200]:
                break
    raise RuntimeError("export failed:\n" + "\n---\n".join(errors))


def check_program(ep, wrapper_factory, spec, sizes):
    """Runs the exported program (fresh caches) and the eager wrapper at
    each S; returns the max abs difference of the logits per S."""
    import torch
    out = {}
    for s in sizes:
        kw = sample(spec, s)
        try:
            with torch.no_grad():
                eager = wrapper_factory()(**kw)
                got = ep.module()(**kw)
            if isinstance(got, (tuple, list)):
                got = got[0]
            out[str(s)] = dict(shape=list(got.shape),
                               max_abs_diff=float((got - eager).abs().max()))
        except Exception as e:
            out[str(s)] = dict(error=f"{type(e).__name__}: {e}"[:1500])
    return out


def one(family, out, args):
    import torch
    if family in SPECS:
        spec, dtype = dict(SPECS[family]), torch.float32
        name = f"{family}-tiny.f32.dyn"
    else:  # a published shape (export_decoders.FAMILIES), random f16
        spec, dtype = dict(ed.FAMILIES[family]), torch.float16
        name = f"{family}.f16.dyn"
    rec = dict(name=name, spec={k: v for k, v in spec.items()},
               max_cache_len=CACHE, sym_range=[args.smin, args.smax],
               hint=args.hint, attn_implementation="eager")
    t0 = time.time()
    model = ed.make_model(spec, "eager", dtype, "cpu")
    wrapper = ed.make_wrapper(model, "cpu")
    rec["wrapper"] = type(wrapper).__mro__[1].__name__
    rec["hf_config"] = json.loads(model.config.to_json_string())
    rec["aliased_buffers"] = ed.aliased_buffers(wrapper)
    kwargs = sample(spec, args.hint)
    t1 = time.time()
    ep, dyn, tried = export_dynamic(wrapper, kwargs, args.smin, args.smax)
    rec["export_s"] = time.time() - t1
    rec["build_s"] = t1 - t0
    rec["dynamic_shapes"] = repr(dyn)
    rec["failed_spellings"] = tried
    rec["range_constraints"] = {str(k): str(v)
                                for k, v in ep.range_constraints.items()}
    files = {}
    scratch = os.path.join(out, "unstripped")
    os.makedirs(scratch, exist_ok=True)

    def save(form, program):
        fname = f"{name}.{form}.pt2"
        full = os.path.join(scratch, fname)
        torch.export.save(program, full)
        files[fname] = ed.strip(full, os.path.join(out, fname))
        files[fname]["nodes"] = len(program.graph.nodes)
        os.remove(full)

    save("export", ep)
    rec["files"] = files
    try:
        t2 = time.time()
        with torch.no_grad():
            core = ep.run_decompositions()
        rec["decompose_s"] = time.time() - t2
        save("core-aten", core)
    except Exception as e:
        rec["decompose_error"] = f"{type(e).__name__}: {e}"[:3000]
        rec["decompose_traceback"] = traceback.format_exc()[-4000:]

    def fresh():
        torch.manual_seed(0)
        m = ed.make_model(spec, "eager", dtype, "cpu")
        return ed.make_wrapper(m, "cpu")
    try:
        # the same weights: make_model seeds 0 itself; fresh caches each S
        rec["check_export_vs_eager"] = check_program(
            ep, fresh, spec, sorted({args.smin, 7, args.hint, args.smax}))
    except Exception as e:
        rec["check_error"] = f"{type(e).__name__}: {e}"[:2000]
    return rec


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--families", default="qwen3,smollm2")
    p.add_argument("--smin", type=int, default=1)
    p.add_argument("--smax", type=int, default=64)
    p.add_argument("--hint", type=int, default=8)
    args = p.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    summary = dict(command=" ".join(sys.argv), results=[])
    try:
        summary["versions"] = ed.versions()
    except Exception as e:
        summary["versions_error"] = repr(e)
    print(json.dumps(summary.get("versions")), flush=True)
    for fam in args.families.split(","):
        started = time.time()
        try:
            rec = one(fam, out, args)
            rec["status"] = "ok"
        except Exception as e:
            rec = dict(name=fam, status="error",
                       error=f"{type(e).__name__}: {e}"[:6000],
                       traceback=traceback.format_exc()[-6000:])
        rec["seconds"] = time.time() - started
        summary["results"].append(rec)
        short = {k: rec.get(k) for k in ("status", "error", "files",
                                         "range_constraints",
                                         "decompose_error",
                                         "check_export_vs_eager",
                                         "seconds")}
        print(fam, json.dumps(short, default=str)[:4000], flush=True)
        with open(os.path.join(out, "export_dynamic.json"), "w") as fp:
            json.dump(summary, fp, indent=1, default=str)
    scratch = os.path.join(out, "unstripped")
    if os.path.isdir(scratch) and not os.listdir(scratch):
        os.rmdir(scratch)


if __name__ == "__main__":
    main()

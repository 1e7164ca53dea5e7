#!/usr/bin/env python3
"""The two graphs issue 40 names as slow to plan without fusion, exported
as torch.export archives (weights stripped, as bench/decoders' are):

- a Gemma-3-1B-shaped decoder (the published config's shapes typed in,
  random weights, f16), through transformers' ExecuTorch wrapper with its
  hybrid (sliding-window) cache, at S = 1 and S = 32, eager attention;
- torchvision's ViT-B/16 (random weights, f32, one 224x224 image).

    python3 bench/speed/export_speed_graphs.py OUT

Reuses bench/decoders/export_decoders.py's model, wrapper, inputs and
stripping; builds on the CPU. Made with torch 2.14.1, transformers 5.25.0,
torchvision 0.29.1 (PyPI).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "decoders"))
import export_decoders as ed  # noqa: E402

# The Gemma-3-1B shapes are export_decoders.FAMILIES["gemma3-1b"].


def save(program, out, name):
    import torch
    full = os.path.join(out, "unstripped-" + name)
    torch.export.save(program, full)
    info = ed.strip(full, os.path.join(out, name))
    os.remove(full)
    print(name, info, flush=True)


def export_gemma(out, s):
    import torch
    spec = ed.spec_of("gemma3-1b", False)
    model = ed.make_model(spec, "eager", torch.float16, "cpu")
    wrapper = ed.make_wrapper(model, "cpu")
    with torch.no_grad():
        ep = torch.export.export(wrapper, args=(), kwargs=ed.inputs(spec, s, "cpu"),
                                 strict=False)
        save(ep, out, f"gemma3-1b.f16.eager.s{s}.export.pt2")
        save(ep.run_decompositions(), out,
             f"gemma3-1b.f16.eager.s{s}.core-aten.pt2")


def export_vit(out):
    import torch
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.vit_b_16(weights=None).eval()
    model.requires_grad_(False)
    with torch.no_grad():
        ep = torch.export.export(model, (torch.randn(1, 3, 224, 224),))
        save(ep, out, "vit-b16.f32.export.pt2")
        save(ep.run_decompositions(), out, "vit-b16.f32.core-aten.pt2")


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    export_vit(out)
    for s in (1, 32):
        export_gemma(out, s)

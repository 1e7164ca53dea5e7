#!/usr/bin/env python3
"""The ExecuTorch programs test/lit/pte reads: tiny models, random weights,
exported with ExecuTorch's default pipeline (portable kernels, no
delegate) and its own memory planning (greedy, alignment 16).

    python3 test/lit/pte/Inputs/make_pte_fixtures.py OUTDIR

Made with executorch 1.5.1 and torch 2.14.1 (CPU) from PyPI in a private
virtual environment:

    python3 -m venv /tmp/etvenv
    /tmp/etvenv/bin/pip install executorch==1.5.1 torch==2.14.1
    /tmp/etvenv/bin/python test/lit/pte/Inputs/make_pte_fixtures.py test/lit/pte/Inputs

The seed is fixed, but the bytes depend on the versions; the tests check
what the planner reads (tensors, live ranges, arenas), not the bytes.

- mlp.pte: one method, `forward`, Linear-ReLU-Linear with a reshape;
  with stack traces (each instruction's source line).
- decoder.pte: a two-layer decoder whose KV caches are registered buffers
  (mutable state): methods `prefill` (4 tokens) and `decode` (1 token),
  each with its own copy of the caches in memory id 1.
- decoder-shared.pte: the same with ExecuTorch's share_mutable_buffers: the
  caches in memory id 2, one copy at the same offsets in both methods.
- decoder-unnamed.pte: decoder.pte exported without
  emit_mutable_buffer_names: its caches carry no names (issue 48).
- mlp-xnnpack.pte: the MLP lowered to XNNPACK (XnnpackPartitioner):
  ExecuTorch pads the arena of a method with an XNNPACK delegate by 64
  bytes (issue 48).

`--only NAME,...` writes only those files (the others keep their bytes).
"""
import os
import sys

import torch
from executorch.exir import (ExecutorchBackendConfig, to_edge,
                             to_edge_transform_and_lower)
from executorch.exir.passes import MemoryPlanningPass
from torch.export import export

HIDDEN, HEADS, CACHE, VOCAB, LAYERS, PREFILL = 16, 2, 16, 32, 2, 4


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up = torch.nn.Linear(16, 32)
        self.down = torch.nn.Linear(32, 8)

    def forward(self, x):
        h = torch.relu(self.up(x))
        return self.down(h.reshape(4, 32)).reshape(2, 2, 8)


class Layer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = torch.nn.Linear(HIDDEN, 3 * HIDDEN, bias=False)
        self.out = torch.nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.mlp_up = torch.nn.Linear(HIDDEN, 4 * HIDDEN, bias=False)
        self.mlp_down = torch.nn.Linear(4 * HIDDEN, HIDDEN, bias=False)
        self.norm1 = torch.nn.LayerNorm(HIDDEN)
        self.norm2 = torch.nn.LayerNorm(HIDDEN)
        shape = (1, HEADS, CACHE, HIDDEN // HEADS)
        self.register_buffer("k_cache", torch.zeros(shape), persistent=False)
        self.register_buffer("v_cache", torch.zeros(shape), persistent=False)

    def forward(self, x, pos):
        s = x.shape[1]
        q, k, v = self.qkv(self.norm1(x)).split(HIDDEN, dim=-1)
        def heads(t):
            return t.view(1, s, HEADS, HIDDEN // HEADS).transpose(1, 2)
        q, k, v = heads(q), heads(k), heads(v)
        self.k_cache.index_copy_(2, pos, k)
        self.v_cache.index_copy_(2, pos, v)
        mask = torch.arange(CACHE).unsqueeze(0) <= pos.unsqueeze(1)
        a = torch.nn.functional.scaled_dot_product_attention(
            q, self.k_cache, self.v_cache, attn_mask=mask)
        x = x + self.out(a.transpose(1, 2).reshape(1, s, HIDDEN))
        return x + self.mlp_down(torch.relu(self.mlp_up(self.norm2(x))))


class Decoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, HIDDEN)
        self.layers = torch.nn.ModuleList(Layer() for _ in range(LAYERS))
        self.head = torch.nn.Linear(HIDDEN, VOCAB, bias=False)

    def forward(self, tokens, pos):
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x, pos)
        return self.head(x)


def program(methods, share, stacktrace=False, names=True, xnnpack=False):
    if xnnpack:
        from executorch.backends.xnnpack.partition.xnnpack_partitioner \
            import XnnpackPartitioner
        edge = to_edge_transform_and_lower(
            methods, partitioner=[XnnpackPartitioner()])
    else:
        edge = to_edge(methods)
    config = ExecutorchBackendConfig(
        memory_planning_pass=MemoryPlanningPass(share_mutable_buffers=share),
        emit_mutable_buffer_names=names, emit_stacktrace=stacktrace)
    return edge.to_executorch(config).buffer


def main(out, only=None):
    torch.manual_seed(0)
    os.makedirs(out, exist_ok=True)
    with torch.no_grad():
        mlp = MLP().eval()
        files = {"mlp.pte": program(
            {"forward": export(mlp, (torch.randn(2, 2, 16),))}, False, True)}
        decoder = Decoder().eval()
        methods = {
            "prefill": export(decoder, (torch.zeros(1, PREFILL, dtype=torch.long),
                                        torch.arange(PREFILL))),
            "decode": export(decoder, (torch.zeros(1, 1, dtype=torch.long),
                                       torch.tensor([PREFILL]))),
        }
        files["decoder.pte"] = program(methods, False)
        files["decoder-shared.pte"] = program(methods, True)
        files["decoder-unnamed.pte"] = program(methods, False, names=False)
        files["mlp-xnnpack.pte"] = program(
            {"forward": export(mlp, (torch.randn(2, 2, 16),))}, False,
            xnnpack=True)
    for name, data in files.items():
        if only and name not in only:
            continue
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print("%s: %d bytes" % (name, len(data)))


if __name__ == "__main__":
    args = sys.argv[1:]
    only = None
    if "--only" in args:
        at = args.index("--only")
        only = args[at + 1].split(",")
        del args[at:at + 2]
    main(args[0] if args else os.path.dirname(__file__), only)

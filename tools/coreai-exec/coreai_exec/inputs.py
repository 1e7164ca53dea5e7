"""Seeded argument values: the same bytes for the planned and the unplanned run.

Each argument's values depend only on the seed, its kind and its name (not
on the order arguments are made in), and are generated on the run's device
when first asked for, so a full-size model's weights never pass through the
host. Floating weights and constants are uniform: matrices, kernels and
embeddings in [-b, b] with b = sqrt(3 / fan-in) (at most 1), so the signal
neither dies out nor blows up through the layers and every value still
depends on the input; norm scales (1-D `*weight`) and BatchNorm running
variances in [0.5, 1.5]; everything else (biases, scalars, rotary
frequencies) in [-scale, scale]; integer weights are 0; `input_ids` lie below the vocabulary (the smallest
embedding table the ids index); `cache_position` is start..start+S-1; KV
caches are zero or random at the same scale; integer state is `start`.
"""

import math
import zlib

import torch

from . import aten


class Inputs:
    """Argument values, made once per (kind, name, shape, dtype): functions of
    one bundle that share weights by name share the tensors too."""

    def __init__(self, device, seed=0, scale=0.05, kv_cache="zero", start=0):
        self.device = torch.device(device)
        self.seed, self.scale, self.kv_cache, self.start = seed, scale, kv_cache, start
        self.cache = {}

    def _generator(self, name):
        g = torch.Generator(device=self.device)
        g.manual_seed((self.seed * 1000003 + zlib.crc32(name.encode())) & 0x7FFFFFFFFFFFFFFF)
        return g

    CHUNK = 1 << 24  # elements drawn at a time: bounds the float32 temporary

    def _uniform(self, name, shape, dtype, low, high):
        g = self._generator(name)
        result = torch.empty(shape, dtype=dtype, device=self.device)
        flat = result.view(-1)
        for start in range(0, flat.numel(), self.CHUNK):
            count = min(self.CHUNK, flat.numel() - start)
            values = torch.rand(count, generator=g, device=self.device, dtype=torch.float32)
            flat[start:start + count] = values * (high - low) + low
        return result

    def value(self, argument, shape, vocab=None):
        """The value of `argument` (mlir.Argument) at the given (specialised) shape."""
        kind = argument.attrs.get("coreai.kind", "input")
        name = argument.attrs.get("coreai.name", argument.name)
        dtype = aten.dtype_of(argument.type.element)
        key = (kind, name, tuple(shape), dtype, vocab if name == "input_ids" else None)
        if key not in self.cache:
            self.cache[key] = self._make(kind, name, tuple(shape), dtype, vocab)
        return self.cache[key]

    def _make(self, kind, name, shape, dtype, vocab):
        floating = dtype.is_floating_point
        if kind in ("weight", "constant"):
            if not floating:
                return torch.zeros(shape, dtype=dtype, device=self.device)
            if len(shape) >= 2:  # matrices, kernels, embeddings: the signal keeps its size
                bound = min(1.0, math.sqrt(3.0 / max(1, math.prod(shape[1:]))))
                return self._uniform(name, shape, dtype, -bound, bound)
            if name.endswith("running_var") or (len(shape) == 1 and name.endswith("weight")):
                return self._uniform(name, shape, dtype, 0.5, 1.5)  # variances, norm scales
            return self._uniform(name, shape, dtype, -self.scale, self.scale)
        if kind == "state":
            if not floating:
                return torch.full(shape, self.start, dtype=dtype, device=self.device)
            if self.kv_cache == "random":
                return self._uniform(name, shape, dtype, -self.scale, self.scale)
            return torch.zeros(shape, dtype=dtype, device=self.device)
        if name == "cache_position":
            return torch.arange(self.start, self.start + shape[0], dtype=dtype, device=self.device)
        if name == "input_ids":
            g = self._generator(name)
            return torch.randint(0, vocab or 2, shape, generator=g, device=self.device, dtype=dtype)
        if floating:
            g = self._generator(name)
            return torch.randn(shape, generator=g, device=self.device, dtype=torch.float32).to(dtype)
        if dtype == torch.bool:
            return torch.ones(shape, dtype=dtype, device=self.device)
        return torch.zeros(shape, dtype=dtype, device=self.device)


def vocabulary_of(function):
    """Rows of the smallest embedding table indexed by the `input_ids` argument
    (through views), or None."""
    ids = {a.name for a in function.arguments if a.attrs.get("coreai.name") == "input_ids"}
    rows = []
    for op in function.ops:
        if op.attrs.get("coreai.alias_of") and op.operands and op.operands[0] in ids:
            ids.update(op.results)
        if op.name == "torch.aten.embedding" and len(op.operands) >= 2 and op.operands[1] in ids:
            table = op.operand_types[0]
            if getattr(table, "shape", None) and table.shape[0] is not None:
                rows.append(table.shape[0])
    return min(rows) if rows else None

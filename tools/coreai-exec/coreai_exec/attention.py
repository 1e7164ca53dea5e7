"""An attention group of the plan run as ONE `scaled_dot_product_attention`
(the CUDA runtime, runtime_cuda.py).

Fusion's attention role (docs/FUSION.md) groups the attention math into one
kernel: `q kᵀ`, its scale and mask, a softmax, the product with `v`, with
the repeated K/V heads of GQA (an `expand` of the cache and its `clone`)
and the casts around the softmax. `match` reads such a group from its ops
(their names, operands, result types and `coreai.args`), never from a
role the planner wrote, and finds:

- the two products (`bmm` or `matmul`) with a softmax over the last
  dimension between them, the first product's result reaching the softmax
  only through views, casts, scalar multiplications or divisions (the
  scale) and one `add` of a value from outside the group (the mask);
- q, k and v as values from outside the group reached through views and
  copies only (`clone` of the GQA `expand` is where a kernel reads the
  cache directly): k through exactly one swap of its last two dimensions,
  q and v through none; a K/V of five dimensions with a broadcast third
  (the `expand` of GQA, stride 0) is the cache's KV heads, read with
  `enable_gqa`;
- nothing else in the group that computes (a soft-capping `tanh`, a
  dropout, a prologue that computes: no match, and the group is compiled
  as any other).

`AttentionCall.run` then calls SDPA on those operands (the mask where the
group has one, the scale it found) and returns the second product's value
in its shape. The runtime checks it against the group's ops run one by one.
"""

import torch

from . import pyargs

VIEWS = {"view", "_unsafe_view", "reshape", "expand", "unsqueeze", "squeeze", "alias", "permute", "transpose",
         "t"}
COPIES = {"clone", "contiguous"}
CASTS = {"_to_copy", "to"}
SWAPS = {"permute", "transpose", "t"}
SOFTMAX = {"_softmax", "_safe_softmax", "softmax"}
PRODUCTS = {"bmm", "matmul"}
NO_RESULT = {"_assert_tensor_metadata"}


def short(op):
    return op.name[len("torch.aten."):] if op.name.startswith("torch.aten.") else op.name


class AttentionCall:
    """One matched group: the names of q, k, v (and the mask) outside it,
    the scale, and the result that SDPA's value replaces."""

    def __init__(self, step, q, k, v, mask, scale, result, result_shape):
        self.step, self.q, self.k, self.v, self.mask = step, q, k, v, mask
        self.scale, self.result, self.result_shape = scale, result, result_shape

    def operands(self, env):
        """(q [B, H, S, D], k [B, KV, L, D], v, mask or None, gqa) from the
        tensors bound outside the group, or None where they do not read as
        attention's operands."""
        q = env[self.q]
        if q.dim() == 3:
            q = q.unsqueeze(0)
        k, v = heads(env[self.k]), heads(env[self.v])
        if q.dim() != 4 or k is None or v is None or k.shape != v.shape or k.shape[0] != q.shape[0]:
            return None
        if q.shape[1] % k.shape[1] or k.shape[-1] != q.shape[-1]:
            return None
        mask = env[self.mask] if self.mask is not None else None
        if mask is not None and (mask.dim() != 4 or mask.shape[-1] != k.shape[2]):
            return None
        return q, k, v, mask, q.shape[1] != k.shape[1]

    def run(self, env, backend=None):
        """SDPA's result in the second product's shape (a temporary: SDPA has no out=)."""
        q, k, v, mask, gqa = self.operands(env)
        keyword = {"attn_mask": mask, "scale": self.scale}
        if gqa:
            keyword["enable_gqa"] = True
        with backend_context(backend):
            value = torch.nn.functional.scaled_dot_product_attention(q, k, v, **keyword)
        return value.reshape(self.result_shape)


def heads(tensor):
    """The cache's heads [B, KV, L, D]: as it is, or the KV heads of a GQA
    `expand` [B, KV, rep, L, D] (its third dimension broadcast)."""
    if tensor.dim() == 4:
        return tensor
    if tensor.dim() == 5 and tensor.stride(2) == 0:
        return tensor.select(2, 0)
    return None


def backend_context(name):
    """`sdpa_kernel` restricted to one backend (cudnn, flash, efficient,
    math), or no restriction."""
    import contextlib
    if not name:
        return contextlib.nullcontext()
    from torch.nn.attention import SDPBackend, sdpa_kernel
    return sdpa_kernel({"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
                        "efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH}[name])


def scalar_argument(op, symbols):
    """The scalar operand of a `mul`/`div` by a number, or None."""
    text = op.attrs.get("coreai.args")
    if text is None or len(op.operands) != 1:
        return None
    try:
        positional, keyword = pyargs.parse_call(text, symbols)
    except pyargs.ArgsError:
        return None
    if keyword or len(positional) != 2 or not isinstance(positional[1], (int, float)):
        return None
    return float(positional[1])


def match(step, symbols):
    """The group's AttentionCall, or None when it is not attention as above."""
    made = {name: op for op in step.ops for name in op.results}
    ops = [op for op in step.ops if op.results]
    softmaxes = [op for op in ops if short(op) in SOFTMAX]
    products = [op for op in ops if short(op) in PRODUCTS]
    if len(softmaxes) != 1 or len(products) != 2:
        return None
    softmax = softmaxes[0]
    if not softmax_over_last(softmax, symbols):
        return None
    used = {id(softmax)}
    # The first product to the softmax: views, casts, the scale and the mask.
    scale, mask, name = 1.0, None, softmax.operands[0]
    first = None
    while name in made:
        op = made[name]
        used.add(id(op))
        kind = short(op)
        if kind in PRODUCTS:
            first = op
            break
        if kind in VIEWS - SWAPS or kind in COPIES or kind in CASTS:
            name = op.operands[0]
        elif kind in ("mul", "div") and scalar_argument(op, symbols) is not None:
            factor = scalar_argument(op, symbols)
            scale = scale * factor if kind == "mul" else scale / factor
            name = op.operands[0]
        elif kind == "add" and len(op.operands) == 2 and mask is None and op.attrs.get("coreai.args") == "(T, T)":
            inside = [o for o in op.operands if o in made]
            if len(inside) != 1:
                return None
            mask = next(o for o in op.operands if o not in made)
            name = inside[0]
        else:
            return None
    second = products[1] if first is products[0] else None
    if first is None or second is None:
        return None
    used.update((id(first), id(second)))
    # The softmax to the second product: casts, copies, views.
    probs = chain(second.operands[0], made, VIEWS - SWAPS | COPIES | CASTS, used)
    if probs is None or probs[-1] != softmax.results[0]:
        return None
    q = chain(first.operands[0], made, VIEWS - SWAPS | COPIES, used)
    k = chain(first.operands[1], made, VIEWS | COPIES, used)
    v = chain(second.operands[1], made, VIEWS - SWAPS | COPIES, used)
    if q is None or k is None or v is None or swaps(k, made) != 1:
        return None
    if any(name in made for name in (q[-1], k[-1], v[-1])):  # computed inside: not the group's operands
        return None
    for op in step.ops:  # nothing else computes
        if id(op) not in used and op.results and short(op) not in VIEWS and short(op) not in NO_RESULT:
            return None
    # The scale is the graph's own (1.0 where it has none): never SDPA's default.
    return AttentionCall(step, q[-1], k[-1], v[-1], mask, scale, second.results[0],
                         tuple(second.result_types[0].shape))


def chain(name, made, allowed, used):
    """[name, ..., top]: `name` followed up through ops of `allowed` kinds
    inside the group to the first value that is not made so; None where
    a value on the way is made by another op inside the group."""
    names = [name]
    while name in made:
        op = made[name]
        if short(op) not in allowed:
            return names if short(op) in SOFTMAX else None
        used.add(id(op))
        name = op.operands[0]
        names.append(name)
    return names


def swaps(names, made):
    """How many ops on the chain swap dimensions (permute, transpose)."""
    return sum(1 for name in names if name in made and short(made[name]) in SWAPS)


def softmax_over_last(op, symbols):
    text = op.attrs.get("coreai.args")
    try:
        positional, _ = pyargs.parse_call(text, symbols) if text else ([], {})
    except pyargs.ArgsError:
        return False
    rank = len(op.result_types[0].shape)
    return len(positional) >= 2 and positional[1] in (-1, rank - 1)

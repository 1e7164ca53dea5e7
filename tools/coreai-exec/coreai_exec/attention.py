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
        self.mask_ops = []  # the ops computing the mask inside the group, where it does
        self.mask_type = None

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
        mask = env.get(self.mask) if self.mask is not None else None
        if self.mask is not None and mask is None:  # recomputed inside the group: its shape from the graph
            mask = self.mask_type
        if mask is not None and (len(mask.shape) != 4 or mask.shape[-1] != k.shape[2]):
            return None
        return q, k, v, mask, q.shape[1] != k.shape[1]

    def run(self, env, backend=None, mask=None):
        """SDPA's result in the second product's shape (a temporary: SDPA has
        no out=); `mask` is the recomputed mask's value where the group
        computes its own."""
        q, k, v, found, gqa = self.operands(env)
        mask = found if mask is None else mask
        keyword = {"attn_mask": mask, "scale": self.scale}
        if gqa and k.shape[1] == 1:  # one KV head: a broadcast view serves every query head, no copy
            k, v = k.expand(k.shape[0], q.shape[1], *k.shape[2:]), v.expand(v.shape[0], q.shape[1], *v.shape[2:])
        elif gqa:
            keyword["enable_gqa"] = True
        with backend_context(backend, q.device):
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


def backend_context(name, device):
    """`sdpa_kernel` restricted to one backend (cudnn, flash, efficient,
    math). Without a name, on CUDA: the fused kernels only, in the order
    bench/cuda-kernels.py measured as taking the least beyond the result
    (efficient, which refuses enable_gqa; cuDNN, with the mask and GQA;
    flash, which refuses a mask), never the math fallback that keeps the
    scores in memory; elsewhere no restriction."""
    import contextlib
    from torch.nn.attention import SDPBackend, sdpa_kernel
    backends = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
                "efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH}
    if name:
        return sdpa_kernel(backends[name])
    if device.type != "cuda":
        return contextlib.nullcontext()
    order = [backends["efficient"], backends["cudnn"], backends["flash"]]
    try:
        return sdpa_kernel(order, set_priority=True)
    except TypeError:  # a torch without priorities
        return sdpa_kernel(order)


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


def match(step, symbols, function=None):
    """The group's AttentionCall, or None when it is not attention as above.
    With `function`, q, k and v are followed through the views before the
    group too, to the values they view."""
    made = {name: op for op in step.ops for name in op.results}
    before = {}
    if function is not None:
        before = {name: op for op in function.ops[:step.first] for name in op.results
                  if short(op) in VIEWS and op.attrs.get("coreai.alias_of")}
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
            scores = [o for o in op.operands if reaches_product(o, made)]
            if len(scores) != 1:
                return None
            mask = next(o for o in op.operands if o != scores[0])
            name = scores[0]
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
    q = chain(first.operands[0], made, VIEWS - SWAPS | COPIES, used, before)
    k = chain(first.operands[1], made, VIEWS | COPIES, used, before)
    v = chain(second.operands[1], made, VIEWS - SWAPS | COPIES, used, before)
    if q is None or k is None or v is None or swaps(k, dict(before, **made)) != 1:
        return None
    if any(name in made for name in (q[-1], k[-1], v[-1])):  # computed inside: not the group's operands
        return None
    mask_ops = producers(mask, made) if mask is not None else []
    if any(id(op) in used for op in mask_ops):
        return None
    used.update(id(op) for op in mask_ops)
    for op in step.ops:  # nothing else computes
        if id(op) not in used and op.results and short(op) not in VIEWS and short(op) not in NO_RESULT:
            return None
    # The scale is the graph's own (1.0 where it has none): never SDPA's default.
    call = AttentionCall(step, q[-1], k[-1], v[-1], mask, scale, second.results[0],
                         tuple(second.result_types[0].shape))
    call.mask_ops = [op for op in step.ops if id(op) in {id(m) for m in mask_ops}]
    if call.mask_ops:
        call.mask_type = next(op.result_types[op.results.index(mask)] for op in call.mask_ops if mask in op.results)
    return call


def reaches_product(name, made):
    """Whether `name` is computed from a product inside the group."""
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in seen or current not in made:
            continue
        seen.add(current)
        op = made[current]
        if short(op) in PRODUCTS:
            return True
        todo.extend(op.operands)
    return False


def producers(name, made):
    """The ops inside the group that compute `name` (a mask the planner
    recomputes inside the attention kernel), in no particular order."""
    found, seen, todo = [], set(), [name]
    while todo:
        current = todo.pop()
        if current in seen or current not in made:
            continue
        seen.add(current)
        found.append(made[current])
        todo.extend(made[current].operands)
    return found


class MaskGraph:
    """The ops of a mask recomputed inside an attention group as one fx
    graph (compiled like any group: fused.GroupCompiler), its value the
    mask: the inputs are its operands from outside the group."""

    def __init__(self, ops, mask, symbols, device):
        import torch.fx
        from . import groups
        made = {r for op in ops for r in op.results}
        self.inputs = list(dict.fromkeys(o for op in ops for o in op.operands if o not in made))
        graph = torch.fx.Graph()
        nodes = {name: graph.placeholder("in%d" % i) for i, name in enumerate(self.inputs)}
        for op in ops:
            produced = groups.GroupGraph._call(graph, op, [nodes[o] for o in op.operands], symbols, device)
            for j, name in enumerate(op.results):
                nodes[name] = produced[j]
        graph.output((nodes[mask],))
        self.module = torch.fx.GraphModule(torch.nn.Module(), graph)
        self.code = self.module.code

    def key(self, tensors):
        described = tuple((str(t.dtype), tuple(t.shape), tuple(t.stride()), t.data_ptr() % 16 == 0,
                           str(t.device)) for t in tensors)
        return self.code, described


def chain(name, made, allowed, used, before=None):
    """[name, ..., top]: `name` followed up through ops of `allowed` kinds
    inside the group, then through the views `before` it (of `allowed`
    kinds too), to the first value made otherwise; None where a value on
    the way is made by another op inside the group."""
    names = [name]
    while name in made:
        op = made[name]
        if short(op) not in allowed:
            return names if short(op) in SOFTMAX else None
        used.add(id(op))
        name = op.operands[0]
        names.append(name)
    while before and name in before and short(before[name]) in allowed:
        name = before[name].operands[0]
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

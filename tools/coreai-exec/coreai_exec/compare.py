"""Bit-for-bit comparison of two tensors, naming the first value that differs."""


import torch

from . import aten


def _bits(tensor):
    integer = aten.BITS.get(tensor.dtype)
    return tensor.contiguous().view(integer) if integer is not None else tensor.contiguous()


def _hex(value, tensor):
    width = tensor.element_size() * 2
    return "0x%0*x" % (width, int(value) & ((1 << (4 * width)) - 1))


def first_difference(got, want):
    """None when identical; else a dict naming the first differing value."""
    if got.dtype != want.dtype or tuple(got.shape) != tuple(want.shape):
        return {"reason": "type", "got": "%s %s" % (got.dtype, list(got.shape)),
                "want": "%s %s" % (want.dtype, list(want.shape))}
    got_bits, want_bits = _bits(got), _bits(want)
    if torch.equal(got_bits, want_bits):
        return None
    differ = (got_bits != want_bits).reshape(-1)
    flat = int(differ.nonzero()[0])
    index, rest = [], flat
    for dim in reversed(got.shape):
        index.append(rest % dim)
        rest //= dim
    index = list(reversed(index))
    g, w = got.reshape(-1)[flat], want.reshape(-1)[flat]
    report = {
        "reason": "value",
        "index": index,
        "got": g.item(),
        "want": w.item(),
        "got_bits": _hex(got_bits.reshape(-1)[flat].item(), got),
        "want_bits": _hex(want_bits.reshape(-1)[flat].item(), want),
        "differing": int(differ.sum()),
        "count": got.numel(),
    }
    if got.dtype.is_floating_point:
        report["nan_introduced"] = int((torch.isnan(got) & ~torch.isnan(want)).sum())
    return report


def describe(what, diff):
    if diff["reason"] == "type":
        return "%s is %s, the unplanned run's is %s" % (what, diff["got"], diff["want"])
    text = ("%s differs at %s: planned %r (%s), unplanned %r (%s); %d of %d values differ"
            % (what, diff["index"], diff["got"], diff["got_bits"], diff["want"], diff["want_bits"],
               diff["differing"], diff["count"]))
    if diff.get("nan_introduced"):
        text += "; %d NaN where the unplanned run has none (poison: bytes read before written?)" % diff["nan_introduced"]
    return text


# The tolerances of a run with compiled kernel groups (docs/EXECUTOR.md,
# "Fused mode"), as a fraction of a tensor's largest magnitude: a fusing
# compiler reorders arithmetic (vectorised and reassociated reductions, an
# online softmax, contracted multiply-adds) and keeps a half-precision
# group's inner values in float32 where the eager ops round each one, so its
# results differ from op-by-op ATen in the last bits. Per dtype: (one group
# against its ops run one by one on the same operands, the function's results
# against the unplanned eager run, where each group's differences have gone
# through every later layer). Integers and booleans are exact. On a CPU
# (docs/EXECUTOR.md) the tiny float32 graphs showed 2.3e-7 and 2.5e-4, the
# float16 Qwen3-0.6B 9.7e-4 and 4.0e-3; bfloat16's figures are set from its
# epsilon (7.8e-3), not yet measured.
TOLERANCES = {
    torch.float32: (1e-5, 1e-3),
    torch.float64: (1e-12, 1e-9),
    torch.float16: (1e-2, 5e-2),
    torch.bfloat16: (5e-2, 1e-1),
}


def scaled_difference(got, want):
    """The largest |got - want| over finite values, divided by the largest
    finite |want| (that difference itself where want is all zero); infinity
    where NaN or infinities differ, or integers differ."""
    if got.dtype != want.dtype or tuple(got.shape) != tuple(want.shape):
        return float("inf")
    if not got.dtype.is_floating_point:
        return 0.0 if torch.equal(got, want) else float("inf")
    if got.numel() == 0:
        return 0.0
    g, w = got.double(), want.double()
    finite = torch.isfinite(w)
    if not torch.equal(torch.isnan(g), torch.isnan(w)) or not torch.equal(g[torch.isinf(w)], w[torch.isinf(w)]):
        return float("inf")
    if not bool(finite.any()):
        return 0.0
    difference = float((g[finite] - w[finite]).abs().max())
    scale = float(w[finite].abs().max())
    return difference / scale if scale else difference


def tolerance(dtype, which):
    """The tolerance of `which` ("group" or "final") for dtype; 0 for exact dtypes."""
    pair = TOLERANCES.get(dtype)
    return 0.0 if pair is None else pair[0 if which == "group" else 1]


def close_difference(got, want, which="final"):
    """None when `got` is within the tolerance of `want`; else
    first_difference's report with the scaled difference and the tolerance."""
    found = scaled_difference(got, want)
    allowed = tolerance(got.dtype, which)
    if found <= allowed:
        return None
    report = first_difference(got, want) or {"reason": "value", "index": [], "differing": 0, "count": got.numel()}
    report.update(scaled_difference=found, tolerance=allowed)
    return report


def describe_close(what, diff):
    if diff["reason"] == "type" or "tolerance" not in diff:
        return describe(what, diff)
    return ("%s differs by %.3g of its largest magnitude, above the tolerance %g; first difference: %s"
            % (what, diff["scaled_difference"], diff["tolerance"], describe(what, diff)))

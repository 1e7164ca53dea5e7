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

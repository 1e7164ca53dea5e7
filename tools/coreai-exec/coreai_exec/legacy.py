"""The one table of ops the installed torch lacks, mapped to older equivalents.

The graphs were exported with torch 2.11; Debian's torch is 1.13. An entry is
used only where the installed torch has no such overload or its schema does
not take the call's keyword arguments (aten.py decides); otherwise the real
op runs. Each entry has a test against the op's definition
(tests/test_legacy.py), and against the real op where the installed torch
has it; every key is an op of the supplement in the planner's ATen op
facts (scripts/aten-op-supplement.txt, lib/Aten/AtenOpFacts.def), checked
when this module loads.
"""

import torch

from . import opfacts


def _batch_norm_no_training(input, weight, bias, running_mean, running_var, momentum, eps):
    # torch 2.x defines it as native_batch_norm with training=False, whose
    # statistics outputs are empty in eval mode.
    out = torch.ops.aten.native_batch_norm.default(
        input, weight, bias, running_mean, running_var, False, momentum, eps)[0]
    stats = torch.float32 if input.dtype in (torch.float16, torch.bfloat16) else input.dtype
    empty = torch.empty(0, dtype=stats, device=input.device)
    return out, empty, empty.clone()


def _squeeze_dims(self, dim):
    # squeeze.dims: drop each listed dimension that has size 1 (a view).
    rank = max(self.dim(), 1)
    result = self
    for d in sorted({d % rank for d in dim}, reverse=True):
        if self.dim() > 0 and self.shape[d] == 1:
            result = torch.ops.aten.squeeze.dim(result, d)
    return result


def _assert_tensor_metadata(a, size=None, stride=None, dtype=None, *, device=None, layout=None):
    # A check torch.export inserts at `.to()`: dtype, sizes and strides as
    # exported. Device and layout name the export machine's, not this run's.
    if dtype is not None and a.dtype != dtype:
        raise RuntimeError("_assert_tensor_metadata: dtype %s, expected %s" % (a.dtype, dtype))
    if size is not None and list(a.shape) != list(size):
        raise RuntimeError("_assert_tensor_metadata: size %s, expected %s" % (list(a.shape), list(size)))
    if stride is not None and list(a.stride()) != list(stride):
        raise RuntimeError("_assert_tensor_metadata: stride %s, expected %s" % (list(a.stride()), list(stride)))


# (op, overload) -> implementation with the op's schema.
LEGACY_OPS = {
    ("_native_batch_norm_legit_no_training", "default"): _batch_norm_no_training,
    ("squeeze", "dims"): _squeeze_dims,
    ("_assert_tensor_metadata", "default"): _assert_tensor_metadata,
}


def _check_against_op_facts():
    """Each mapped op is one the planner's table knows from the supplement:
    an op newer than torch 1.13, so the mapping and the table agree on
    which ops those are."""
    for name, overload in LEGACY_OPS:
        facts = opfacts.lookup(name, overload)
        if facts is None or facts.origin != "supplement":
            raise RuntimeError("legacy.py maps aten.%s.%s, which lib/Aten/AtenOpFacts.def does not list "
                               "from scripts/aten-op-supplement.txt" % (name, overload))


_check_against_op_facts()

"""ATen kernels for the graphs' ops, called so that they write into a given slot.

An op `torch.aten.NAME` with `coreai.overload = OV` runs as
`torch.ops.aten.NAME.OV`, or through the legacy table (legacy.py) where the
installed torch lacks it. Where the ATen op facts (opfacts.py, the planner's
lib/Aten table) name an out= overload computing NAME.OV into one `out`
tensor, the result is written by the kernel into its slot; otherwise the
kernel's result is copied in.
"""

import torch

from . import opfacts, pyargs
from .legacy import LEGACY_OPS

DTYPES = {
    "f16": torch.float16,
    "bf16": torch.bfloat16,
    "f32": torch.float32,
    "f64": torch.float64,
    "i64": torch.int64,
    "i32": torch.int32,
    "i16": torch.int16,
    "i8": torch.int8,
    "ui8": torch.uint8,
    "i1": torch.bool,
}

# A same-width integer type for comparing values bit for bit.
BITS = {
    torch.float16: torch.int16,
    torch.bfloat16: torch.int16,
    torch.float32: torch.int32,
    torch.float64: torch.int64,
    torch.bool: torch.uint8,
}


class UnsupportedOp(Exception):
    pass


def element_bytes(element):
    return torch.empty((), dtype=dtype_of(element)).element_size()


def dtype_of(element):
    try:
        return DTYPES[element]
    except KeyError:
        raise UnsupportedOp("element type '%s' has no torch dtype" % element)


def _argument_signature(schema):
    return [(a.name, str(a.type), a.kwarg_only) for a in schema.arguments if not a.is_out]


def _accepts(schema, positional, keyword):
    names = {a.name for a in schema.arguments if not a.is_out}
    return len(positional) <= len(schema.arguments) and set(keyword) <= names


class Kernel:
    """One (op, overload): how to call it, and its out= variant if it has one."""

    def __init__(self, name, overload):
        self.name, self.overload = name, overload
        self.label = "aten.%s.%s" % (name, overload)
        packet = getattr(torch.ops.aten, name, None)
        self.native = None
        if packet is not None:
            try:
                self.native = getattr(packet, overload)
            except (AttributeError, RuntimeError):
                self.native = None
        self.legacy = LEGACY_OPS.get((name, overload))
        self.out_variant = None
        out_overload = opfacts.out_variant(name, overload)
        if self.native is not None and out_overload is not None:
            try:
                op = getattr(packet, out_overload)
            except (AttributeError, RuntimeError):
                op = None  # an overload this build cannot load
            # The table is torch 1.13's; a newer schema of the op itself
            # (the supplement's) must still take the same arguments.
            if op is not None and _argument_signature(op._schema) == _argument_signature(self.native._schema):
                self.out_variant = op

    def uses_legacy(self, positional, keyword):
        if self.native is None:
            return True
        return self.legacy is not None and not _accepts(self.native._schema, positional, keyword)

    def call(self, positional, keyword):
        """The functional result (a tensor, a tuple of them, or None)."""
        if self.uses_legacy(positional, keyword):
            if self.legacy is None:
                raise UnsupportedOp("%s is not in this torch (%s) and has no mapping in legacy.py"
                                    % (self.label, torch.__version__))
            return self.legacy(*positional, **keyword)
        return self.native(*positional, **keyword)

    def call_into(self, positional, keyword, slot):
        """Writes the single result into `slot`; True when the kernel wrote it there itself."""
        if (self.name, self.overload) == ("_to_copy", "default") and _plain_copy(positional, keyword, slot):
            # _to_copy allocates and runs copy_; copy_ into the slot is that
            # kernel writing there (the most common op of the fp16 graphs).
            slot.copy_(positional[0])
            return True
        if self.out_variant is not None and not self.uses_legacy(positional, keyword):
            pointer, shape = slot.data_ptr(), tuple(slot.shape)
            try:
                self.out_variant(*positional, **keyword, out=slot)
            except RuntimeError as e:
                if "single memory location" not in str(e):
                    raise
                # The slot partly overlaps an operand (ATen refuses such out=
                # calls): a runtime's kernel would write over bytes it still
                # reads, so write the result over them all the same.
                return self._copy_into(positional, keyword, slot)
            if slot.data_ptr() != pointer or tuple(slot.shape) != shape:
                raise RuntimeError("%s resized its out= tensor from %s: the result type in the graph is wrong"
                                   % (self.label, list(shape)))
            return True
        return self._copy_into(positional, keyword, slot)

    def _copy_into(self, positional, keyword, slot):
        result = self.call(positional, keyword)
        if not isinstance(result, torch.Tensor):
            raise RuntimeError("%s returned %s, expected one tensor" % (self.label, type(result).__name__))
        check_result(self.label, result, slot.dtype, tuple(slot.shape))
        slot.copy_(result)
        return False


def _plain_copy(positional, keyword, slot):
    """A `_to_copy` whose result is its operand converted to the slot's dtype,
    contiguous, on the slot's device."""
    if len(positional) != 1 or not isinstance(positional[0], torch.Tensor):
        return False
    if set(keyword) - {"dtype", "layout", "device", "pin_memory", "non_blocking", "memory_format"}:
        return False
    source, device = positional[0], keyword.get("device")
    return ((keyword.get("dtype") or source.dtype) == slot.dtype
            and keyword.get("layout") in (None, torch.strided)
            and keyword.get("memory_format") in (None, torch.contiguous_format, torch.preserve_format)
            and tuple(source.shape) == tuple(slot.shape)
            and (device is None or torch.device(device) == slot.device))


def check_result(label, tensor, dtype, shape):
    if tensor.dtype != dtype or tuple(tensor.shape) != tuple(shape):
        raise RuntimeError("%s made %s %s, the graph says %s %s"
                           % (label, tensor.dtype, list(tensor.shape), dtype, list(shape)))


_KERNELS = {}


def kernel(name, overload):
    key = (name, overload)
    if key not in _KERNELS:
        _KERNELS[key] = Kernel(name, overload)
    return _KERNELS[key]


def resolve(value, device):
    """Exported argument values made concrete for this torch and device."""
    if isinstance(value, pyargs.TorchName):
        resolved = getattr(torch, value.name, None)
        if resolved is None:
            raise UnsupportedOp("torch.%s does not exist in torch %s" % (value.name, torch.__version__))
        return resolved
    if isinstance(value, pyargs.Device):
        return device
    if isinstance(value, list):
        return [resolve(v, device) for v in value]
    if isinstance(value, tuple):
        return tuple(resolve(v, device) for v in value)
    return value


def check_indices(name, positional):
    """Index operands inside their table: garbage indices (poisoned or
    clobbered bytes) fail here with a message, not in the kernel (on a GPU a
    device-side assert would end the process)."""
    def within(index, size, what):
        if index is None or index.numel() == 0:
            return
        low, high = int(index.min()), int(index.max())
        if low < -size or high >= size:
            raise IndexError("%s: index values in [%d, %d] outside a dimension of %d (%s)"
                             % (name, low, high, size, what))

    if name == "embedding":
        within(positional[1], positional[0].shape[0], "embedding row")
    elif name in ("index_put", "index", "index_put_"):
        for dim, index in enumerate(positional[1]):
            if isinstance(index, torch.Tensor) and index.dtype != torch.bool:
                within(index, positional[0].shape[dim], "dimension %d" % dim)
    elif name in ("index_select", "gather", "scatter", "index_copy"):
        dim = positional[1] % max(positional[0].dim(), 1)
        within(positional[2], positional[0].shape[dim] if positional[0].dim() else 1, "dimension %d" % dim)

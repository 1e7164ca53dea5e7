"""Call forms for elementwise_tiles.py: per ATen overload, calls that cover
each argument form the manual facts table distinguishes (its
`elementwise_if` values, einsum equations), each with operands of the
result's shape and dtype for the test to write over.

`moves=True` marks a form known to move elements (a layout copy, an einsum
permutation or product, the adversaries at the end): the test requires it
to fail, which shows the table's refusal is needed and that the test can
fail at all. The adversaries are run only when a (wrong) table calls their
op elementwise.
"""

import zlib

import torch

F16, F32, I32, I64 = torch.float16, torch.float32, torch.int32, torch.int64
CPU = torch.device("cpu")


class T:
    """A tensor operand: shape, dtype and the range its random values are
    drawn from (wide enough that a moved element shows)."""

    def __init__(self, *shape, dtype=F32, low=-3.0, high=3.0):
        self.shape, self.dtype, self.low, self.high = shape, dtype, low, high

    def make(self, generator):
        if self.dtype == torch.bool:
            return torch.rand(self.shape, generator=generator) < 0.5
        if self.dtype.is_floating_point:
            unit = torch.rand(self.shape, generator=generator, dtype=torch.float64)
            return (unit * (self.high - self.low) + self.low).to(self.dtype)
        return torch.randint(int(self.low), int(self.high), self.shape,
                             generator=generator, dtype=self.dtype)

    def __repr__(self):
        short = {F16: "f16", F32: "f32", I32: "i32", I64: "i64", torch.bool: "bool"}
        return "%s[%s]" % (short[self.dtype], ",".join(map(str, self.shape)))


class Form:
    """One call of `torch.ops.aten.NAME.OVERLOAD`: its arguments as the
    schema takes them (T for a tensor, lists of T for a tensor list)."""

    def __init__(self, op, *args, moves=False, seeded=False, **kwargs):
        self.name, self.overload = op.split(".")
        self.args, self.kwargs = list(args), kwargs
        self.moves = moves
        self.seeded = seeded  # random: each call draws from the same seed

    def describe(self):
        items = [repr(a) for a in self.args]
        items += ["%s=%r" % item for item in self.kwargs.items()]
        return "%s.%s(%s)" % (self.name, self.overload, ", ".join(items))

    def literal(self, argument, position):
        """The argument as the table's conditions spell it (Python's repr,
        as an exported graph writes it), or `absent`."""
        if argument in self.kwargs:
            return repr(self.kwargs[argument])
        if position is not None and position < len(self.args):
            return repr(self.args[position])
        return "absent"

    def operands(self):
        """Fresh random tensors for the T slots, in IR operand order (lists
        flattened); the same every run (seeded by the form)."""
        generator = torch.Generator().manual_seed(zlib.crc32(self.describe().encode()))
        slots = [a for a in self.args + list(self.kwargs.values())
                 for a in (a if isinstance(a, list) else [a])]
        return [slot.make(generator) for slot in slots if isinstance(slot, T)]

    def call(self, operands):
        """The op on these operands (one per T slot, in order)."""
        supply = iter(operands)

        def fill(value):
            if isinstance(value, list):
                return [fill(item) for item in value]
            return next(supply) if isinstance(value, T) else value

        args = [fill(a) for a in self.args]
        kwargs = {key: fill(value) for key, value in self.kwargs.items()}
        if self.seeded:
            torch.manual_seed(1234)
        return getattr(getattr(torch.ops.aten, self.name), self.overload)(*args, **kwargs)


# Shapes: 60 elements with distinct values; NCHW for the memory formats
# (channels_last needs 4-D, channels_last_3d 5-D); a row and a column for
# broadcast operands; a square for permutations that keep the shape.
X = T(3, 4, 5)
POS = T(3, 4, 5, low=0.25, high=4.0)  # for sqrt, log, powers, divisors
ROW = T(5)
COL = T(4, 1)
X16 = T(3, 4, 5, dtype=F16)
NCHW = T(2, 3, 4, 5)
NCDHW = T(2, 3, 2, 3, 4)
I = T(3, 4, 5, dtype=I32, low=-1000, high=1000)
L = T(3, 4, 5, dtype=I64, low=-1000, high=1000)
B = T(3, 4, 5, dtype=torch.bool)
B_ROW = T(5, dtype=torch.bool)
SQ = T(4, 4)

SAMPLES = []


def sample(*forms):
    SAMPLES.extend(forms)


def unary(*ops, operand=X):
    for op in ops:
        sample(Form(op + ".default", operand))


# Unary maths.
unary("abs", "neg", "exp", "tanh", "sigmoid", "silu", "relu", "cos", "sin", "erf",
      "reciprocal", "hardswish", "hardsigmoid")
unary("sqrt", "rsqrt", "log", operand=POS)
unary("neg", "abs", operand=X16)
sample(Form("gelu.default", X),
       Form("gelu.default", X, approximate="none"),
       Form("gelu.default", X, approximate="tanh"),
       Form("hardtanh.default", X),
       Form("hardtanh.default", X, -0.5, 1.5),
       Form("leaky_relu.default", X),
       Form("leaky_relu.default", X, 0.2))
unary("bitwise_not", operand=I)
unary("bitwise_not", "logical_not", operand=B)

# Arithmetic: both operands, a broadcast one (only the full-shape one can be
# written over), alpha, scalars, integers.
for op in ("add", "sub"):
    sample(Form(op + ".Tensor", X, X),
           Form(op + ".Tensor", X, X, alpha=2),
           Form(op + ".Tensor", X, ROW),
           Form(op + ".Tensor", COL, X, alpha=-0.5),
           Form(op + ".Tensor", L, L, alpha=3),
           Form(op + ".Tensor", X16, X16),
           Form(op + ".Scalar", X, 1.5),
           Form(op + ".Scalar", X, 1.5, 2))
sample(Form("mul.Tensor", X, X),
       Form("mul.Tensor", X, ROW),
       Form("mul.Tensor", I, I),
       Form("mul.Scalar", X, 2.5),
       Form("div.Tensor", X, POS),
       Form("div.Tensor", COL, POS),
       Form("div.Tensor_mode", X, POS, rounding_mode="floor"),
       Form("div.Tensor_mode", X, POS, rounding_mode="trunc"),
       Form("div.Tensor_mode", X, POS, rounding_mode=None),
       Form("div.Tensor_mode", L, T(5, dtype=I64, low=1, high=9), rounding_mode="floor"),
       Form("div.Scalar", X, 3.0),
       Form("div.Scalar_mode", X, 0.7, rounding_mode="floor"),
       Form("div.Scalar_mode", X, 0.7, rounding_mode="trunc"),
       Form("pow.Tensor_Scalar", POS, 2.5),
       Form("pow.Tensor_Scalar", X, 2),
       Form("pow.Tensor_Scalar", X, -1),
       Form("pow.Tensor_Tensor", POS, X),
       Form("pow.Tensor_Tensor", POS, ROW),
       Form("pow.Scalar", 2.0, X))
for op in ("minimum", "maximum"):
    sample(Form(op + ".default", X, X), Form(op + ".default", ROW, X))

# Clamps: scalar bounds (either one), tensor bounds (each can be written over).
sample(Form("clamp.default", X, -1.0, 1.0),
       Form("clamp.default", X, -1.0),
       Form("clamp.default", X, None, 1.0),
       Form("clamp.Tensor", X, X, X),
       Form("clamp.Tensor", X, ROW),
       Form("clamp.Tensor", X, None, X),
       Form("clamp_min.default", X, -0.5),
       Form("clamp_min.Tensor", X, X),
       Form("clamp_max.default", X, 0.5),
       Form("clamp_max.Tensor", X, X))

# Selections: where over its values (and over its condition, with bool
# values), masked_fill with a scalar and a 0-d value.
sample(Form("where.self", B, X, X),
       Form("where.self", B, X, ROW),
       Form("where.self", B, B, B),
       Form("where.ScalarSelf", B, 1.5, X),
       Form("where.ScalarSelf", B, True, B),
       Form("where.ScalarOther", B, X, 1.5),
       Form("where.ScalarOther", B_ROW, B, False),
       # `where(condition)` is nonzero(as_tuple=True): int64 indices of the
       # nonzero elements. With every element nonzero the result has the
       # operand's shape and dtype, so the row's fact is put to the test.
       Form("where.default", T(60, dtype=I64, low=1, high=1000)),
       Form("masked_fill.Scalar", X, B, 0.5),
       Form("masked_fill.Scalar", X, B_ROW, -1.0),
       Form("masked_fill.Tensor", X, B, T()))

# Comparisons (bool results: bool operands can be written over) and
# bitwise ops on integers and bools.
for op in ("le", "lt", "ge", "gt", "eq", "ne"):
    sample(Form(op + ".Tensor", B, B),
           Form(op + ".Tensor", B, B_ROW),
           Form(op + ".Scalar", B, True))
for op in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    sample(Form(op + ".Tensor", I, I),
           Form(op + ".Tensor", B, B),
           Form(op + ".Scalar", I, 0x5A),
           Form(op + ".Scalar_Tensor", 0x5A, I))
for op in ("__and__", "__or__", "__xor__"):  # Python's operators
    sample(Form(op + ".Tensor", I, I),
           Form(op + ".Tensor", B, B),
           Form(op + ".Scalar", I, 0x5A))

# Copies. copy: src of self's shape, broadcast, another dtype.
sample(Form("copy.default", X, X),
       Form("copy.default", X, ROW),
       Form("copy.default", X, X16),
       Form("copy.default", X, X, True))

# _to_copy: every value its conditions list, then the layout copies they
# refuse.
sample(Form("_to_copy.default", X),
       Form("_to_copy.default", X, dtype=F32),
       Form("_to_copy.default", X16, dtype=F16),
       Form("_to_copy.default", NCHW, dtype=None, memory_format=None),
       Form("_to_copy.default", NCHW, memory_format=torch.preserve_format),
       Form("_to_copy.default", NCHW, memory_format=torch.contiguous_format),
       Form("_to_copy.default", X, layout=torch.strided),
       Form("_to_copy.default", X, layout=None, device=None, pin_memory=None),
       Form("_to_copy.default", X, device=CPU),
       Form("_to_copy.default", X, pin_memory=False),
       Form("_to_copy.default", X, dtype=F32, layout=torch.strided, device=CPU,
            pin_memory=False, non_blocking=True, memory_format=torch.contiguous_format),
       Form("_to_copy.default", NCHW, memory_format=torch.channels_last, moves=True),
       Form("_to_copy.default", NCHW, dtype=F32, memory_format=torch.channels_last, moves=True))

sample(Form("clone.default", X),
       Form("clone.default", NCHW, memory_format=None),
       Form("clone.default", NCHW, memory_format=torch.preserve_format),
       Form("clone.default", NCHW, memory_format=torch.contiguous_format),
       Form("clone.default", NCHW, memory_format=torch.channels_last, moves=True),
       Form("clone.default", NCDHW, memory_format=torch.channels_last_3d, moves=True))
sample(Form("lift_fresh_copy.default", X))

# Reshapes (a view of a contiguous operand; only one keeping the shape has
# an operand of the result's type), contiguous.
sample(Form("reshape.default", X, [3, -1, 5]),
       Form("reshape_as.default", X, T(12, 5)),
       Form("reshape_as.default", X, X),
       Form("flatten.using_ints", X, 1, 1),
       Form("flatten.using_ints", T(3, 4, 1), 1, 2),
       Form("contiguous.default", X),
       Form("contiguous.default", NCHW, memory_format=torch.contiguous_format),
       Form("contiguous.default", NCHW, memory_format=torch.channels_last, moves=True))

# to: each overload, copy or not, each memory_format its condition lists
# (positional and keyword), then channels_last.
sample(Form("to.dtype", X, F32),
       Form("to.dtype", X, F32, False, True),
       Form("to.dtype", X16, F16, True, True),
       Form("to.dtype", NCHW, F32, False, True, None),
       Form("to.dtype", NCHW, F32, False, True, torch.preserve_format),
       Form("to.dtype", NCHW, F32, False, True, torch.contiguous_format),
       Form("to.dtype", NCHW, F32, copy=True, memory_format=torch.contiguous_format),
       Form("to.dtype", NCHW, F32, False, True, torch.channels_last, moves=True),
       Form("to.dtype", NCHW, F32, memory_format=torch.channels_last, moves=True),
       Form("to.other", X, T(2)),
       Form("to.other", X, X, False, True),
       Form("to.other", X16, X, False, True),
       Form("to.other", NCHW, T(2), False, True, torch.contiguous_format),
       Form("to.other", NCHW, T(2), False, True, torch.channels_last, moves=True),
       Form("to.device", X, CPU, F32),
       Form("to.device", X, CPU, F32, False, True),
       Form("to.device", NCHW, CPU, F32, False, True, torch.preserve_format),
       Form("to.device", NCHW, CPU, F32, False, True, torch.channels_last, moves=True),
       Form("to.dtype_layout", X, dtype=F32, layout=torch.strided, device=CPU,
            pin_memory=False, copy=True),
       Form("to.dtype_layout", X16, dtype=F16, copy=True),
       Form("to.dtype_layout", NCHW, dtype=F32, copy=True,
            memory_format=torch.channels_last, moves=True))
sample(Form("type_as.default", X, X),
       Form("type_as.default", X, T(2)),
       Form("type_as.default", X16, X))

# Dropouts: in eval mode (the input itself), and in training with every
# call drawing the same mask (a mask per element or per channel is still
# elementwise; random_unless keeps them out of reordering, not this test).
for op in ("dropout", "feature_dropout", "alpha_dropout", "feature_alpha_dropout"):
    sample(Form(op + ".default", NCHW, 0.5, False),
           Form(op + ".default", NCHW, 0.0, True, seeded=True),
           Form(op + ".default", NCHW, 0.5, True, seeded=True))

# einsum: equations that read the operand at the result's subscripts (with a
# broadcast operand, an ellipsis, an implicit result), then a permutation,
# a batched product and a transpose with a broadcast, which must fail.
sample(Form("einsum.default", "ij,ij->ij", [T(4, 5), T(4, 5)]),
       Form("einsum.default", "...ij,...ij->...ij", [T(2, 4, 5), T(2, 4, 5)]),
       Form("einsum.default", "ij,j->ij", [T(4, 5), T(5)]),
       Form("einsum.default", "bij,bij->bij", [T(2, 4, 5), T(2, 4, 5)]),
       Form("einsum.default", "ij", [T(4, 5)]),
       Form("einsum.default", "ij->ij", [T(4, 5)]),
       Form("einsum.default", "ij->ji", [SQ], moves=True),
       Form("einsum.default", "ji", [SQ], moves=True),
       Form("einsum.default", "bij,bjk->bik", [T(2, 4, 4), T(2, 4, 4)], moves=True),
       Form("einsum.default", "ij,j->ji", [SQ, T(4)], moves=True),
       Form("einsum.default", "ij,ji->ij", [SQ, SQ], moves=True))

# Adversaries: ops that are not elementwise. Run only when a wrong table
# calls them so; each must fail. (Not cummax: a prefix maximum written
# early is at most the maximum a later element reads, so cummax in place
# ends right in every tile order, though it is not elementwise.)
sample(Form("cumsum.default", X, 1, moves=True),
       Form("cumprod.default", X, 2, moves=True),
       Form("flip.default", X, [1], moves=True),
       Form("roll.default", X, [1], [1], moves=True),
       Form("_softmax.default", X, 2, False, moves=True),
       Form("sort.default", X, moves=True),
       Form("t.default", SQ, moves=True),
       Form("transpose.int", T(4, 3, 4), 0, 2, moves=True))

# Functional overloads of an elementwise row that no form can put to the
# test, and why.
NAMED = "takes named dimensions: torch.ops refuses named tensors, so no exported graph has it"
NO_SAMPLE = {
    "where.Scalar": "both values are scalars: the result (int64 or float) never has the "
                    "bool condition's dtype, so no operand can be written over",
    "flatten.DimnameList": NAMED,
    "flatten.named_out_dim": NAMED,
    "flatten.using_names": NAMED,
}

#!/usr/bin/env python3
"""Writes the TOSA models of the end-to-end suite (decoder_s{1,16,32,64}.mlir).

One template, four sequence lengths: a pre-norm decoder block of a small
transformer (RMSNorm, Q/K/V projections, two attention heads with a causal
mask and softmax, output projection, residual adds, gated SiLU MLP).
Weights are arguments of @decoder, the way an AOT bundle passes them; @main
fills every input with a seeded hash (no two neighbours equal), calls the
block and prints the result twice: as f32 for people and as raw i32 bits so
the planned and unplanned runs can be compared exactly.

Usage: gen_models.py OUTDIR   (run it after editing this template)
"""
import sys
from pathlib import Path

D, HEADS, F = 64, 2, 128  # model width, heads, MLP width
DH = D // HEADS
SIZES = (1, 16, 32, 64)


def t(*shape, ty="f32"):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + ty + ">"


class Builder:
    """Numbers SSA values and remembers their types."""

    def __init__(self):
        self.lines, self.n = [], 0

    def op(self, text, ty):
        name = f"%v{self.n}"
        self.n += 1
        self.lines.append(f"    {name} = {text} -> {ty}" if text.endswith(")")
                          else f"    {name} = {text} : {ty}")
        return name

    def raw(self, text):
        self.lines.append("    " + text)


def decoder(S):
    b = Builder()
    x, g1, g2 = "%x", "%g1", "%g2"
    X = t(1, S, D)
    shift = b.op('"tosa.const"() <{values = dense<0> : tensor<1xi8>}> : ()', "tensor<1xi8>")
    zp = b.op('"tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : ()', t(1))

    def const(value, rank):
        shape = (1,) * rank
        return b.op(f'"tosa.const"() <{{values = dense<{value:.9e}> : {t(*shape)}}}> : ()',
                    t(*shape))

    def mul(a, c, ty, aty, cty):
        return b.op(f"tosa.mul {a}, {c}, {shift} : ({aty}, {cty}, tensor<1xi8>)", ty)

    def binop(name, a, c, ty, aty, cty):
        return b.op(f"tosa.{name} {a}, {c} : ({aty}, {cty})", ty)

    def unop(name, a, ty):
        return b.op(f"tosa.{name} {a} : ({ty})", ty)

    def reduce(name, a, axis, aty, ty):
        return b.op(f"tosa.{name} {a} {{axis = {axis} : i32}} : ({aty})", ty)

    def matmul(a, c, aty, cty, ty):
        return b.op(f"tosa.matmul {a}, {c}, {zp}, {zp} : ({aty}, {cty}, {t(1)}, {t(1)})", ty)

    def reshape(a, aty, shape):
        ty = t(*shape)
        dims = ", ".join(str(d) for d in shape)
        s = b.op(f"tosa.const_shape {{values = dense<[{dims}]> : tensor<{len(shape)}xindex>}} : ()",
                 f"!tosa.shape<{len(shape)}>")
        return b.op(f"tosa.reshape {a}, {s} : ({aty}, !tosa.shape<{len(shape)}>)", ty)

    def transpose(a, aty, perms, shape):
        p = ", ".join(str(d) for d in perms)
        return b.op(f"tosa.transpose {a} {{perms = array<i32: {p}>}} : ({aty})", t(*shape))

    inv_d, eps = const(1.0 / D, 3), const(1e-5, 3)
    scale = const(1.0 / DH ** 0.5, 3)

    def rmsnorm(a, gamma):
        sq = mul(a, a, X, X, X)
        ms = reduce("reduce_sum", sq, 2, X, t(1, S, 1))
        ms = mul(ms, inv_d, t(1, S, 1), t(1, S, 1), t(1, 1, 1))
        ms = binop("add", ms, eps, t(1, S, 1), t(1, S, 1), t(1, 1, 1))
        r = unop("rsqrt", ms, t(1, S, 1))
        n = mul(a, r, X, X, t(1, S, 1))
        return mul(n, gamma, X, X, t(1, 1, D))

    def heads(a, perms, shape):
        """[1,S,D] -> [HEADS, ...] with the given permutation of [1,S,H,DH]."""
        r = reshape(a, X, (1, S, HEADS, DH))
        full = [1, S, HEADS, DH]
        tshape = [full[p] for p in perms]
        tr = transpose(r, t(1, S, HEADS, DH), perms, tshape)
        return reshape(tr, t(*tshape), shape)

    # Attention.
    xn = rmsnorm(x, g1)
    q = matmul(xn, "%wq", X, t(1, D, D), X)
    k = matmul(xn, "%wk", X, t(1, D, D), X)
    v = matmul(xn, "%wv", X, t(1, D, D), X)
    qh = heads(q, (0, 2, 1, 3), (HEADS, S, DH))
    kt = heads(k, (0, 2, 3, 1), (HEADS, DH, S))
    vh = heads(v, (0, 2, 1, 3), (HEADS, S, DH))
    sc = matmul(qh, kt, t(HEADS, S, DH), t(HEADS, DH, S), t(HEADS, S, S))
    sc = mul(sc, scale, t(HEADS, S, S), t(HEADS, S, S), t(1, 1, 1))
    sc = binop("add", sc, "%mask", t(HEADS, S, S), t(HEADS, S, S), t(1, S, S))
    mx = reduce("reduce_max", sc, 2, t(HEADS, S, S), t(HEADS, S, 1))
    e = binop("sub", sc, mx, t(HEADS, S, S), t(HEADS, S, S), t(HEADS, S, 1))
    e = unop("exp", e, t(HEADS, S, S))
    sm = reduce("reduce_sum", e, 2, t(HEADS, S, S), t(HEADS, S, 1))
    rs = unop("reciprocal", sm, t(HEADS, S, 1))
    p = mul(e, rs, t(HEADS, S, S), t(HEADS, S, S), t(HEADS, S, 1))
    ctx = matmul(p, vh, t(HEADS, S, S), t(HEADS, S, DH), t(HEADS, S, DH))
    ctx = reshape(ctx, t(HEADS, S, DH), (1, HEADS, S, DH))
    ctx = transpose(ctx, t(1, HEADS, S, DH), (0, 2, 1, 3), (1, S, HEADS, DH))
    ctx = reshape(ctx, t(1, S, HEADS, DH), (1, S, D))
    o = matmul(ctx, "%wo", X, t(1, D, D), X)
    h = binop("add", x, o, X, X, X)
    # Gated MLP.
    hn = rmsnorm(h, g2)
    gate = matmul(hn, "%wg", X, t(1, D, F), t(1, S, F))
    up = matmul(hn, "%wu", X, t(1, D, F), t(1, S, F))
    sg = unop("sigmoid", gate, t(1, S, F))
    silu = mul(gate, sg, t(1, S, F), t(1, S, F), t(1, S, F))
    act = mul(silu, up, t(1, S, F), t(1, S, F), t(1, S, F))
    down = matmul(act, "%wd", t(1, S, F), t(1, F, D), X)
    out = binop("add", h, down, X, X, X)
    b.raw(f"return {out} : {X}")

    args = [("%x", X), ("%mask", t(1, S, S)), ("%g1", t(1, 1, D)), ("%g2", t(1, 1, D)),
            ("%wq", t(1, D, D)), ("%wk", t(1, D, D)), ("%wv", t(1, D, D)),
            ("%wo", t(1, D, D)), ("%wg", t(1, D, F)), ("%wu", t(1, D, F)),
            ("%wd", t(1, F, D))]
    sig = ",\n                    ".join(f"{n}: {ty}" for n, ty in args)
    body = "\n".join(b.lines)
    return args, f"  func.func @decoder({sig}) -> {X} {{\n{body}\n  }}\n"


def convnet():
    """A small CNN: conv+ReLU, depthwise conv, 1x1 conv with a residual add,
    max pool, conv, global average pool, and a fully connected layer."""
    b = Builder()
    zp = b.op('"tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : ()', t(1))
    relu_attrs = "{max_val = 3.4e+38 : f32, min_val = 0.0 : f32}"

    def conv(kind, a, w, bias, aty, wty, bty, ty, pad, stride=1):
        p = ", ".join(str(pad) for _ in range(4))
        return b.op(f"tosa.{kind} {a}, {w}, {bias}, {zp}, {zp} {{acc_type = f32, "
                    f"dilation = array<i64: 1, 1>, pad = array<i64: {p}>, "
                    f"stride = array<i64: {stride}, {stride}>}} : "
                    f"({aty}, {wty}, {bty}, {t(1)}, {t(1)})", ty)

    def relu(a, ty):
        return b.op(f"tosa.clamp {a} {relu_attrs} : ({ty})", ty)

    c1 = conv("conv2d", "%img", "%w1", "%b1", t(1, 16, 16, 3), t(8, 3, 3, 3), t(8),
              t(1, 16, 16, 8), 1)
    r1 = relu(c1, t(1, 16, 16, 8))
    c2 = conv("depthwise_conv2d", r1, "%w2", "%b2", t(1, 16, 16, 8), t(3, 3, 8, 1), t(8),
              t(1, 16, 16, 8), 1)
    r2 = relu(c2, t(1, 16, 16, 8))
    c3 = conv("conv2d", r2, "%w3", "%b3", t(1, 16, 16, 8), t(8, 1, 1, 8), t(8),
              t(1, 16, 16, 8), 0)
    res = b.op(f"tosa.add {r1}, {c3} : ({t(1, 16, 16, 8)}, {t(1, 16, 16, 8)})",
               t(1, 16, 16, 8))
    mp = b.op(f"tosa.max_pool2d {res} {{kernel = array<i64: 2, 2>, "
              f"pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}} : "
              f"({t(1, 16, 16, 8)})", t(1, 8, 8, 8))
    c4 = conv("conv2d", mp, "%w4", "%b4", t(1, 8, 8, 8), t(16, 3, 3, 8), t(16),
              t(1, 8, 8, 16), 1)
    r4 = relu(c4, t(1, 8, 8, 16))
    gp = b.op(f"tosa.avg_pool2d {r4}, {zp}, {zp} {{acc_type = f32, "
              f"kernel = array<i64: 8, 8>, pad = array<i64: 0, 0, 0, 0>, "
              f"stride = array<i64: 8, 8>}} : ({t(1, 8, 8, 16)}, {t(1)}, {t(1)})",
              t(1, 1, 1, 16))
    s = b.op("tosa.const_shape {values = dense<[1, 1, 16]> : tensor<3xindex>} : ()",
             "!tosa.shape<3>")
    flat = b.op(f"tosa.reshape {gp}, {s} : ({t(1, 1, 1, 16)}, !tosa.shape<3>)", t(1, 1, 16))
    fc = b.op(f"tosa.matmul {flat}, %wfc, {zp}, {zp} : ({t(1, 1, 16)}, {t(1, 16, 10)}, "
              f"{t(1)}, {t(1)})", t(1, 1, 10))
    logits = b.op(f"tosa.add {fc}, %bfc : ({t(1, 1, 10)}, {t(1, 1, 10)})", t(1, 1, 10))
    b.raw(f"return {logits} : {t(1, 1, 10)}")

    args = [("%img", t(1, 16, 16, 3)), ("%w1", t(8, 3, 3, 3)), ("%b1", t(8)),
            ("%w2", t(3, 3, 8, 1)), ("%b2", t(8)), ("%w3", t(8, 1, 1, 8)),
            ("%b3", t(8)), ("%w4", t(16, 3, 3, 8)), ("%b4", t(16)),
            ("%wfc", t(1, 16, 10)), ("%bfc", t(1, 1, 10))]
    sig = ",\n                    ".join(f"{n}: {ty}" for n, ty in args)
    body = "\n".join(b.lines)
    return args, f"  func.func @convnet({sig}) -> {t(1, 1, 10)} {{\n{body}\n  }}\n"


def branches():
    """A graph whose exported order is wasteful: a big elementwise branch of
    the input is computed first but read only at the end, while a matmul
    chain runs in between. coreai-reorder moves the branch down; the run
    shows that the reordered, planned program computes the same bits."""
    b = Builder()
    shift = b.op('"tosa.const"() <{values = dense<0> : tensor<1xi8>}> : ()', "tensor<1xi8>")
    zp = b.op('"tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : ()', t(1))
    X, R = t(1, 64, 64), t(1, 64, 1)
    big = b.op(f"tosa.exp %x : ({X})", X)
    mm = b.op(f"tosa.matmul %x, %w, {zp}, {zp} : ({X}, {X}, {t(1)}, {t(1)})", X)
    th = b.op(f"tosa.tanh {mm} : ({X})", X)
    mm2 = b.op(f"tosa.matmul {th}, %w, {zp}, {zp} : ({X}, {X}, {t(1)}, {t(1)})", X)
    s = b.op(f"tosa.reduce_sum {mm2} {{axis = 2 : i32}} : ({X})", R)
    out = b.op(f"tosa.mul {big}, {s}, {shift} : ({X}, {R}, tensor<1xi8>)", X)
    b.raw(f"return {out} : {X}")
    args = [("%x", X), ("%w", X)]
    sig = ",\n                    ".join(f"{n}: {ty}" for n, ty in args)
    body = "\n".join(b.lines)
    return args, f"  func.func @branches({sig}) -> {X} {{\n{body}\n  }}\n"


def shape_of(ty):
    return [int(d) for d in ty[len("tensor<"):-1].split("x")[:-1]]


def parallel(rank):
    return ", ".join(['"parallel"'] * rank)


def fill(name, ty, seed, scale, offset=0.0):
    """A linalg.generic that fills `ty` with a seeded integer hash of the
    element's linear index, mapped to [offset - scale/2, offset + scale/2)."""
    shape = shape_of(ty)
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    lines = [f"    {name}_e = tensor.empty() : {ty}",
             f"    {name} = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>], "
             f"iterator_types = [{parallel(rank)}]}} "
             f"outs({name}_e : {ty}) {{",
             "    ^bb0(%o: f32):"]
    lines.append("      %lin0 = linalg.index 0 : index")
    for i in range(1, rank):
        lines += [f"      %i{i} = linalg.index {i} : index",
                  f"      %c{i} = arith.constant {shape[i]} : index",
                  f"      %m{i} = arith.muli %lin{i - 1}, %c{i} : index",
                  f"      %lin{i} = arith.addi %m{i}, %i{i} : index"]
    lines += [f"      %n = arith.index_cast %lin{rank - 1} : index to i32",
              "      %k1 = arith.constant 1103515245 : i32",
              f"      %seed = arith.constant {seed} : i32",
              "      %s15 = arith.constant 15 : i32",
              "      %k2 = arith.constant 747796405 : i32",
              "      %s13 = arith.constant 13 : i32",
              "      %mask = arith.constant 65535 : i32",
              "      %h0 = arith.muli %n, %k1 : i32",
              "      %h1 = arith.addi %h0, %seed : i32",
              "      %h2 = arith.shrui %h1, %s15 : i32",
              "      %h3 = arith.xori %h1, %h2 : i32",
              "      %h4 = arith.muli %h3, %k2 : i32",
              "      %h5 = arith.shrui %h4, %s13 : i32",
              "      %h6 = arith.xori %h4, %h5 : i32",
              "      %h7 = arith.andi %h6, %mask : i32",
              "      %u = arith.uitofp %h7 : i32 to f32",
              f"      %inv = arith.constant {scale / 65536.0:.9e} : f32",
              f"      %base = arith.constant {offset - scale / 2:.9e} : f32",
              "      %r0 = arith.mulf %u, %inv : f32",
              "      %r = arith.addf %r0, %base : f32",
              "      linalg.yield %r : f32",
              f"    }} -> {ty}"]
    return lines


def causal_mask(name, ty):
    """0 where key <= query, -1e9 above the diagonal."""
    shape = shape_of(ty)
    return [f"    {name}_e = tensor.empty() : {ty}",
            f"    {name} = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], "
            "iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} "
            f"outs({name}_e : {ty}) {{",
            "    ^bb0(%o: f32):",
            "      %q = linalg.index 1 : index",
            "      %k = linalg.index 2 : index",
            "      %future = arith.cmpi ugt, %k, %q : index",
            "      %neg = arith.constant -1.0e+09 : f32",
            "      %zero = arith.constant 0.0 : f32",
            "      %v = arith.select %future, %neg, %zero : f32",
            "      linalg.yield %v : f32",
            f"    }} -> {ty}"]


def main_func(callee, args, result_ty, fills):
    """@main: fill the inputs, call the model, print the result as f32 and
    as bits (through @print_result)."""
    lines = []
    names = []
    for i, (name, ty) in enumerate(args):
        value = "%in_" + name[1:]
        names.append(value)
        if name == "%mask":
            lines += causal_mask(value, ty)
        else:
            scale, offset = fills.get(name, (0.5, 0.0))
            lines += fill(value, ty, 7919 * (i + 1), scale, offset)
    arg_tys = ", ".join(ty for _, ty in args)
    bits_ty = result_ty.replace("xf32>", "xi32>")
    rank = len(shape_of(result_ty))
    dims = ", ".join(f"d{i}" for i in range(rank))
    lines += [f"    %out = func.call @{callee}({', '.join(names)}) : ({arg_tys}) -> {result_ty}",
              f"    %bits_e = tensor.empty() : {bits_ty}",
              f"    %bits = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>, "
              f"affine_map<({dims}) -> ({dims})>], "
              f"iterator_types = [{parallel(rank)}]}} "
              f"ins(%out : {result_ty}) outs(%bits_e : {bits_ty}) {{",
              "    ^bb0(%f: f32, %o: i32):",
              "      %b = arith.bitcast %f : f32 to i32",
              "      linalg.yield %b : i32",
              f"    }} -> {bits_ty}",
              f"    func.call @print_result(%out, %bits) : ({result_ty}, {bits_ty}) -> ()",
              "    return"]
    # The prints live in their own function: liveness cannot size the
    # unranked casts they need, and @main is planned too.
    return ("  func.func @main() {\n" + "\n".join(lines) + "\n  }\n"
            f"  func.func @print_result(%out: {result_ty}, %bits: {bits_ty}) {{\n"
            f"    %out_u = tensor.cast %out : {result_ty} to tensor<*xf32>\n"
            "    func.call @printMemrefF32(%out_u) : (tensor<*xf32>) -> ()\n"
            f"    %bits_u = tensor.cast %bits : {bits_ty} to tensor<*xi32>\n"
            "    func.call @printMemrefI32(%bits_u) : (tensor<*xi32>) -> ()\n"
            "    return\n"
            "  }\n"
            "  func.func private @printMemrefF32(tensor<*xf32>)\n"
            "  func.func private @printMemrefI32(tensor<*xi32>)\n")


HEADER = """\
// Generated by gen_models.py from its template; do not edit by hand.
// {what}
// RUN: %python %S/run_e2e.py %s --workdir %t | FileCheck %s
{checks}// CHECK: arena @{callee}: {{{{[0-9]+}}}} allocs, {{{{[0-9]+}}}} bytes allocated, arena [[N:[0-9]+]] bytes (lower bound [[N]])
// CHECK: arena @main: {{{{[0-9]+}}}} allocs
// CHECK: planned and unplanned outputs are bit-identical
module {{
"""


def write(path, what, callee, model, result_ty, fills, checks=""):
    args, text = model
    Path(path).write_text(HEADER.format(what=what, callee=callee, checks=checks) +
                          text + "\n" + main_func(callee, args, result_ty, fills) +
                          "}\n")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
    wscale = 2.0 / D ** 0.5
    for S in SIZES:
        fills = {"%x": (2.0, 0.0), "%g1": (0.4, 1.0), "%g2": (0.4, 1.0)}
        for w in ("%wq", "%wk", "%wv", "%wo", "%wg", "%wu"):
            fills[w] = (wscale, 0.0)
        fills["%wd"] = (2.0 / F ** 0.5, 0.0)
        write(out / f"decoder_s{S}.mlir",
              f"Decoder block, S = {S}, D = {D}, {HEADS} heads, MLP width {F}.",
              "decoder", decoder(S), t(1, S, D), fills)
    write(out / "convnet.mlir", "Small CNN on a 16x16x3 image, 10 classes.",
          "convnet", convnet(), t(1, 1, 10), {"%img": (2.0, 0.0)})
    write(out / "branches.mlir",
          "A branch computed early and read late: the planned run is reordered.",
          "branches", branches(), t(1, 64, 64),
          {"%x": (1.0, 0.0), "%w": (2.0 / 64 ** 0.5, 0.0)},
          checks="// CHECK: remark: reordered @branches: lower bound {{[0-9]+}} -> "
                 "{{[0-9]+}} bytes\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs ExecuTorch programs through ExecuTorch's own runtime (the
`executorch` pip package) and says whether they compute the same outputs,
bit for bit: a program and its re-planned copy (`coreai-plan plan X.pte`).

    python3 compare_pte_runs.py A.pte B.pte [--calls prefill,decode,decode]

Each program is loaded once and its methods called in the order given
(default: every method once, by name); the same inputs go to both: an
integer input of n elements holds the next n integers modulo 16, counted
per input position across the calls (token ids and cache positions go on
where the last call stopped), a floating-point one seeded normal values.
Mutable buffers carry over from call to call, as they do in an
application. Prints each call's outputs' checksums and exits 0 when every
output of A equals B's, 1 when one differs, 2 on a usage error. Both
programs' arena sizes (ExecuTorch's deserializer) are printed.
"""
import argparse
import sys

import torch
from executorch.runtime import Runtime


def inputs_for(method, call_index, consumed):
    """`consumed` counts, per input position, the integers handed out in
    earlier calls: a decoder's next call continues where the last one
    stopped (prefill takes tokens and positions 0..3, decode then 4, 5)."""
    meta = method.metadata
    values = []
    for i in range(meta.num_inputs()):
        info = meta.input_tensor_meta(i)
        shape = tuple(info.sizes())
        dtype = {4: torch.long, 3: torch.int32, 6: torch.float32,
                 5: torch.float16, 15: torch.bfloat16, 11: torch.bool}[info.dtype()]
        numel = 1
        for size in shape:
            numel *= size
        if dtype.is_floating_point:
            g = torch.Generator().manual_seed(1000 * call_index + i)
            values.append(torch.randn(shape, generator=g).to(dtype))
        else:
            start = consumed.get(i, 0)
            consumed[i] = start + numel
            values.append(((torch.arange(numel) + start) % 16)
                          .reshape(shape).to(dtype))
    return values


def run(path, calls):
    program = Runtime.get().load_program(path)
    results = []
    consumed = {}
    for k, name in enumerate(calls):
        method = program.load_method(name)
        outputs = method.execute(inputs_for(method, k, consumed))
        results.append([o.clone() for o in outputs])
    return results


def arena_sizes(path):
    """Each method's planned arenas (bytes by memory id 1, 2, ...), as
    ExecuTorch's own deserializer reads them."""
    from executorch.exir._serialize._program import deserialize_pte_binary
    with open(path, "rb") as f:
        pte = deserialize_pte_binary(f.read())
    program = getattr(pte, "program", pte)
    return {plan.name: list(plan.non_const_buffer_sizes[1:])
            for plan in program.execution_plan}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--calls", help="methods to call, in order")
    args = parser.parse_args()
    names = sorted(Runtime.get().load_program(args.a).method_names)
    calls = args.calls.split(",") if args.calls else names
    if any(c not in names for c in calls):
        print("unknown method in --calls; the program has: " + ", ".join(names))
        return 2
    for path in (args.a, args.b):
        print("%s: arenas %s" % (path, arena_sizes(path)))
    a, b = run(args.a, calls), run(args.b, calls)
    same = True
    for k, name in enumerate(calls):
        for j, (x, y) in enumerate(zip(a[k], b[k])):
            equal = x.dtype == y.dtype and x.shape == y.shape and bool(
                torch.equal(x.view(torch.uint8) if x.dtype != torch.bool else x,
                            y.view(torch.uint8) if y.dtype != torch.bool else y))
            same = same and equal
            print("call %d %s output %d: %s sum %.6g %s" % (
                k, name, j, tuple(x.shape), float(x.double().sum()),
                "identical" if equal else "DIFFERENT (%.6g)" % float(y.double().sum())))
    print("identical outputs" if same else "outputs differ")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

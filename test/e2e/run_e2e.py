#!/usr/bin/env python3
"""Runs one model twice on the CPU, without and with the arena, and compares.

  unplanned: upstream mlir-opt only: TOSA -> linalg -> one-shot-bufferize ->
             buffer-deallocation-pipeline (plain memref.alloc/dealloc)
  planned:   coreai-plan-opt --coreai-plan-pipeline="poison=true in-place=true
             reorder=true ..." (the same steps, the ops reordered before
             bufferization, then the arena rewrite with in-place reuse; every
             arena is filled with 0xFF bytes - f32 NaN - on entry, so reading
             a buffer that nothing wrote poisons the result)

Both are lowered to LLVM by upstream mlir-opt and executed by mlir-runner
with the C runner utils. The model's @main prints its result as f32 and as
raw i32 bits; the printed data must be identical. Exit 0 when it is, 1 on a
mismatch (printed as MISMATCH), 2 when a tool fails.
"""
import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TO_LINALG = ("func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,"
             "tosa-to-tensor)")
BUFFERIZE = ("one-shot-bufferize{bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map},"
             "buffer-deallocation-pipeline,canonicalize")
TO_LLVM = ("convert-linalg-to-loops,lower-affine,convert-scf-to-cf,"
           "expand-strided-metadata,finalize-memref-to-llvm,"
           "convert-math-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,"
           "convert-cf-to-llvm,reconcile-unrealized-casts")
ARENA_ATTR = re.compile(r"func\.func @(\w+)\(.*?attributes \{.*?coreai\.arena = "
                        r"\{alignment = \d+ : i64, allocs = (\d+) : i64, allocs_bytes = (\d+) : i64, "
                        r"lower_bound = (\d+) : i64, size = (\d+) : i64\}")


def tool(name):
    path = shutil.which(name)
    if not path:
        sys.exit(f"error: {name} not found on PATH")
    return path


def run(cmd, what):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(f"error: {what} failed ({proc.returncode}):\n"
                         f"  {' '.join(cmd)}\n{proc.stderr}")
        sys.exit(2)
    return proc


def arena_stats(mlir_text):
    """(function, allocs, bytes requested, lower bound, arena size) per function."""
    return [(m[1], int(m[2]), int(m[3]), int(m[4]), int(m[5]))
            for m in ARENA_ATTR.finditer(mlir_text)]


def plan(model, out, options):
    """The planned pipeline; returns the stderr (remarks, warnings)."""
    proc = run([tool("coreai-plan-opt"), str(model),
                f"--coreai-plan-pipeline={options}", "-o", str(out)],
               "coreai-plan-opt --coreai-plan-pipeline")
    return proc.stderr


def execute(buffered, work, tag):
    """Lowers bufferized IR to LLVM, runs @main, returns the printed data."""
    llvm = work / f"{tag}.llvm.mlir"
    run([tool("mlir-opt"), str(buffered), f"--pass-pipeline=builtin.module({TO_LLVM})",
         "-o", str(llvm)], f"lowering the {tag} module to LLVM")
    runner = tool("mlir-runner")
    lib = Path(runner).resolve().parent.parent / "lib"
    libs = ",".join(str(lib / n) for n in ("libmlir_runner_utils.so",
                                           "libmlir_c_runner_utils.so"))
    proc = run([runner, str(llvm), "-e", "main", "-entry-point-result=void",
                f"-shared-libs={libs}"], f"running the {tag} module")
    # Drop the header lines: they print the buffer's address.
    return [line for line in proc.stdout.splitlines()
            if not line.startswith("Unranked Memref")]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", type=Path)
    ap.add_argument("--arena", default="alloc", choices=("alloc", "argument"))
    ap.add_argument("--functions",
                    help="comma-separated functions to rewrite (default: every "
                         "defined one but @print*, whose unranked casts "
                         "liveness cannot size)")
    ap.add_argument("--no-reuse", action="store_true",
                    help="plan without in-place reuse and reordering (on by "
                         "default, as coreai-plan plans for h18p)")
    ap.add_argument("--corrupt", action="store_true",
                    help="negative control: plan with test-corrupt-plan=true")
    ap.add_argument("--workdir", type=Path,
                    help="keep intermediate files here (default: a temp dir)")
    args = ap.parse_args()

    if args.workdir:
        args.workdir.mkdir(parents=True, exist_ok=True)
        compare(args, args.workdir)
    else:
        with tempfile.TemporaryDirectory(prefix="coreai-e2e-") as tmp:
            compare(args, Path(tmp))


def compare(args, work):
    """Both runs in `work`; exits 1 on a mismatch, 2 on a tool failure."""
    unplanned = work / "unplanned.buf.mlir"
    planned = work / "planned.buf.mlir"

    run([tool("mlir-opt"), str(args.model),
         f"--pass-pipeline=builtin.module({TO_LINALG},{BUFFERIZE})",
         "-o", str(unplanned)], "upstream bufferization")
    functions = args.functions or ",".join(
        name for name in re.findall(r"^\s*func\.func @(\w+)\(", args.model.read_text(), re.M)
        if not name.startswith("print"))
    options = f"poison=true arena={args.arena} functions={functions}"
    if not args.no_reuse:
        options += " in-place=true reorder=true"
    if args.corrupt:
        options += " test-corrupt-plan=true"
    diagnostics = plan(args.model, planned, options)
    for line in diagnostics.splitlines():
        if "warning:" in line or "error:" in line or "remark: reordered" in line:
            print(line)

    text = planned.read_text()
    stats = arena_stats(text)
    if not stats or "memref.view" not in text:
        print("error: the planned module has no arena (no memref.view)")
        sys.exit(2)
    for name, allocs, requested, bound, size in stats:
        print(f"arena @{name}: {allocs} allocs, {requested} bytes allocated, "
              f"arena {size} bytes (lower bound {bound})")

    expected = execute(unplanned, work, "unplanned")
    actual = execute(planned, work, "planned")
    data = " ".join(expected)
    if "nan" in data.lower() or len(set(re.findall(r"-?\d+\.\d+|-?\d+e[-+]?\d+", data))) < 2:
        print("error: the unplanned output is NaN or uniform: the model proves nothing")
        sys.exit(2)
    if expected != actual:
        diff = sum(a != b for a, b in zip(expected, actual))
        print(f"MISMATCH: {diff} of {len(expected)} printed lines differ "
              "(--workdir keeps the intermediate files)")
        for a, b in zip(expected, actual):
            if a != b:
                print(f"  unplanned: {a[:160]}\n  planned:   {b[:160]}")
                break
        sys.exit(1)
    print(f"planned and unplanned outputs are bit-identical "
          f"({len(expected)} printed lines)")


if __name__ == "__main__":
    main()

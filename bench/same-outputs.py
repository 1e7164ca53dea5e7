#!/usr/bin/env python3
"""Every command's outputs on the shared graphs, from two builds, compared.

For a change that must not change behaviour (a refactoring, a move of
code between layers): `bench/same-outputs.py --base OLD/bin --new
build/bin`. Runs the same matrix of commands with each build's tools
(plan with every output, on every shared graph and archive, per-S and
parametric; buffers with its annotated module and CSV problems; import;
explain; inspect's SVG and HTML; check-heap; fit; the opt passes; solve on
CSV problems), each build in its own folder but with the same relative
paths, then compares every file written byte for byte and every stdout and
stderr with timings masked. Prints one line per command and a summary;
exits 1 when anything differs.
"""
import argparse
import difflib
import filecmp
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Wall-clock figures and the build's own description vary between runs.
VOLATILE = [
    (re.compile(r"\b\d+(\.\d+)?\s?(ms|s|µs|us)\b"), "<time>"),
    (re.compile(r"in \d+(\.\d+)? ?seconds"), "in <time>"),
    # --json's timings, and the time column that ends a table row.
    (re.compile(r'("\w*(seconds|_ms)": )[0-9.e+-]+'), r"\1<time>"),
    (re.compile(r"(?m) +\d+\.\d+$"), " <time>"),
]


def stem(path):
    name = os.path.basename(path)
    for ext in (".mlir", ".pt2"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


def matrix(shared, quick):
    """(label, tool, arguments) with {out} for the run's output folder."""
    graphs = sorted(glob.glob(os.path.join(shared, "graphs", "*.mlir")))
    tiny = sorted(glob.glob(os.path.join(shared, "graphs", "tiny", "*.mlir")))
    archives = sorted(glob.glob(os.path.join(shared, "exports", "*.pt2")))
    if quick:
        graphs = [g for g in graphs if "s1." in g or "multi" in g]
    runs = []
    for g in graphs + tiny + archives:
        name = stem(g)
        dynamic = ".dyn." in os.path.basename(g)
        chunks = ["--chunks", "1,16,32,64"] if dynamic else []
        out = f"{{out}}/plan-{name}"
        runs.append((f"plan {name}", "coreai-plan",
                     ["plan", g, "--target", "h18p", "--svg", "--explain",
                      "-o", out] + chunks))
        runs.append((f"plan --json {name}", "coreai-plan",
                     ["plan", g, "--target", "h18p", "--json", "-o",
                      f"{{out}}/json-{name}"] + chunks))
        runs.append((f"plan generic {name}", "coreai-plan",
                     ["plan", g, "--target", "generic", "-o",
                      f"{{out}}/generic-{name}"] + chunks))
        manifest = f"{out}/plan.manifest"
        runs.append((f"explain {name}", "coreai-plan", ["explain", manifest]))
        runs.append((f"inspect {name}", "coreai-plan",
                     ["inspect", manifest, "--html", f"{{out}}/{name}.html"]))
        runs.append((f"check-heap {name}", "coreai-plan",
                     ["check-heap", "--manifest", manifest,
                      "--heap-total", "145920"]))
        if g.endswith(".pt2"):
            runs.append((f"import {name}", "coreai-plan",
                         ["import", g, "-o", f"{{out}}/{name}.imported.mlir"]))
        if not dynamic and g.endswith(".mlir"):
            runs.append((f"buffers {name}", "coreai-plan",
                         ["buffers", g, "--in-place", "--reorder", "-o",
                          f"{{out}}/{name}.buffers.mlir", "--emit-problem",
                          f"{{out}}/problems-{name}"]))
            runs.append((f"opt plan-buffers {name}", "coreai-plan-opt",
                         ["--allow-unregistered-dialect",
                          "--coreai-plan-buffers=in-place=true", g,
                          "-o", f"{{out}}/{name}.opt.mlir"]))
    for g in tiny:
        if ".dyn." in g:
            name = stem(g)
            runs.append((f"plan parametric {name}", "coreai-plan",
                         ["plan", g, "--target", "h18p", "--chunks", "1..64",
                          "--json", "-o", f"{{out}}/param-{name}"]))
    for g in [p for p in graphs + tiny if "gemma4" in p and ".dyn." in p]:
        runs.append((f"fit {stem(g)}", "coreai-plan",
                     ["fit", "--heap-total", "145920", g, "--target", "h18p",
                      "--chunks", "1,16,32,64"]))
    small = os.path.join(ROOT, "examples", "small.csv")
    runs.append(("solve small.csv", "coreai-plan",
                 ["solve", "--input", small, "--output", "{out}/small.offsets.csv"]))
    runs.append(("coreai-solve small.csv", "coreai-solve",
                 ["--input", small]))
    return runs


def run_all(bindir, workdir, runs):
    results = {}
    os.makedirs(os.path.join(workdir, "out"), exist_ok=True)
    for label, tool, arguments in runs:
        command = [os.path.join(bindir, tool)] + [a.replace("{out}", "out")
                                                  for a in arguments]
        done = subprocess.run(command, cwd=workdir, capture_output=True,
                              text=True, errors="replace")
        text = done.stdout + "\n--- stderr ---\n" + done.stderr
        for pattern, mask in VOLATILE:
            text = pattern.sub(mask, text)
        results[label] = (done.returncode, text)
    return results


def differing_files(a, b):
    """Relative paths that differ or exist on one side only."""
    found = []
    for dirpath, _, files in os.walk(a):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), a)
            other = os.path.join(b, rel)
            if not os.path.exists(other) or not filecmp.cmp(
                    os.path.join(a, rel), other, shallow=False):
                found.append(rel)
    for dirpath, _, files in os.walk(b):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), b)
            if not os.path.exists(os.path.join(a, rel)):
                found.append(rel)
    return sorted(set(found))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the old build's bin/")
    parser.add_argument("--new", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--shared", default=os.environ.get(
        "COREAI_SHARED_DIR", os.path.join(ROOT, "..", "shared")))
    parser.add_argument("--quick", action="store_true",
                        help="only the S=1 and bundle full-size graphs")
    parser.add_argument("--keep", help="leave both output trees here")
    parser.add_argument("--filter", help="only the commands whose label "
                        "matches this regular expression")
    args = parser.parse_args()
    runs = [r for r in matrix(args.shared, args.quick)
            if not args.filter or re.search(args.filter, r[0])]
    work = args.keep or tempfile.mkdtemp(prefix="same-outputs-")
    base = run_all(os.path.abspath(args.base), os.path.join(work, "base"), runs)
    new = run_all(os.path.abspath(args.new), os.path.join(work, "new"), runs)
    differences = 0
    for label, _, _ in runs:
        if base[label] != new[label]:
            differences += 1
            print(f"DIFFERS  {label}: exit {base[label][0]} vs {new[label][0]}"
                  " or its output text")
            if differences == 1:
                print("".join(list(difflib.unified_diff(
                    base[label][1].splitlines(True),
                    new[label][1].splitlines(True), "base", "new"))[:20]))
    files = differing_files(os.path.join(work, "base", "out"),
                            os.path.join(work, "new", "out"))
    for rel in files:
        print(f"DIFFERS  file out/{rel}")
    count = sum(len(f) for _, _, f in os.walk(os.path.join(work, "base", "out")))
    print(f"{len(runs)} commands, {count} files written per build: "
          f"{differences} commands and {len(files)} files differ")
    if not args.keep:
        shutil.rmtree(work)
    return 1 if differences or files else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The verifier of bench/solver-frontier.py, which every benchmarked plan
(coreai-solve's, earlier commits', MiniMalloc's) must pass, tried on plans
it must accept and on planted faults it must reject.

    check-frontier-verifier.py --solve build/bin/coreai-solve --problem examples/small.csv

A plan coreai-solve writes is accepted, with its heap; then, one at a
time: two buffers live together moved onto each other, a buffer moved
past the capacity, a negative offset. Each must be refused (ValueError);
one that passes fails this test by name.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def frontier():
    path = os.path.join(ROOT, "bench", "solver-frontier.py")
    spec = importlib.util.spec_from_file_location("solver_frontier", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def overlapping_pair(rows):
    for i, (start, end, size, _) in enumerate(rows):
        for j in range(i + 1, len(rows)):
            other = rows[j]
            if size and other[2] and start < other[1] and other[0] < end:
                return i, j
    sys.exit("check-frontier-verifier.py: the problem has no two buffers live together")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--solve", required=True)
    parser.add_argument("--problem", required=True)
    args = parser.parse_args()
    bench = frontier()
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "plan.csv")
        subprocess.run([args.solve, "--input", args.problem, "--output", out], check=True,
                       stdout=subprocess.DEVNULL)
        rows = bench.read_plan(out)
    heap = bench.verify(rows, 0)
    if heap != max(offset + size for _, _, size, offset in rows):
        sys.exit(f"check-frontier-verifier.py: heap {heap} is not the plan's top")
    if bench.verify(rows, heap) != heap:
        sys.exit("check-frontier-verifier.py: the plan is refused at its own heap")
    i, j = overlapping_pair(rows)
    planted = {
        "two live buffers at one offset": [
            (r[0], r[1], r[2], rows[i][3] if k == j else r[3]) for k, r in enumerate(rows)],
        "a buffer past the capacity": [
            (r[0], r[1], r[2], heap if k == i else r[3]) for k, r in enumerate(rows)],
        "a negative offset": [
            (r[0], r[1], r[2], -1 if k == i else r[3]) for k, r in enumerate(rows)],
    }
    failures = []
    for name, plan in planted.items():
        try:
            bench.verify(plan, heap)
            failures.append(name)
        except ValueError as error:
            print(f"{name}: refused ({error})")
    if failures:
        sys.exit("check-frontier-verifier.py: accepted " + ", ".join(failures))
    print(f"the plan ({len(rows)} buffers, heap {heap}) accepted, 3 planted faults refused")


if __name__ == "__main__":
    main()

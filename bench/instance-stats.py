#!/usr/bin/env python3
"""Shape of buffer problems: what docs/benchmarks.md (issue 18, the 100k
instance) compares between the challenging set and the random generator.

    bench/instance-stats.py [--generator N] [--variant N [--write FILE]] CSV...

Per instance: buffers live at once (time-weighted average, maximum), size and
lifetime spread in octaves (log2 of max / min), the correlation of log size
with log lifetime, the largest buffer against the lower bound (max live
bytes), and the fill: mean live bytes over the time span / the lower bound.

--generator N describes a sample of coreai-plan-bench's `--random N`
distributions (another random stream: the shape, not the same instance).
--variant N describes the challenging-like candidate that was rejected
(log-uniform sizes 1 KiB..1 MiB tied to log-uniform lifetimes 1..1024 steps,
40 buffers live on average); --write FILE saves it as a MiniMalloc CSV so
that coreai-plan-bench can pack it.
"""
import argparse
import collections
import csv
import math
import random
import statistics


def describe(name, buffers):
    """buffers: (start, end, size) with start < end."""
    delta = collections.defaultdict(int)
    count = collections.defaultdict(int)
    for start, end, size in buffers:
        delta[start] += size
        delta[end] -= size
        count[start] += 1
        count[end] -= 1
    times = sorted(delta)
    live = alive = peak = most = area = weighted = 0
    for t, following in zip(times, times[1:]):
        live += delta[t]
        alive += count[t]
        peak = max(peak, live)
        most = max(most, alive)
        area += live * (following - t)
        weighted += alive * (following - t)
    span = times[-1] - times[0]
    sizes = [s for _, _, s in buffers]
    lives = [e - s for s, e, _ in buffers]
    corr = statistics.correlation([math.log(s) for s in sizes],
                                  [math.log(l) for l in lives])
    print(f"| {name} | {len(buffers)} | {weighted / span:.0f} / {most} "
          f"| {math.log2(max(sizes) / min(sizes)):.1f} "
          f"| {math.log2(max(lives) / min(lives)):.1f} | {corr:.2f} "
          f"| {max(sizes) / peak:.3f} | {area / span / peak:.2f} |")


def generator(n, rng):
    # As randomProblem in bench/SolverBench.cpp.
    out = []
    for _ in range(n):
        start = rng.randrange(n)
        length = 1 << rng.randrange(11)
        out.append((start, start + 1 + rng.randrange(length),
                    64 * (1 + rng.randrange(256))))
    return out


def variant(n, rng, live=40.0, tie=0.55):
    shapes = []
    for _ in range(n):
        a, b = rng.random(), rng.random()
        life = max(1, int(2 ** (10 * a)))
        size = 1024 * max(1, int(2 ** (10 * (tie * (1 - a) + (1 - tie) * b))))
        shapes.append((life, size))
    horizon = int(sum(l for l, _ in shapes) / live)
    out = []
    for life, size in shapes:
        start = rng.randrange(horizon)
        out.append((start, start + life, size))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv", nargs="*")
    parser.add_argument("--generator", type=int)
    parser.add_argument("--variant", type=int)
    parser.add_argument("--write")
    args = parser.parse_args()
    print("| instance | buffers | live at once (avg / max) | size octaves "
          "| lifetime octaves | corr. log size, log life | largest / LB "
          "| fill |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in args.csv:
        with open(path, newline="") as f:
            rows = [(int(r["lower"]), int(r["upper"]), int(r["size"]))
                    for r in csv.DictReader(f)]
        describe(path.rsplit("/", 1)[-1],
                 [r for r in rows if r[0] < r[1] and r[2] > 0])
    if args.generator:
        describe(f"--random {args.generator} (sample)",
                 generator(args.generator, random.Random(1)))
    if args.variant:
        buffers = variant(args.variant, random.Random(42 + args.variant))
        describe(f"variant {args.variant}", buffers)
        if args.write:
            with open(args.write, "w") as f:
                f.write("id,lower,upper,size\n")
                for i, (start, end, size) in enumerate(buffers):
                    f.write(f"{i},{start},{end},{size}\n")


if __name__ == "__main__":
    main()

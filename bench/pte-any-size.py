#!/usr/bin/env python3
"""Programs of any size (issue 48): `coreai-plan plan` on a generated
multi-GB ExecuTorch program, against a plain file copy (`cp`) and against
the previous commit's `plan`, wall time and peak RSS from /usr/bin/time -v.

    python3 bench/pte-any-size.py [--build build] [--base BASE_BUILD]
                                  [--gib 2,8] [--base-gib 2] [--work DIR]
                                  [--update]

The program is test/lit/pte/Inputs/decoder.pte (two methods, a KV cache)
with its segments grown by GIB GiB of pseudo-random bytes, as a model's
weights would be (the extended header says where they end; nothing
references them). It is written into --work (default: a directory under
the build) and removed after; never committed. Each command runs three
times; the table gives the fastest run and the largest RSS of the three.
`--base` is the build directory of the previous commit (its
bin/coreai-plan), run in the same run on the same file, up to --base-gib
GiB (it holds about three copies of the file in memory).
"""
import argparse
import hashlib
import os
import random
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

FIXTURE = os.path.join(benchlib.ROOT, "test", "lit", "pte", "Inputs",
                       "decoder.pte")
CHUNK = 16 << 20


def grow(src, dst, gib):
    """dst: src with `gib` GiB appended to its segments."""
    data = bytearray(open(src, "rb").read())
    if data[8:10] != b"eh":
        sys.exit(f"{src} has no extended header")
    segment_base, segment_size = struct.unpack_from("<QQ", data, 24)
    extra = gib << 30
    struct.pack_into("<Q", data, 32, segment_size + extra)
    rng = random.Random(48)
    block = bytes(rng.getrandbits(8) for _ in range(1 << 16)) * (CHUNK >> 16)
    with open(dst, "wb") as out:
        out.write(data)
        written = 0
        while written < extra:
            n = min(CHUNK, extra - written)
            # Each chunk differs (its first bytes count), as weights do.
            out.write(struct.pack("<Q", written) + block[8:n])
            written += n


def timed(command):
    """(wall seconds, peak RSS KiB) of one run under /usr/bin/time -v."""
    run = subprocess.run(["/usr/bin/time", "-v"] + command,
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{run.stdout}{run.stderr}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):"
                     r"([\d.]+)", run.stderr)
    hours, minutes, seconds = wall.groups()
    seconds = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                        run.stderr).group(1))
    return seconds, rss


def best_of(command, runs=3):
    results = [timed(command) for _ in range(runs)]
    return min(r[0] for r in results), max(r[1] for r in results)


def tail_digest(path, start):
    digest = hashlib.sha256()
    with open(path, "rb") as fp:
        fp.seek(start)
        while chunk := fp.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def segments_at(path):
    with open(path, "rb") as fp:
        return struct.unpack_from("<Q", fp.read(40), 24)[0]


def measure(args, work, gib):
    """The rows of one program size: (bytes, command, seconds, RSS KiB)."""
    big = os.path.join(work, "big.pte")
    grow(FIXTURE, big, gib)
    size = os.path.getsize(big)
    rows = [(size, "`cp`", *best_of(["cp", big,
                                     os.path.join(work, "copy.pte")]))]
    os.remove(os.path.join(work, "copy.pte"))
    tools = [("`coreai-plan plan` (this commit)", args.build)]
    if args.base and gib <= args.base_gib:
        tools.append(("`coreai-plan plan` (previous commit)", args.base))
    for label, build in tools:
        out = os.path.join(work, "out.pte")
        rows.append((size, label, *best_of([
            os.path.join(build, "bin", "coreai-plan"), "plan", big, "-o",
            out, "--quiet"])))
        # The weights arrive unchanged, wherever the segments now start.
        if tail_digest(out, segments_at(out)) != \
                tail_digest(big, segments_at(big)):
            sys.exit(f"{label}: the segments changed")
        os.remove(out)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(benchlib.ROOT,
                                                        "build"))
    parser.add_argument("--base", help="build directory of the previous "
                        "commit")
    parser.add_argument("--gib", default="2,8")
    parser.add_argument("--base-gib", type=int, default=2)
    parser.add_argument("--work")
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args()
    work = args.work or os.path.join(args.build, "bench-pte-any-size")
    rows = []
    for gib in [int(g) for g in args.gib.split(",")]:
        os.makedirs(work, exist_ok=True)
        try:
            rows += measure(args, work, gib)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    lines = [
        "## ExecuTorch programs of any size (issue 48, "
        "`bench/pte-any-size.py`)",
        "",
        "`plan` of `decoder.pte` with its segments grown by GiBs of "
        "pseudo-random weights, against a plain file copy (`cp`) and the "
        "previous commit's `plan` (which holds about three copies of the "
        "file in memory: run at the smallest size only); wall time the "
        "fastest of three runs, peak RSS the largest, both from "
        "`/usr/bin/time -v`, on the project's 2-core build machine shared "
        "with other jobs (ext4: `cp` and `plan` both copy with "
        "`copy_file_range`, no reflink). The re-planned file's segments "
        "are checked to be the input's, byte for byte (sha256).",
        "",
        "| program | command | wall (s) | peak RSS (MiB) |",
        "| --- | --- | ---: | ---: |",
    ]
    for size, label, seconds, rss in rows:
        lines.append(f"| {size / (1 << 30):.2f} GiB ({size} bytes) | "
                     f"{label} | {seconds:.2f} | {rss / 1024:.1f} |")
    benchlib.publish("\n".join(lines), "pte-any-size", args.update)


if __name__ == "__main__":
    main()

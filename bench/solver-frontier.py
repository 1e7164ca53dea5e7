#!/usr/bin/env python3
"""coreai-solve against the solver of earlier commits, in one run (issue 49).

    bench/solver-frontier.py --base BUILD_DIR [--base BUILD_DIR ...]
        [--build build] [--shared ../shared] [--repeats 3]
        [--sets challenging,traces,synth] [--target-ratio 0.49]
        [--minimalloc PATH/TO/minimalloc] [--update]

Each --base is the build directory of an earlier commit: its coreai-solve
when it has one, otherwise its `coreai-plan solve` (before coreai-solve
existed, the solve command loaded MLIR at start-up; that is part of its
time, as it was of a user's). The problems:

- challenging: MiniMalloc's 11 challenging instances, packed within
  capacity 1048576 (the number in their names; MiniMalloc's published task);
- traces: the idealloc traces, minimising the heap;
- synth: the seeded random instances of `coreai-plan-bench --random N`
  for N = 1000, 10000, 100000 (written to CSV by `--save-random`),
  minimising.

With --minimalloc (MiniMalloc's own command-line solver, built from its
repository outside this one), MiniMalloc packs the challenging set too,
in the same interleaved runs, with its default flags (no time limit); it
solves only within a capacity, so it runs on no other set. Its plans go
through the same verifier.

Every solver gets its default budget (10 s). The runs are interleaved: each
repeat runs every problem with every solver, one process at a time, the
solvers' order rotating from repeat to repeat, so that all see the same
load. Per run: the CPU time (user + system, from wait4: the process and the
/usr/bin/time that measures its memory, a millisecond or two) and wall
time, its peak resident memory, and its heap and proof as printed; every
plan it writes is checked by the verifier below, written for this script
(it shares no code with the solvers' own verifyPlan).

The table gives medians of the repeats (a heap's range when the runs
differ, and how many proved it when not all did). The script fails (exit
1) when a plan does not verify, when the new median heap is larger than a
base's, when a base proves its heap in most runs and the new solver does
not, when the new median CPU time is beyond noise above a base's (above
1.1 x + 20 ms and above every one of the base's repeats; runs where both
solvers used their whole budget are compared by heap only), or, with
--target-ratio, when the challenging sum of new CPU times is above that
share of the first base's.
"""
import argparse
import bisect
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

CAPACITY = 1048576
SYNTH_SIZES = (1000, 10000, 100000)
BUDGET_S = 10.0
# A run counts as cut by its budget when its wall time reaches this share.
CUT_SHARE = 0.95
NOISE_FACTOR, NOISE_S = 1.10, 0.020


class Solver:
    def __init__(self, name, command, flag_style="--{0} {1}", sets=None):
        self.name = name
        self.command = command  # argv before --input
        self.flag_style = flag_style  # MiniMalloc takes --input=PATH
        self.sets = sets  # the sets it runs on (None: all)

    def argv(self, problem, out, capacity):
        flags = [("input", problem), ("output", out)]
        if capacity:
            flags.append(("capacity", str(capacity)))
        argv = list(self.command)
        for name, value in flags:
            argv += self.flag_style.format(name, value).split(" ")
        return argv

    def runs_on(self, kind):
        return self.sets is None or kind in self.sets


def solver_of(build):
    """The solve command of a build directory, named by its commit."""
    bindir = os.path.join(build, "bin")
    solve = os.path.join(bindir, "coreai-solve")
    if os.access(solve, os.X_OK):
        command = [solve]
    else:
        plan = os.path.join(bindir, "coreai-plan")
        if not os.access(plan, os.X_OK):
            sys.exit(f"solver-frontier.py: no coreai-solve or coreai-plan in {bindir}")
        command = [plan, "solve"]
    return Solver(commit_of(build), command)


def commit_of(build):
    source = None
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as fp:
            for line in fp:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    source = line.split("=", 1)[1].strip()
    except OSError:
        pass
    if not source:
        return os.path.basename(os.path.abspath(build))
    head = subprocess.run(["git", "-C", source, "rev-parse", "--short=7", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    # Uncommitted changes to what the solver is built from mark the name.
    dirty = subprocess.run(["git", "-C", source, "status", "--porcelain",
                            "--untracked-files=no", "--", "lib", "include",
                            "tools", "cmake", "CMakeLists.txt"],
                           capture_output=True, text=True).stdout.strip()
    return (head or os.path.basename(source)) + ("+" if dirty else "")


def minimalloc_name(binary):
    """MiniMalloc and its commit, where the binary sits in a build folder
    of a git checkout (or an exported tree with a COMMIT file beside)."""
    source = os.path.dirname(os.path.dirname(os.path.abspath(binary)))
    for folder in (source, os.path.join(source, "src")):
        head = subprocess.run(["git", "-C", folder, "rev-parse", "--short=7", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        if head:
            return f"MiniMalloc {head}"
        try:
            with open(os.path.join(folder, "COMMIT")) as fp:
                return f"MiniMalloc {fp.read().strip()[:7]}"
        except OSError:
            pass
    return "MiniMalloc"


def read_plan(path):
    """Buffers (start, end, size, offset) of a solver's output CSV."""
    with open(path) as fp:
        header = fp.readline().strip().split(",")
        column = {name: i for i, name in enumerate(header)}
        for needed in ("lower", "upper", "size", "offset"):
            if needed not in column:
                raise ValueError(f"{path}: no '{needed}' column")
        rows = []
        for line in fp:
            if not line.strip():
                continue
            cells = line.strip().split(",")
            rows.append((int(cells[column["lower"]]), int(cells[column["upper"]]),
                         int(cells[column["size"]]), int(cells[column["offset"]])))
    return rows


def verify(rows, capacity):
    """The heap of a plan, or a ValueError naming the first violation.
    Live intervals are half-open; buffers live together must not share an
    address. A sweep over time keeps the live buffers sorted by offset; since
    they are pairwise disjoint, a new one need only be checked against its
    neighbours in that order."""
    heap = 0
    events = []
    for i, (start, end, size, offset) in enumerate(rows):
        if offset < 0:
            raise ValueError(f"buffer {i}: negative offset {offset}")
        if size > 0:
            heap = max(heap, offset + size)
        if size > 0 and start < end:
            events.append((start, 1, i))
            events.append((end, 0, i))
    if capacity and heap > capacity:
        raise ValueError(f"heap {heap} above the capacity {capacity}")
    events.sort()  # ends (0) before starts (1) at the same time
    live = []  # (offset, end of its address range, buffer)
    for _, kind, i in events:
        start, end, size, offset = rows[i]
        entry = (offset, offset + size, i)
        if kind == 0:
            live.pop(bisect.bisect_left(live, entry))
            continue
        k = bisect.bisect_left(live, entry)
        if k > 0 and live[k - 1][1] > offset:
            raise ValueError(f"buffers {live[k - 1][2]} and {i} overlap")
        if k < len(live) and live[k][0] < offset + size:
            raise ValueError(f"buffers {i} and {live[k][2]} overlap")
        live.insert(k, entry)
    return heap


def run_once(solver, problem, capacity, scratch):
    """One process: its exit code, output, wall time, rusage (with its
    children's), peak resident KiB and plan path."""
    out = os.path.join(scratch, "plan.csv")
    if os.path.exists(out):
        os.remove(out)
    argv = solver.argv(problem, out, capacity)
    # Peak memory from /usr/bin/time: a child forked from this Python
    # process would count the interpreter's pages as its own.
    memory = os.path.join(scratch, "memory")
    argv = ["/usr/bin/time", "-f", "%M", "-o", memory] + argv
    with open(os.path.join(scratch, "stdout"), "w+") as stdout, \
            open(os.path.join(scratch, "stderr"), "w+") as stderr:
        begin = time.perf_counter()
        process = subprocess.Popen(argv, stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - begin
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        with open(memory) as fp:
            peak_kib = int(fp.read().split()[-1])
        return (process.returncode, stdout.read(), stderr.read(), wall, usage,
                peak_kib, out)


class Measurement:
    def __init__(self):
        self.cpu, self.wall, self.rss, self.heaps, self.proofs = [], [], [], [], []
        self.errors = []

    @property
    def heap(self):
        """The median heap of the runs (runs cut by the clock may differ)."""
        return sorted(self.heaps)[(len(self.heaps) - 1) // 2] if self.heaps else None

    @property
    def proven(self):
        """Proven minimal in most runs."""
        return 2 * sum(self.proofs) > len(self.proofs)


def measure(solver, problem, capacity, scratch, record):
    code, stdout, stderr, wall, usage, peak_kib, out = run_once(solver, problem, capacity, scratch)
    name = os.path.basename(problem)
    if code != 0:
        record.errors.append(f"{solver.name} on {name}: exit {code}: {stderr.strip()}")
        return
    fields = dict(re.findall(r"^(heap|optimal)\s+(.+)$", stdout, re.M))
    try:
        heap = verify(read_plan(out), capacity)
    except (OSError, ValueError) as error:
        record.errors.append(f"{solver.name} on {name}: plan rejected: {error}")
        return
    if "heap" in fields and int(fields["heap"]) != heap:
        record.errors.append(f"{solver.name} on {name}: prints heap {fields['heap']},"
                             f" its plan's is {heap}")
    record.heaps.append(heap)
    record.proofs.append(fields.get("optimal", "").startswith("proven"))
    record.cpu.append(usage.ru_utime + usage.ru_stime)
    record.wall.append(wall)
    record.rss.append(peak_kib)


def problems_of(sets, shared, synth_dir, build):
    chosen = []
    if "challenging" in sets:
        folder = os.path.join(shared, "benchmarks", "minimalloc", "challenging")
        for name in sorted(os.listdir(folder)):
            if name.endswith(".csv"):
                chosen.append(("challenging", os.path.join(folder, name), CAPACITY))
    if "traces" in sets:
        folder = os.path.join(shared, "benchmarks", "idealloc")
        for name in sorted(os.listdir(folder)):
            if name.endswith(".csv"):
                chosen.append(("traces", os.path.join(folder, name), 0))
    if "synth" in sets:
        bench = os.path.join(build, "bin", "coreai-plan-bench")
        argv = [bench, "--save-random", synth_dir]
        for n in SYNTH_SIZES:
            argv += ["--random", str(n)]
        subprocess.run(argv, check=True)
        for n in SYNTH_SIZES:
            chosen.append(("synth", os.path.join(synth_dir, f"random-{n}.csv"), 0))
    return chosen


def median(values):
    return statistics.median(values) if values else float("nan")


def cut_by_budget(record):
    return median(record.wall) >= CUT_SHARE * BUDGET_S and not record.proven


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(benchlib.ROOT, "build"))
    parser.add_argument("--shared", default=os.environ.get(
        "COREAI_SHARED_DIR", os.path.join(benchlib.ROOT, "..", "shared")))
    parser.add_argument("--base", action="append", required=True,
                        help="build directory of an earlier commit (repeatable)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sets", default="challenging,traces,synth")
    parser.add_argument("--target-ratio", type=float,
                        help="fail unless the challenging CPU sum is at most this"
                             " share of the first base's")
    parser.add_argument("--minimalloc",
                        help="MiniMalloc's solver binary: it packs the challenging set too")
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args()

    new = Solver("new", [os.path.join(args.build, "bin", "coreai-solve")])
    new.name = commit_of(args.build)
    solvers = [new] + [solver_of(base) for base in args.base]
    if args.minimalloc:
        solvers.append(Solver(minimalloc_name(args.minimalloc), [args.minimalloc],
                              flag_style="--{0}={1}", sets={"challenging"}))
    labels = [s.name for s in solvers]
    if len(set(labels)) != len(labels):
        for k, s in enumerate(solvers):
            s.name = f"{s.name} ({'new' if k == 0 else 'base ' + str(k)})"
    sets = set(args.sets.split(","))
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as scratch:
        problems = problems_of(sets, args.shared, scratch, args.build)
        records = {(p, s.name): Measurement() for _, p, _ in problems for s in solvers}
        for repeat in range(args.repeats):
            order = solvers[repeat % len(solvers):] + solvers[:repeat % len(solvers)]
            for kind, problem, capacity in problems:
                for solver in order:
                    if solver.runs_on(kind):
                        measure(solver, problem, capacity, scratch,
                                records[(problem, solver.name)])
    load_after = os.getloadavg()[0]

    failures = []
    for record in records.values():
        failures += record.errors
    header = "| set | problem | " + " | ".join(
        f"{s.name} heap | CPU s | wall s | MiB" for s in solvers) + " |"
    lines = [header, "|---|---|" + "---:|---:|---:|---:|" * len(solvers)]
    sums = {s.name: [0.0, 0.0] for s in solvers}
    for kind, problem, capacity in problems:
        name = os.path.basename(problem).removesuffix(".csv")
        cells = []
        for solver in solvers:
            record = records[(problem, solver.name)]
            if not solver.runs_on(kind):
                cells.append("not run | | |")
                continue
            if record.heap is None:
                cells.append("failed | | |")
                continue
            proof = ", opt" if all(record.proofs) else (
                f", opt {sum(record.proofs)}/{len(record.proofs)}" if any(record.proofs) else "")
            spread = (f" ({min(record.heaps)}-{max(record.heaps)})"
                      if min(record.heaps) != max(record.heaps) else "")
            cells.append(f"{record.heap}{spread}{proof} | {median(record.cpu):.3f} | "
                         f"{median(record.wall):.3f} | {max(record.rss) / 1024:.1f}")
            if kind == "challenging":
                sums[solver.name][0] += median(record.cpu)
                sums[solver.name][1] += median(record.wall)
        lines.append(f"| {kind} | {name} | " + " | ".join(cells) + " |")
        mine = records[(problem, new.name)]
        for base in solvers[1:]:
            if not base.runs_on(kind):
                continue
            theirs = records[(problem, base.name)]
            if mine.heap is None or theirs.heap is None:
                continue
            if mine.heap > theirs.heap:
                failures.append(f"{name}: heap {mine.heap} above {base.name}'s {theirs.heap}")
            if not mine.proven and theirs.proven:
                failures.append(f"{name}: {base.name} proves its heap, new does not")
            if cut_by_budget(mine) and cut_by_budget(theirs):
                continue
            slow = median(mine.cpu) > NOISE_FACTOR * median(theirs.cpu) + NOISE_S
            if slow and min(mine.cpu) > max(theirs.cpu):
                failures.append(f"{name}: {median(mine.cpu):.3f} s of CPU against "
                                f"{base.name}'s {median(theirs.cpu):.3f} s")
    summary = []
    if "challenging" in sets:
        for solver in solvers:
            cpu, wall = sums[solver.name]
            summary.append(f"- challenging sum, {solver.name}: {cpu:.3f} s CPU, {wall:.3f} s wall")
        first = solvers[1].name
        if sums[first][0] > 0:
            ratio = sums[new.name][0] / sums[first][0]
            wall_ratio = sums[new.name][1] / sums[first][1]
            summary.append(f"- new / {first}: {ratio:.3f} (CPU), {wall_ratio:.3f} (wall)")
            if args.target_ratio is not None and ratio > args.target_ratio:
                failures.append(f"challenging sum {ratio:.3f} x {first}'s, above"
                                f" {args.target_ratio}")
        if args.minimalloc and sums[solvers[-1].name][0] > 0:
            theirs = solvers[-1].name
            summary.append(f"- {theirs} / new: {sums[theirs][0] / sums[new.name][0]:.1f} x"
                           f" (CPU), {sums[theirs][1] / sums[new.name][1]:.1f} x (wall)")

    text = "\n".join([
        "## The solver against earlier commits (issue 49, `bench/solver-frontier.py`)",
        "",
        f"`bench/solver-frontier.py --base ...` on {os.cpu_count()} cores, "
        f"{time.strftime('%Y-%m-%d', time.gmtime())}, load average {load_before:.2f} "
        f"before and {load_after:.2f} after. Medians of {args.repeats} interleaved "
        "runs of each solver's command (`coreai-solve`, or `coreai-plan solve` before "
        "it existed, start-up included), default budget (10 s); the challenging set "
        f"within {CAPACITY}, the others minimised. CPU is user + system time of the "
        "process (wall time is up to the load times it on a shared machine); MiB is "
        "peak resident memory; *opt*: the heap is proven minimal (*opt 2/3*: in two "
        "runs of three); a range: the runs ended at different heaps (budget-bound "
        "runs on a loaded machine), the median shown. Every plan passed the "
        "script's own verifier." + (
            f" {solvers[-1].name} is MiniMalloc's own solver (`minimalloc "
            "--capacity=... --input=... --output=...`, its default flags), built "
            "at that commit of its repository with the abseil-cpp its submodule "
            "pins, Release; it runs on the challenging set only." if args.minimalloc else ""),
        "",
        *lines,
        "",
        *summary,
    ])
    print(text)
    if args.update:
        benchlib.replace_section(os.path.join(benchlib.ROOT, "docs", "benchmarks.md"),
                                 "solver-frontier", text)
    if failures:
        print("\nFAILED:", *failures, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

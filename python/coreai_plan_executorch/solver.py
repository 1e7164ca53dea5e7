"""coreai-solve, run as a subprocess: one arena's rows in (a MiniMalloc CSV on
stdin), its offsets, heap, bounds and proof out (`--json`, docs/CLI.md).

The binary links only coreai-plan's MLIR-free core, so a call costs about a
millisecond of start-up; a process per arena keeps this package free of a
native build.
"""
import json
import os
import shutil
import subprocess

from .placement import PlanningError, SolvedArena

SOLVER_ENV = "COREAI_SOLVE"
DEFAULT_TIME_LIMIT_MS = 2000


class SolverError(RuntimeError):
    """coreai-solve is missing, refused the problem or failed."""


def find_solver(path=None):
    """The coreai-solve to run: `path`, else $COREAI_SOLVE, else the one on
    PATH."""
    candidate = path or os.environ.get(SOLVER_ENV) or \
        shutil.which("coreai-solve")
    if not candidate:
        raise SolverError(
            "coreai-solve not found: pass solver=PATH, set $COREAI_SOLVE or "
            "put the build's bin/ on PATH (it is built with coreai-plan)")
    if not (os.path.isfile(candidate) and os.access(candidate, os.X_OK)):
        raise SolverError(f"coreai-solve at {candidate!r} is not an "
                          "executable file")
    return candidate


def problem_csv(rows):
    lines = ["id,lower,upper,size"]
    lines += [f"{index},{first},{end},{size}"
              for index, (first, end, size) in enumerate(rows)]
    return "\n".join(lines) + "\n"


class Solver:
    """Packs rows with coreai-solve's `algorithm` (`best`: the portfolio,
    then the exact anytime search) within `time_limit_ms` per arena; the
    search stops earlier once the heap is proven minimal."""

    def __init__(self, path=None, time_limit_ms=DEFAULT_TIME_LIMIT_MS,
                 algorithm="best"):
        if time_limit_ms < 0:
            raise ValueError(f"time_limit_ms must not be negative, got "
                             f"{time_limit_ms}")
        self.path = find_solver(path)
        self.time_limit_ms = int(time_limit_ms)
        self.algorithm = algorithm

    def __call__(self, rows, alignment):
        command = [self.path, "--input", "-", "--json",
                   "--alignment", str(alignment),
                   "--algorithm", self.algorithm,
                   "--time-limit-ms", str(self.time_limit_ms)]
        done = subprocess.run(command, input=problem_csv(rows),
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SolverError(
                f"{' '.join(command)} exited with {done.returncode}: "
                f"{done.stderr.strip() or done.stdout.strip()}")
        try:
            answer = json.loads(done.stdout)
            solved = SolvedArena(
                offsets=[int(offset) for offset in answer["offsets"]],
                heap=int(answer["heap"]),
                lower_bound=int(answer["lower_bound"]),
                proven_lower_bound=int(answer["proven_lower_bound"]),
                optimal=bool(answer["optimal"]),
                seconds=float(answer["seconds"]))
        except (ValueError, KeyError, TypeError) as error:
            raise SolverError(f"unreadable answer from {self.path}: {error}: "
                              f"{done.stdout[:200]!r}") from error
        if len(solved.offsets) != len(rows):
            raise PlanningError(f"coreai-solve answered {len(solved.offsets)}"
                                f" offsets for {len(rows)} rows")
        return solved

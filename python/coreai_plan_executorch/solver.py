"""coreai-solve, run as a subprocess: one arena's rows in (a MiniMalloc CSV on
stdin), its offsets, heap, bounds and proof out (`--json`, docs/CLI.md).

The binary links only coreai-plan's MLIR-free core, so a call costs about a
millisecond of start-up. `pip install` builds it into the package
(python/pyproject.toml: bin/coreai-solve beside these modules), so the
package needs nothing on PATH.
"""
import json
import os
import shutil
import subprocess

from .placement import PlanningError, SolvedArena

SOLVER_ENV = "COREAI_SOLVE"
SOLVER_NAME = "coreai-solve"
DEFAULT_TIME_LIMIT_MS = 2000


class SolverError(RuntimeError):
    """coreai-solve is missing, refused the problem or failed."""


def bundled_solver():
    """The coreai-solve that `pip install` built into this package, or None.
    Every directory of the package is looked in: an editable install keeps
    the sources in the checkout and the built binary in site-packages."""
    from . import __path__ as package_dirs
    for directory in package_dirs:
        candidate = os.path.join(directory, "bin", SOLVER_NAME)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def find_solver(path=None):
    """The coreai-solve to run: `path`, else $COREAI_SOLVE (a deliberate
    choice, such as a build under test), else the package's own, else the
    one on PATH."""
    candidate = path or os.environ.get(SOLVER_ENV) or bundled_solver() or \
        shutil.which(SOLVER_NAME)
    if not candidate:
        raise SolverError(
            "coreai-solve not found: this package was installed without its "
            "solver; reinstall it with `pip install` from the coreai-plan "
            "checkout (it builds coreai-solve), or pass solver=PATH, set "
            "$COREAI_SOLVE or put coreai-plan's bin/ on PATH")
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

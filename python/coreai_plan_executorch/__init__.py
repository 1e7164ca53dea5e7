"""coreai-plan's solvers as ExecuTorch's memory planner.

    from executorch.exir import ExecutorchBackendConfig
    from coreai_plan_executorch import memory_planning_pass

    program = edge.to_executorch(ExecutorchBackendConfig(
        memory_planning_pass=memory_planning_pass()))

`memory_planning_pass()` plans every method's arenas with coreai-plan's exact
anytime search (coreai-solve) beside ExecuTorch's greedy, keeps the smaller,
and checks the result against ExecuTorch's storage-reuse rules (a sweep,
storage_check). `memory_planning_pass(update_caches_in_place=True)` also
writes each functional KV-cache update into its buffer where that is
proven sound (cache_update). docs/EXECUTORCH.md has the details: what is
planned, the semantics kept, the figures.

The ExecuTorch parts are imported on first use, so `placement` and `solver`
work without ExecuTorch installed.
"""

__version__ = "0.1.0"

_EXECUTORCH_NAMES = ("ArenaRecord", "CoreAIPlanAlgorithm", "PlanRecord",
                     "VerifiedMemoryPlanningPass", "memory_planning_pass")

__all__ = list(_EXECUTORCH_NAMES) + ["PlanningError", "Solver",
                                     "SolverError"]

from .placement import PlanningError  # noqa: E402
from .solver import Solver, SolverError  # noqa: E402


def __getattr__(name):
    if name in _EXECUTORCH_NAMES:
        from . import algorithm
        return getattr(algorithm, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

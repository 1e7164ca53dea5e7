"""What the ExecuTorch tests share: a model lowered twice from one edge
program (ExecuTorch's greedy, coreai-plan), each plan checked by ExecuTorch's
Verifier, both programs run by ExecuTorch's runtime, outputs compared bit for
bit and both arenas printed.

Run by ctest with the virtual environment's python (test/executorch/
CMakeLists.txt): $COREAI_SOLVE names the coreai-solve of the build under test.
"""
import copy
import os
import sys
import time

import torch
from executorch.exir import EdgeCompileConfig, ExecutorchBackendConfig, to_edge
from executorch.exir.memory_planning import MemoryPlanningAlgorithmSuite
from executorch.exir.memory_planning import greedy
from executorch.runtime import Runtime

from coreai_plan_executorch import (CoreAIPlanAlgorithm,
                                    VerifiedMemoryPlanningPass)

# The tests run two at a time on two cores: one thread each, in PyTorch and
# in the runtime's kernels (whose threadpool would take every core).
torch.set_num_threads(1)
try:
    from executorch.extension.pybindings import portable_lib
    portable_lib._unsafe_reset_threadpool(1)
except (ImportError, AttributeError):
    pass


class TestFailure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise TestFailure(message)


def solver_path():
    path = os.environ.get("COREAI_SOLVE")
    check(path and os.path.isfile(path),
          f"$COREAI_SOLVE must name the build's coreai-solve, got {path!r}")
    return path


def coreai_algorithm(**options):
    return CoreAIPlanAlgorithm(solver=solver_path(), **options)


def greedy_pass(**pass_options):
    """ExecuTorch's default planner (a suite of its greedy alone), with the
    Verifier run on its plan as on coreai-plan's."""
    return VerifiedMemoryPlanningPass(
        memory_planning_algo=MemoryPlanningAlgorithmSuite([greedy]),
        **pass_options)


def coreai_pass(algorithm, **pass_options):
    """coreai-plan alone (not beside greedy): its own plan is what runs."""
    return VerifiedMemoryPlanningPass(
        memory_planning_algo=MemoryPlanningAlgorithmSuite([algorithm]),
        **pass_options)


def export_edge(programs, keep_linear=False):
    """`programs`: method name -> torch.export'ed program. No partitioner:
    every op runs on the runtime's own CPU kernels, no delegate. With
    `keep_linear`, aten.linear stays one op (the runtime has linear.out)
    instead of a transposed copy of the weight in the arena and a matmul,
    as ExecuTorch's LLM export arranges with its ConvertToLinearPass."""
    begin = time.perf_counter()
    preserved = [torch.ops.aten.linear.default] if keep_linear else []
    edge = to_edge(programs,
                   compile_config=EdgeCompileConfig(preserve_ops=preserved))
    print(f"to_edge: {time.perf_counter() - begin:.1f} s")
    return edge


def lower(edge, planning_pass, **config):
    """A copy of `edge` lowered to an ExecuTorch program with this planner
    (the edge program is reused for the other planner)."""
    return copy.deepcopy(edge).to_executorch(ExecutorchBackendConfig(
        memory_planning_pass=planning_pass, **config))


def arenas(program):
    """method -> its planned arenas' sizes (index 0, the constants'
    placeholder, dropped)."""
    return {plan.name: list(plan.non_const_buffer_sizes[1:])
            for plan in program.executorch_program.execution_plan}


def run(program, calls):
    """Loads `program` in ExecuTorch's runtime and makes `calls` in order:
    (method, inputs) pairs. Every method is loaded before the first call:
    the runtime gives all of a program's host methods one set of arenas,
    sized to the largest."""
    loaded = Runtime.get().load_program(program.buffer)
    methods = {name: loaded.load_method(name) for name, _ in calls}
    return [[out.clone() for out in methods[name].execute(inputs)]
            for name, inputs in calls]


def bits(tensor):
    return tensor.detach().contiguous().reshape(-1).view(torch.uint8)


def same_bits(outputs, others):
    """Whether two runs' outputs are identical bit for bit (NaN included)."""
    flat = [t for call in outputs for t in call]
    other = [t for call in others for t in call]
    return len(flat) == len(other) and all(
        a.dtype == b.dtype and a.shape == b.shape and
        torch.equal(bits(a), bits(b)) for a, b in zip(flat, other))


def largest_difference(outputs, reference):
    return max(float((a.double() - b.double()).abs().max())
               for call, ref in zip(outputs, reference)
               for a, b in zip(call, ref))


def print_arenas(label, greedy_program, coreai_program, algorithm):
    greedy_arenas = arenas(greedy_program)
    coreai_arenas = arenas(coreai_program)
    for method in greedy_arenas:
        print(f"{label} {method}: arena bytes by mem_id: ExecuTorch greedy "
              f"{greedy_arenas[method]}, coreai-plan {coreai_arenas[method]}")
    for record in algorithm.records:
        print(f"{label}   coreai-plan: {record.summary()} "
              f"({record.seconds * 1000:.0f} ms)")
    return greedy_arenas, coreai_arenas


def compare_planners(label, edge, calls, reference=None, tolerance=1e-4,
                     pass_options=None, config=None, algorithm=None):
    """Lowers `edge` with both planners, runs `calls` in each program and
    checks that the outputs agree bit for bit, that coreai-plan's arenas are
    no larger than greedy's and (with `reference`, eager PyTorch's outputs)
    that the program computes the model. `pass_options` go to both
    MemoryPlanningPasses, `config` to ExecutorchBackendConfig; `algorithm`
    is coreai-plan's (default: one running $COREAI_SOLVE). Returns
    (greedy program, coreai program, algorithm, outputs)."""
    pass_options = pass_options or {}
    config = config or {}
    algorithm = algorithm or coreai_algorithm()
    begin = time.perf_counter()
    greedy_program = lower(edge, greedy_pass(**pass_options), **config)
    coreai_program = lower(edge, coreai_pass(algorithm, **pass_options),
                           **config)
    print(f"{label}: lowered twice in {time.perf_counter() - begin:.1f} s")
    greedy_arenas, coreai_arenas = print_arenas(
        label, greedy_program, coreai_program, algorithm)
    for method, sizes in coreai_arenas.items():
        check(len(sizes) == len(greedy_arenas[method]) and
              all(c <= g for c, g in zip(sizes, greedy_arenas[method])),
              f"{label} {method}: coreai-plan's arenas {sizes} exceed "
              f"greedy's {greedy_arenas[method]}")
    greedy_outputs = run(greedy_program, calls)
    coreai_outputs = run(coreai_program, calls)
    count = sum(len(call) for call in coreai_outputs)
    size = sum(t.nbytes for call in coreai_outputs for t in call)
    check(same_bits(greedy_outputs, coreai_outputs),
          f"{label}: outputs differ between the greedy and coreai-plan "
          f"programs (max {largest_difference(coreai_outputs, greedy_outputs)})")
    print(f"{label}: {len(calls)} call(s), {count} outputs ({size} bytes) "
          "identical bit for bit under both plans")
    if reference is not None:
        difference = largest_difference(coreai_outputs, reference)
        check(difference <= tolerance,
              f"{label}: ExecuTorch's outputs are {difference} from eager "
              "PyTorch's")
        print(f"{label}: max |ExecuTorch - eager PyTorch| = {difference:.3g}")
    return greedy_program, coreai_program, algorithm, coreai_outputs


def main(test):
    """Runs `test()`, printing a failure as one line and exiting 1."""
    try:
        test()
    except TestFailure as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    print("PASSED")

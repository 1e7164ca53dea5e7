"""ExecuTorch's tensor specs as coreai-plan problems, and the solver's offsets
back as ExecuTorch placements.

No ExecuTorch import here: a spec is anything with ExecuTorch's TensorSpec
fields (`lifetime`, `allocated_memory`, `mem_id`, `storage_base`,
`storage_base_offset`, `realign`), so the rules can be tested on their own.

What ExecuTorch's planning contract says, and what this module does about it
(executorch/exir/memory_planning.py, the version pinned in
python/requirements-executorch.txt):

- Lifetimes are node indices, inclusive at both ends: `[3, 5]` and `[5, 9]`
  are live together at node 5. A problem's intervals are half-open, so a
  spec becomes `[first, last + 1)`.
- Sizes: every spec is realigned to the pass's alignment and takes
  `allocated_memory` bytes (its bytes rounded up to the alignment), as in
  ExecuTorch's greedy; offsets are multiples of the alignment.
- `mem_id` is the memory hierarchy: unset means 1 (the activations' arena);
  each mem_id is its own arena and its own problem. `bufsizes[i]` is arena
  i's size (index 0 is the constants' placeholder, left 0), with as many
  entries as the greedy returns, since MemoryPlanningAlgorithmSuite asserts
  that its algorithms agree on the count.
- A spec with a `storage_base` is not planned on its own: it lives at its
  base's offset plus `storage_base_offset` (an in-place result, a slice
  sharing its input's bytes); ExecuTorch has already stretched the base's
  lifetime over it.
- `input_mem_buffer_sizes` on the graph module (control flow: a submodule's
  arena is set aside first) moves an arena's allocations above those bytes.
- `mem_obj_id`: ExecuTorch's Verifier demands that any two specs whose bytes
  overlap share one; here an object is a maximal run of overlapping address
  ranges in one arena.
"""
from dataclasses import dataclass, field


class PlanningError(ValueError):
    """A spec this planner cannot place as ExecuTorch asks: the message
    names the spec."""


@dataclass(frozen=True)
class Placement:
    mem_id: int
    mem_obj_id: int
    mem_offset: int


@dataclass
class ArenaProblem:
    """The specs of one arena that the solver packs: `rows` hold
    (first, last + 1, bytes) per spec with bytes; `empty` the specs with no
    bytes (they go at the arena's base)."""
    mem_id: int
    base: int
    specs: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    empty: list = field(default_factory=list)


@dataclass
class SolvedArena:
    """What the solver answered for one arena (bytes above `base`)."""
    offsets: list
    heap: int
    lower_bound: int
    proven_lower_bound: int
    optimal: bool
    seconds: float


def align_up(value, alignment):
    return -(-value // alignment) * alignment


def describe(spec):
    shape = tuple(getattr(spec, "shape", ()))
    return (f"spec of shape {shape} {getattr(spec, 'dtype', '')} with "
            f"lifetime {spec.lifetime}, {spec.allocated_memory} bytes")


def check_alignment(alignment):
    if not isinstance(alignment, int) or alignment <= 0 or \
            alignment & (alignment - 1):
        raise PlanningError(
            f"alignment must be a positive power of two, got {alignment!r}")


def live_interval(spec):
    first, last = spec.lifetime
    if first is None or last is None:
        raise PlanningError(f"{describe(spec)}: no lifetime (ExecuTorch's "
                            "update_all_tensors_lifetime sets it)")
    if last < first:
        raise PlanningError(f"{describe(spec)}: lifetime ends before it "
                            "starts")
    return first, last + 1


def arena_problems(specs, alignment, input_sizes, standalone=frozenset()):
    """Realigns every spec and sorts those without a storage base into one
    ArenaProblem per mem_id; a spec whose id is in `standalone` is planned
    on its own even with a storage base. Returns (problems by mem_id, the
    specs with a storage base, in order)."""
    check_alignment(alignment)
    problems = {}
    backed = []
    seen = set()
    for spec in specs:
        if id(spec) in seen:   # a spec listed twice is still one tensor
            continue
        seen.add(id(spec))
        spec.realign(alignment)
        if spec.storage_base is not None and id(spec) not in standalone:
            backed.append(spec)
            continue
        mem_id = 1 if spec.mem_id is None else spec.mem_id
        if mem_id not in problems:
            base = input_sizes[mem_id] if mem_id < len(input_sizes) else 0
            problems[mem_id] = ArenaProblem(mem_id, align_up(base, alignment))
        problem = problems[mem_id]
        first, end = live_interval(spec)
        if spec.allocated_memory == 0:
            problem.empty.append(spec)
        else:
            problem.specs.append(spec)
            problem.rows.append((first, end, spec.allocated_memory))
    return problems, backed


def place_backed_specs(backed, placed):
    """Puts each storage-backed spec inside its base, bases first (a base
    may itself be backed). `placed` maps spec -> (mem_id, offset) and is
    extended."""
    remaining = list(backed)
    while remaining:
        waiting = []
        for spec in remaining:
            base = spec.storage_base
            if base not in placed:
                waiting.append(spec)
                continue
            mem_id, base_offset = placed[base]
            inner = spec.storage_base_offset
            if inner < 0 or inner + spec.allocated_memory > \
                    base.allocated_memory:
                raise PlanningError(
                    f"{describe(spec)} at byte {inner} of its storage base "
                    f"({base.allocated_memory} bytes) does not fit in it")
            if (base_offset + inner) % spec.alignment:
                raise PlanningError(
                    f"{describe(spec)} at byte {inner} of its storage base "
                    f"is not aligned to {spec.alignment}")
            placed[spec] = (mem_id, base_offset + inner)
        if len(waiting) == len(remaining):
            raise PlanningError(
                "storage bases that are not planned here or form a cycle: " +
                "; ".join(describe(s) for s in waiting))
        remaining = waiting


def memory_objects(placed):
    """mem_obj_id per spec: per arena, maximal runs of overlapping
    [offset, offset + bytes) ranges, numbered from 0 by address."""
    by_arena = {}
    for spec, (mem_id, offset) in placed.items():
        by_arena.setdefault(mem_id, []).append((offset, spec))
    ids = {}
    for ranges in by_arena.values():
        ranges.sort(key=lambda item: (item[0], -item[1].allocated_memory))
        current, end = -1, -1
        for offset, spec in ranges:
            if current < 0 or offset >= end:
                current += 1
                end = offset
            end = max(end, offset + spec.allocated_memory)
            ids[spec] = current
    return ids


def buffer_sizes(problems, solved, extra_padding):
    """ExecuTorch's bufsizes: [0, 0] without specs, else one entry per
    mem_id up to the largest, each arena's base + heap + extra_padding."""
    if not problems:
        return [0, 0]
    sizes = [0] * (max(problems) + 1)
    for mem_id, problem in problems.items():
        sizes[mem_id] = problem.base + solved[mem_id].heap + extra_padding
    return sizes


def place_specs(specs, alignment, solve, input_sizes=(), extra_padding=0,
                standalone=frozenset()):
    """Plans `specs` as ExecuTorch's memory planning algorithms do
    (`standalone`: ids of specs planned on their own despite a storage
    base, to size the arena as it would be without those pairings).

    `solve(rows, alignment)` packs one arena's rows and returns a
    SolvedArena. Returns (placements: spec -> Placement, bufsizes,
    solved: mem_id -> SolvedArena, the bytes set aside below each arena's
    allocations: mem_id -> bytes)."""
    problems, backed = arena_problems(specs, alignment, list(input_sizes),
                                      standalone)
    solved = {}
    placed = {}
    for mem_id in sorted(problems):
        problem = problems[mem_id]
        answer = solve(problem.rows, alignment) if problem.rows else \
            SolvedArena([], 0, 0, 0, True, 0.0)
        if len(answer.offsets) != len(problem.rows):
            raise PlanningError(
                f"the solver placed {len(answer.offsets)} of "
                f"{len(problem.rows)} specs of arena {mem_id}")
        solved[mem_id] = answer
        for spec, offset in zip(problem.specs, answer.offsets):
            placed[spec] = (mem_id, problem.base + offset)
        for spec in problem.empty:
            placed[spec] = (mem_id, problem.base)
    place_backed_specs(backed, placed)
    objects = memory_objects(placed)
    placements = {spec: Placement(mem_id, objects[spec], offset)
                  for spec, (mem_id, offset) in placed.items()}
    bases = {mem_id: problem.base for mem_id, problem in problems.items()}
    return (placements, buffer_sizes(problems, solved, extra_padding), solved,
            bases)

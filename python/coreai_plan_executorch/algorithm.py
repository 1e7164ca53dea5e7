"""coreai-plan as an ExecuTorch memory planning algorithm.

ExecuTorch's MemoryPlanningPass calls its `memory_planning_algo` once per
graph (each method, each control-flow submodule) with the specs to place;
inside MemoryPlanningAlgorithmSuite every algorithm returns a
MemoryAlgoResult and the suite keeps the one with the fewest bytes, so
CoreAIPlanAlgorithm runs alone (a suite of one) or beside ExecuTorch's
greedy.
"""
import time
from dataclasses import dataclass, field

from executorch.exir.error import InternalError
from executorch.exir.memory_planning import (
    MemoryAlgoResult,
    MemoryPlanningAlgorithmSuite,
    SpecAllocResult,
    Verifier,
    collect_specs_from_nodes,
    greedy,
)
from executorch.exir.passes.memory_planning_pass import MemoryPlanningPass

from .cache_update import pair_cache_updates
from .placement import place_specs
from .solver import DEFAULT_TIME_LIMIT_MS, Solver
from .storage_check import StorageReuseError, check_storage_reuse


# The graph module's attribute with the paired cache updates: (how many,
# the ids of the specs given their buffers' storage), for the algorithm to
# size the arenas without the pairings.
PAIRED_SPECS = "_coreai_plan_paired_cache_updates"


@dataclass
class ArenaRecord:
    """One arena of one graph as coreai-plan planned it: `arena_bytes` is
    what the program records (set_aside + heap + padding; set_aside holds
    control-flow submodules' arenas), `heap` what the solver packed above
    that, `lower_bound` the most bytes live at once and `proven_lower_bound`
    what the search proved no packing can beat."""
    mem_id: int
    specs: int
    arena_bytes: int
    set_aside: int
    heap: int
    lower_bound: int
    proven_lower_bound: int
    optimal: bool
    solver_seconds: float

    @property
    def gap(self):
        """How far the heap may be above the optimum (0: proven optimal)."""
        if self.optimal or self.heap == 0:
            return 0.0
        return self.heap / max(self.proven_lower_bound, 1) - 1


@dataclass
class PlanRecord:
    """One call: a graph's arenas and the wall time of the whole call.
    With cache updates paired to their buffers (`update_caches_in_place`),
    `bufsizes_without_pairing` is what coreai-plan's arenas would be with
    each update in storage of its own, planned in the same call."""
    bufsizes: list
    arenas: list = field(default_factory=list)
    seconds: float = 0.0
    paired_updates: int = 0
    bufsizes_without_pairing: list = None

    def summary(self):
        parts = []
        if self.bufsizes_without_pairing is not None:
            saved = sum(self.bufsizes_without_pairing) - sum(self.bufsizes)
            parts.append(f"{self.paired_updates} cache updates written into "
                         f"their buffers: arenas {self.bufsizes[1:]} "
                         f"instead of {self.bufsizes_without_pairing[1:]} "
                         f"({saved} bytes saved)")
        for arena in self.arenas:
            proof = "proven optimal" if arena.optimal else \
                f"gap <= {arena.gap:.2%}"
            aside = f" ({arena.set_aside} set aside for control flow)" \
                if arena.set_aside else ""
            parts.append(f"arena {arena.mem_id}: {arena.arena_bytes} bytes"
                         f"{aside}, {arena.specs} specs, heap "
                         f"{arena.heap}, lower bound {arena.lower_bound}, "
                         f"{proof}")
        return "; ".join(parts) or "no planned specs"


class CoreAIPlanAlgorithm:
    """An ExecuTorch memory planning algorithm backed by coreai-solve.

    solver: the coreai-solve binary (default $COREAI_SOLVE, else PATH);
    time_limit_ms: the search's cap per arena (it stops once the heap is
    proven minimal); algorithm: coreai-solve's `--algorithm`.
    Every call appends a PlanRecord to `records`."""

    def __init__(self, solver=None, time_limit_ms=DEFAULT_TIME_LIMIT_MS,
                 algorithm="best", name="coreai_plan"):
        self.solver = Solver(solver, time_limit_ms, algorithm)
        # MemoryPlanningAlgorithmSuite names its algorithms by __name__.
        self.__name__ = name
        self.records = []

    def __call__(self, alignment, specs, graph_module, graph_signature=None,
                 extra_padding=0):
        begin = time.perf_counter()
        input_sizes = getattr(graph_module, "input_mem_buffer_sizes",
                              None) or []
        placements, bufsizes, solved, bases = place_specs(
            specs, alignment, self.solver, input_sizes, extra_padding)
        result = MemoryAlgoResult({}, bufsizes)
        for spec, placement in placements.items():
            result.spec_dict[spec] = SpecAllocResult(
                placement.mem_id, placement.mem_obj_id, placement.mem_offset)
        record = PlanRecord(list(bufsizes))
        updates, paired = getattr(graph_module, PAIRED_SPECS, (0, None))
        if paired:
            record.paired_updates = updates
            record.bufsizes_without_pairing = list(place_specs(
                specs, alignment, self.solver, input_sizes, extra_padding,
                standalone=paired)[1])
        for mem_id, answer in sorted(solved.items()):
            planned = sum(1 for p in placements.values()
                          if p.mem_id == mem_id)
            record.arenas.append(ArenaRecord(
                mem_id, planned, bufsizes[mem_id], bases[mem_id],
                answer.heap, answer.lower_bound, answer.proven_lower_bound,
                answer.optimal, answer.seconds))
        record.seconds = time.perf_counter() - begin
        self.records.append(record)
        return result


class VerifiedMemoryPlanningPass(MemoryPlanningPass):
    """ExecuTorch's MemoryPlanningPass, with every plan checked against
    ExecuTorch's storage-reuse rules: the pass checks storage reuse only
    when its algorithm is named `greedy`, and a plan that breaks them must
    never reach a program.

    `verifier="sweep"` (default) checks the rules of ExecuTorch's
    `Verifier.verify_storage_reuse` with `storage_check` in
    O(n log n + n * live); `"executorch"` runs ExecuTorch's Verifier itself,
    which compares every pair of specs (on a decoder of a few thousand specs
    it took half of `to_executorch`'s time, docs/EXECUTORCH.md). Either
    way a broken plan stops the lowering with ExecuTorch's InternalError.

    `update_caches_in_place=True` gives each functional cache update the
    storage of the mutable buffer it is copied back into, where
    `cache_update.pair_cache_updates` proves that nothing reads the old
    contents after the update; `cache_pairings` and `cache_refusals` list
    what was paired and what was not, and why. It needs the mutable buffers
    planned with the activations (not `share_mutable_buffers`, which places
    them after planning)."""

    def __init__(self, *args, verifier="sweep", update_caches_in_place=False,
                 **kwargs):
        if verifier not in ("sweep", "executorch"):
            raise ValueError(f"verifier must be 'sweep' or 'executorch', "
                             f"got {verifier!r}")
        super().__init__(*args, **kwargs)
        if update_caches_in_place and (self.share_mutable_buffers or
                                       not self.alloc_mutable_buffers):
            raise ValueError(
                "update_caches_in_place needs the mutable buffers planned "
                "with the activations (alloc_mutable_buffers=True, "
                "share_mutable_buffers=False): an update takes its "
                "buffer's storage")
        self.verifier = verifier
        self.update_caches_in_place = update_caches_in_place
        self.cache_pairings = []
        self.cache_refusals = []

    def run(self, graph_module, graph_signature=None):
        if self.update_caches_in_place:
            pairings, refusals = pair_cache_updates(graph_module,
                                                    graph_signature)
            self.cache_pairings += pairings
            self.cache_refusals += refusals
            setattr(graph_module, PAIRED_SPECS, (len(pairings), {
                id(spec) for pairing in pairings for spec in pairing.specs}))
        result = super().run(graph_module, graph_signature)
        # As the pass's own Verifier: mutable buffers shared between methods
        # are placed after planning, outside the rules.
        alloc_mutable = self.alloc_mutable_buffers and \
            not self.share_mutable_buffers
        if self.verifier == "executorch":
            Verifier(graph_module, self.alloc_graph_input,
                     self.alloc_graph_output, alloc_mutable, graph_signature
                     ).verify_storage_reuse(
                         self.allow_lifetime_and_storage_overlap)
            return result
        specs = collect_specs_from_nodes(
            graph_module.graph.nodes, graph_signature, ignore_const=True,
            ignore_graph_input=not self.alloc_graph_input,
            ignore_graph_output=not self.alloc_graph_output,
            ignore_mutable_buffers=not alloc_mutable, do_assertion=False,
            ignore_out_var_node=False, dedup=True)
        try:
            check_storage_reuse(list(specs),
                                self.allow_lifetime_and_storage_overlap)
        except StorageReuseError as error:
            raise InternalError(f"coreai-plan's check of ExecuTorch's "
                                f"storage-reuse rules: {error}") from error
        return result


def memory_planning_pass(algorithm=None, alongside_greedy=True,
                         **pass_options):
    """A MemoryPlanningPass for ExecutorchBackendConfig(memory_planning_pass=)
    that plans with coreai-plan (`algorithm`, default a new
    CoreAIPlanAlgorithm), beside ExecuTorch's greedy unless
    `alongside_greedy` is False (then coreai-plan's plan is taken as it is).
    `pass_options` go to MemoryPlanningPass (alloc_graph_input,
    share_mutable_buffers, alignment, ...)."""
    algorithm = algorithm or CoreAIPlanAlgorithm()
    algorithms = [greedy, algorithm] if alongside_greedy else [algorithm]
    return VerifiedMemoryPlanningPass(
        memory_planning_algo=MemoryPlanningAlgorithmSuite(algorithms),
        **pass_options)

"""ExecuTorch's planning contract, each part on a real program run by its
runtime, under ExecuTorch's greedy and under coreai-plan:

- in-place bases: adds whose operand dies there are told to write into it
  (`_share_alloc_with_arg_idx`, as backends' passes do), so their result is
  a spec with a `storage_base` that must sit on its base's bytes;
- alignment: a pass with 64-byte alignment gives offsets on 64 bytes;
- the mem_id hierarchy: every second tensor pre-assigned to arena 2;
- control flow: a `torch.cond` whose branches are planned first and set
  aside below the outer graph (`input_mem_buffer_sizes`);
- beside greedy in MemoryPlanningAlgorithmSuite: the smaller plan is kept.

Each variant's outputs must agree bit for bit between the two planners and
with eager PyTorch within 1e-4, and ExecuTorch's Verifier must accept both.
"""
import torch
from executorch.exir.memory_planning import (MemoryPlanningAlgorithmSuite,
                                             get_node_tensor_specs, greedy)
from torch.export import export

from coreai_plan_executorch import memory_planning_pass
import harness

WIDTH = 48


class Residual(torch.nn.Module):
    """Four residual blocks: adds whose second operand dies at the add."""

    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList(
            torch.nn.Linear(WIDTH, WIDTH) for _ in range(4))

    def forward(self, x):
        for layer in self.layers:
            x = x + torch.relu(layer(x)) * 0.5
        return torch.softmax(x, -1)


class Branches(torch.nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0,
                          lambda v: torch.cos(torch.sin(v) * 2 + v),
                          lambda v: torch.sin(torch.cos(v) + 1) * v, (x,))


class InPlaceAdds:
    """A planning pass wrapper: before planning, every aten.add.out whose
    operand (same shape and dtype as the sum) has no other reader is marked
    to write its result into that operand."""

    def __init__(self, planning_pass):
        self.planning_pass = planning_pass
        self.marked = 0

    def run(self, graph_module, graph_signature=None):
        for node in graph_module.graph.nodes:
            if node.op != "call_function" or \
                    node.target != torch.ops.aten.add.out:
                continue
            for index, operand in enumerate(node.args[:2]):
                if isinstance(operand, torch.fx.Node) and \
                        operand.op == "call_function" and \
                        len(operand.users) == 1 and \
                        operand.meta["val"].shape == node.meta["val"].shape \
                        and operand.meta["val"].dtype == \
                        node.meta["val"].dtype:
                    node.meta["_share_alloc_with_arg_idx"] = index
                    self.marked += 1
                    break
        return self.planning_pass.run(graph_module, graph_signature)


class AlternateArenaTwo:
    """Pre-assigns every second spec (in the order given) to mem_id 2, as a
    custom memory pool pass does, then runs `algorithm`."""

    def __init__(self, algorithm):
        self.algorithm = algorithm
        self.__name__ = getattr(algorithm, "__name__", "pools")

    def __call__(self, alignment, specs, *rest):
        for index, spec in enumerate(specs):
            if spec.storage_base is None and index % 2:
                spec.mem_id = 2
        return self.algorithm(alignment, specs, *rest)


def planned_specs(program):
    for method in program.methods:
        graph = program.exported_program(method).graph_module.graph
        for node in graph.nodes:
            for spec in get_node_tensor_specs(node):
                if spec.mem_offset is not None and not spec.const:
                    yield spec


def in_place_bases(edge, calls, reference):
    programs = []
    for planning_pass in (harness.greedy_pass(),
                          harness.coreai_pass(harness.coreai_algorithm())):
        marking = InPlaceAdds(planning_pass)
        programs.append(harness.lower(edge, marking))
        harness.check(marking.marked >= 4, f"only {marking.marked} adds "
                      "marked in place")
    backed = [spec for spec in planned_specs(programs[1])
              if spec.storage_base is not None]
    harness.check(backed, "no spec with a storage_base was planned")
    for spec in backed:
        harness.check(spec.mem_offset == spec.storage_base.mem_offset +
                      spec.storage_base_offset and
                      spec.mem_id == spec.storage_base.mem_id,
                      f"{spec} is not on its base's bytes")
    check_runs("in-place bases", programs, calls, reference)
    print(f"in-place bases: {len(backed)} results written into their dying "
          f"operand; arenas greedy {harness.arenas(programs[0])}, "
          f"coreai-plan {harness.arenas(programs[1])}")


def check_runs(label, programs, calls, reference):
    outputs = [harness.run(program, calls) for program in programs]
    harness.check(harness.same_bits(outputs[0], outputs[1]),
                  f"{label}: the two plans' outputs differ")
    difference = harness.largest_difference(outputs[1], reference)
    harness.check(difference <= 1e-4, f"{label}: {difference} from eager")


def alignment_64(edge, calls, reference):
    _, coreai_program, _, _ = harness.compare_planners(
        "alignment 64", edge, calls, reference,
        pass_options={"alignment": 64})
    offsets = [spec.mem_offset for spec in planned_specs(coreai_program)]
    harness.check(offsets and all(offset % 64 == 0 for offset in offsets),
                  "an offset off 64 bytes")
    print(f"alignment 64: all {len(offsets)} offsets on 64 bytes")


def arena_two(edge, calls, reference):
    programs = []
    for algorithm in (greedy, harness.coreai_algorithm()):
        pools = AlternateArenaTwo(MemoryPlanningAlgorithmSuite([algorithm]))
        programs.append(harness.lower(
            edge, harness.VerifiedMemoryPlanningPass(
                memory_planning_algo=pools)))
    sizes = [harness.arenas(program)["forward"] for program in programs]
    harness.check(all(len(s) == 2 and min(s) > 0 for s in sizes),
                  f"the two arenas are not both used: {sizes}")
    check_runs("mem_id 2", programs, calls, reference)
    print(f"mem_id 1 and 2 (every second spec in arena 2): arenas greedy "
          f"{sizes[0]}, coreai-plan {sizes[1]}")


def beside_greedy(edge, calls, reference):
    alone = harness.lower(edge, harness.greedy_pass())
    suite = harness.lower(edge, memory_planning_pass(
        harness.coreai_algorithm()))
    coreai = harness.lower(edge, harness.coreai_pass(
        harness.coreai_algorithm()))
    sizes = [harness.arenas(p)["forward"][0] for p in (alone, coreai, suite)]
    harness.check(sizes[2] == min(sizes[:2]),
                  f"the suite kept {sizes[2]} of greedy {sizes[0]} and "
                  f"coreai-plan {sizes[1]}")
    check_runs("suite", [alone, suite], calls, reference)
    print(f"beside greedy: greedy {sizes[0]}, coreai-plan {sizes[1]}, the "
          f"suite keeps {sizes[2]}")


def control_flow():
    model = Branches()
    sample = torch.randn(4, WIDTH)
    edge = harness.export_edge({"forward": export(model, (sample,))})
    calls = [("forward", [sample.abs()]), ("forward", [-sample.abs()])]
    reference = [[model(args[0])] for _, args in calls]
    harness.compare_planners("torch.cond", edge, calls, reference)


def test():
    torch.manual_seed(0)
    model = Residual().eval()
    model.requires_grad_(False)
    sample = torch.randn(4, WIDTH)
    edge = harness.export_edge({"forward": export(model, (sample,))},
                               keep_linear=True)
    calls = [("forward", [sample])]
    reference = [[model(sample)]]
    in_place_bases(edge, calls, reference)
    alignment_64(edge, calls, reference)
    arena_two(edge, calls, reference)
    beside_greedy(edge, calls, reference)
    control_flow()


if __name__ == "__main__":
    harness.main(test)

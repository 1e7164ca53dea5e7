"""The negative control: the comparison of outputs must be able to fail.

coreai-plan's plan of the tiny Llama is taken and one tensor is moved onto
the bytes of another that is still live (written after it, read after that):
the package's check of ExecuTorch's rules and ExecuTorch's own Verifier
must both reject that plan, and the program built from it
anyway (through a pass that does not verify) must give different logits in
ExecuTorch's runtime, while the unchanged plan gives greedy's logits bit for
bit.
"""
import torch
from executorch.exir.error import InternalError
from executorch.exir.memory_planning import MemoryPlanningAlgorithmSuite
from executorch.exir.passes.memory_planning_pass import MemoryPlanningPass
from torch.export import export

import decoders
import harness


def pick_overlap(specs):
    """The planted pair: the largest victim V and an intruder I (at most V's
    bytes, at least 64) that is written while V is live and before V's last
    read, so that placing I on V's bytes overwrites data V's readers still
    need. Ties go to the earliest spec, for a repeatable choice."""
    candidates = []
    for victim in specs:
        first, last = victim.lifetime
        for intruder in specs:
            start = intruder.lifetime[0]
            if intruder is victim or not 64 <= intruder.allocated_memory \
                    <= victim.allocated_memory:
                continue
            if first + 2 <= start <= last - 3:
                candidates.append((-victim.allocated_memory,
                                   -intruder.allocated_memory, first, start,
                                   victim, intruder))
    harness.check(candidates, "no pair of live tensors to overlap")
    candidates.sort(key=lambda item: item[:4])
    return candidates[0][4], candidates[0][5]


class PlantedOverlap:
    """coreai-plan's plan with one intruder moved onto a live victim."""
    __name__ = "planted_overlap"

    def __init__(self, algorithm):
        self.algorithm = algorithm
        self.planted = None

    def __call__(self, alignment, specs, graph_module, graph_signature,
                 extra_padding=0):
        result = self.algorithm(alignment, specs, graph_module,
                                graph_signature, extra_padding)
        planned = [spec for spec in specs if spec.storage_base is None and
                   result.spec_dict[spec].mem_id == 1]
        victim, intruder = pick_overlap(planned)
        placed = result.spec_dict
        placed[intruder].mem_offset = placed[victim].mem_offset
        placed[intruder].mem_obj_id = placed[victim].mem_obj_id
        self.planted = (victim, intruder)
        return result


def planted_pass(verifier=None):
    suite = MemoryPlanningAlgorithmSuite(
        [PlantedOverlap(harness.coreai_algorithm())])
    if verifier:
        return harness.VerifiedMemoryPlanningPass(memory_planning_algo=suite,
                                                  verifier=verifier)
    return MemoryPlanningPass(memory_planning_algo=suite)


def test():
    torch.manual_seed(0)
    model = decoders.Logits(decoders.llama().eval())
    model.requires_grad_(False)
    tokens = torch.randint(0, decoders.VOCAB, (1, decoders.TOKENS))
    edge = harness.export_edge({"forward": export(model, (tokens,))},
                               keep_linear=True)
    calls = [("forward", [tokens])]
    # The positive control: the plan as coreai-plan made it.
    greedy_program, _, _, coreai_outputs = harness.compare_planners(
        "llama", edge, calls)
    greedy_outputs = harness.run(greedy_program, calls)

    for verifier in ("sweep", "executorch"):
        try:
            harness.lower(edge, planted_pass(verifier))
        except InternalError as rejection:
            print(f"verifier={verifier} rejects the planted plan: "
                  f"{str(rejection)[:160]}")
        else:
            raise harness.TestFailure(
                f"verifier={verifier} accepted a plan with two live tensors "
                "on the same bytes")

    planted = planted_pass()
    program = harness.lower(edge, planted)
    victim, intruder = planted.memory_planning_algo.algo_list[0].planted
    print(f"planted: {intruder.allocated_memory} bytes live {intruder.lifetime}"
          f" onto {victim.allocated_memory} bytes live {victim.lifetime} at "
          f"offset {victim.mem_offset}")
    overlapped = harness.run(program, calls)
    harness.check(not harness.same_bits(overlapped, greedy_outputs),
                  "the overlapping plan gave greedy's outputs: the "
                  "comparison cannot see a broken plan")
    harness.check(harness.same_bits(coreai_outputs, greedy_outputs),
                  "coreai-plan's own plan changed the outputs")
    print(f"overlapping plan: logits differ from greedy's by up to "
          f"{harness.largest_difference(overlapped, greedy_outputs):.3g}; "
          "coreai-plan's own plan: identical")


if __name__ == "__main__":
    harness.main(test)

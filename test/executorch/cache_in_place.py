"""The KV cache's second copy (issue 48): `update_caches_in_place` writes
each functional cache update into its buffer, and only where that is sound.

1. The tiny Llama with transformers' static KV cache, one method at S = 1
   called four times (the cache carried in the arena from call to call),
   lowered by coreai-plan without and with the pairing: every update of
   both layers is paired, nothing refused, the arena shrinks, the
   record's arena without the pairing equals the unpaired program's, and the runtime's outputs are
   bit-identical to the unpaired program's and within 1e-4 of eager
   PyTorch.
2. A module that reads its buffer's old contents after the update: the
   pairing is refused, naming the reader; forced anyway (the mark set on
   every update), the runtime's output differs from eager PyTorch's, so the
   refusal is what keeps it right.
"""
import torch
from executorch.exir.memory_planning import MemoryPlanningAlgorithmSuite
from torch.export import export

import decoders
import harness
import two_methods
from coreai_plan_executorch import VerifiedMemoryPlanningPass
from coreai_plan_executorch.cache_update import UPDATE_OPS, _is_op

STEPS = 4


def planning(algorithm, paired, force=False):
    return (ForcedPairing if force else VerifiedMemoryPlanningPass)(
        memory_planning_algo=MemoryPlanningAlgorithmSuite([algorithm]),
        update_caches_in_place=paired)


class ForcedPairing(VerifiedMemoryPlanningPass):
    """Marks every cache update, proven or not (the negative control)."""

    def run(self, graph_module, graph_signature=None):
        for node in graph_module.graph.nodes:
            if _is_op(node, UPDATE_OPS):
                node.meta["_share_alloc_with_arg_idx"] = 0
        return super().run(graph_module, graph_signature)


def decoder_in_place():
    torch.manual_seed(0)
    model = two_methods.cached_decoder()
    tokens = torch.randint(0, decoders.VOCAB, (1, STEPS))
    calls = [[tokens[:, step:step + 1], torch.tensor([step])]
             for step in range(STEPS)]
    exported = export(two_methods.with_cache(model), (), {
        "input_ids": calls[0][0], "cache_position": calls[0][1]},
        strict=True)
    edge = harness.export_edge({"decode": exported}, keep_linear=True)
    eager = two_methods.with_cache(model)
    reference = [[eager(input_ids=ids, cache_position=position)]
                 for ids, position in calls]
    outputs, sizes = {}, {}
    for paired in (False, True):
        algorithm = harness.coreai_algorithm()
        planning_pass = planning(algorithm, paired)
        program = harness.lower(edge, planning_pass)
        sizes[paired] = harness.arenas(program)["decode"][0]
        outputs[paired] = harness.run(program, [("decode", c)
                                                for c in calls])
        if paired:
            pairings = planning_pass.cache_pairings
            harness.check(len(pairings) == 4 and
                          not planning_pass.cache_refusals,
                          f"expected the 4 updates of 2 layers paired, got "
                          f"{pairings}, refused {planning_pass.cache_refusals}")
            record = algorithm.records[-1]
            print(f"paired: {record.summary()}")
            harness.check(record.bufsizes_without_pairing[1] == sizes[False],
                          f"the record's arena without the pairing "
                          f"{record.bufsizes_without_pairing} is not the "
                          f"unpaired program's {sizes[False]}")
            updates = sum(p.bytes for p in pairings)
    print(f"arena: {sizes[False]} bytes unpaired, {sizes[True]} paired "
          f"({updates} bytes of cache updates)")
    harness.check(sizes[True] < sizes[False],
                  "the pairing saved nothing")
    harness.check(harness.same_bits(outputs[False], outputs[True]),
                  "paired and unpaired programs differ: max "
                  f"{harness.largest_difference(outputs[True], outputs[False])}")
    difference = harness.largest_difference(outputs[True], reference)
    harness.check(difference <= 1e-4, f"{difference} from eager PyTorch")
    print(f"{STEPS} calls bit-identical paired and unpaired; max |ExecuTorch "
          f"- eager| = {difference:.3g}")


class ReadsOldCache(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("cache", torch.zeros(8, 4))

    def forward(self, x, position):
        updated = torch.index_put(self.cache, (position,), x)
        old = self.cache * 2            # the old contents, after the update
        self.cache.copy_(updated)
        return updated.sum(0) + old.sum(0)


def refused_reader():
    module = ReadsOldCache()
    x, position = torch.ones(1, 4), torch.tensor([3])
    edge = harness.export_edge({"forward": export(module, (x, position),
                                                  strict=True)})
    reference = [[ReadsOldCache()(x, position)]]
    planning_pass = planning(harness.coreai_algorithm(), True)
    program = harness.lower(edge, planning_pass)
    refusals = planning_pass.cache_refusals
    harness.check(not planning_pass.cache_pairings and len(refusals) == 1 and
                  "old contents" in refusals[0].reason,
                  f"expected one refusal for the late reader, got "
                  f"{planning_pass.cache_pairings}, {refusals}")
    print(f"refused: {refusals[0].update}: {refusals[0].reason}")
    kept = harness.run(program, [("forward", [x, position])])
    harness.check(harness.largest_difference(kept, reference) == 0,
                  "the unpaired program is wrong")
    forced = harness.lower(edge, planning(harness.coreai_algorithm(), False,
                                          force=True))
    wrong = harness.run(forced, [("forward", [x, position])])
    difference = harness.largest_difference(wrong, reference)
    harness.check(difference > 0, "the forced pairing changed nothing: the "
                  "refusal is not shown to matter")
    print(f"forced anyway: output {difference} from eager PyTorch's")


def test():
    decoder_in_place()
    refused_reader()


if __name__ == "__main__":
    harness.main(test)

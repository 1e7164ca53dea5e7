"""Two methods of one program run with one shared arena: a tiny Llama with a
static KV cache (transformers' TorchExportableModuleWithStaticCache), exported
as `prefill` (8 tokens) and `decode` (1 token) into one `.pte`.

ExecuTorch's runtime gives all host methods of a program one set of arenas,
sized to the largest method's; with share_mutable_buffers the KV cache is
planned once, in arena 2, at the same offset in both methods. The test runs
prefill and then four decode steps through that one arena, under
ExecuTorch's greedy plan and coreai-plan's: every step's logits must agree
bit for bit between the two, and with eager PyTorch within 1e-4.
"""
import torch
from torch.export import export
from transformers.integrations.executorch import \
    TorchExportableModuleWithStaticCache

import decoders
import harness

PROMPT = 8
STEPS = 4
CACHE = 16


def cached_decoder():
    model = decoders.llama().eval()
    model.requires_grad_(False)
    model.generation_config.use_cache = True
    model.generation_config.cache_implementation = "static"
    return model


def with_cache(model):
    return TorchExportableModuleWithStaticCache(model, batch_size=1,
                                                max_cache_len=CACHE)


def calls_from(outputs_of_prefill, tokens):
    """The method calls: prefill, then greedy-sampled decode steps. The
    tokens decode sees come from eager PyTorch's run, so both programs get
    the same inputs whatever they compute."""
    calls = [("prefill", [tokens, torch.arange(PROMPT)])]
    for step, token in enumerate(outputs_of_prefill):
        calls.append(("decode", [token, torch.tensor([PROMPT + step])]))
    return calls


def eager_run(model, tokens):
    cached = with_cache(model)
    logits = [cached(input_ids=tokens, cache_position=torch.arange(PROMPT))]
    fed = []
    for step in range(STEPS):
        token = logits[-1][:, -1:].argmax(-1)
        fed.append(token)
        logits.append(cached(input_ids=token,
                             cache_position=torch.tensor([PROMPT + step])))
    return logits, fed


def test():
    torch.manual_seed(0)
    model = cached_decoder()
    tokens = torch.randint(0, decoders.VOCAB, (1, PROMPT))
    exporting = with_cache(model)
    # Strict (TorchDynamo) tracing: the non-strict default of torch 2.14
    # fails to_edge's decompositions on this module's cache updates.
    programs = {
        "prefill": export(exporting, (), {
            "input_ids": tokens, "cache_position": torch.arange(PROMPT)},
            strict=True),
        "decode": export(exporting, (), {
            "input_ids": tokens[:, :1],
            "cache_position": torch.tensor([PROMPT])}, strict=True),
    }
    edge = harness.export_edge(programs, keep_linear=True)
    reference, fed = eager_run(model, tokens)
    greedy_program, coreai_program, _, _ = harness.compare_planners(
        "prefill+decode", edge, calls_from(fed, tokens),
        reference=[[logits] for logits in reference],
        pass_options={"share_mutable_buffers": True},
        config={"emit_mutable_buffer_names": True})
    for program, name in ((greedy_program, "greedy"),
                          (coreai_program, "coreai-plan")):
        sizes = harness.arenas(program)
        harness.check(len(sizes["prefill"]) == 2 and
                      sizes["prefill"][1] == sizes["decode"][1],
                      f"{name}: the KV cache is not one shared arena 2: "
                      f"{sizes}")
        shared = [max(s) for s in zip(*sizes.values())]
        print(f"{name}: one shared set of arenas for both methods: "
              f"{shared} bytes (activations, KV cache)")


if __name__ == "__main__":
    harness.main(test)

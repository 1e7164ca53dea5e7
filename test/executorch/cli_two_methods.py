"""`coreai-plan` on a two-method program with a KV cache (issue 48): a tiny
Mistral (transformers, random weights) with a static cache, exported as
`prefill` (8 tokens) and `decode` (1 token) by ExecuTorch's default
pipeline, once with its mutable buffers' names and once without.

- ExecuTorch's default export keeps each method's cache at its own
  offsets: `inspect` and `plan` warn, naming --share-mutable-buffers.
- Without names, `plan --share-mutable-buffers` pairs nothing and says why.
- With names it pairs every cache: prefill and then four decode steps
  through one arena compute, bit for bit, what ExecuTorch's own
  share_mutable_buffers export computes (and eager PyTorch within 1e-4),
  where the program as exported does not.
- Every re-planned program runs each method bit-identical to the program
  it came from, and the CLI's arenas are the package's.
- A planted overlap fails `coreai-plan check`.

Run by cli_programs.py (`cli_programs.py mistral`).
"""
import torch
from torch.export import export
from transformers import MistralConfig, MistralForCausalLM
from transformers.integrations.executorch import \
    TorchExportableModuleWithStaticCache

import cli_programs as cli
import harness

VOCAB = 256
PROMPT = 8
STEPS = 4
CACHE = 16


def mistral():
    model = MistralForCausalLM(MistralConfig(
        vocab_size=VOCAB, hidden_size=64, intermediate_size=128,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        head_dim=16, max_position_embeddings=64, sliding_window=None)).eval()
    model.requires_grad_(False)
    model.generation_config.use_cache = True
    model.generation_config.cache_implementation = "static"
    return model


def with_cache(model):
    return TorchExportableModuleWithStaticCache(model, batch_size=1,
                                                max_cache_len=CACHE)


def eager_run(model, tokens):
    cached = with_cache(model)
    logits = [cached(input_ids=tokens, cache_position=torch.arange(PROMPT))]
    calls = [("prefill", [tokens, torch.arange(PROMPT)])]
    for step in range(STEPS):
        token = logits[-1][:, -1:].argmax(-1)
        position = torch.tensor([PROMPT + step])
        calls.append(("decode", [token, position]))
        logits.append(cached(input_ids=token, cache_position=position))
    return [[out] for out in logits], calls


def each_method_alone(calls):
    """Call sequences that carry nothing from one method to the other:
    prefill alone, decode alone (from an empty cache)."""
    return [calls[:1], calls[1:]]


def test():
    torch.manual_seed(0)
    model = mistral()
    tokens = torch.randint(0, VOCAB, (1, PROMPT))
    exporting = with_cache(model)
    programs = {
        "prefill": export(exporting, (), {
            "input_ids": tokens, "cache_position": torch.arange(PROMPT)},
            strict=True),
        "decode": export(exporting, (), {
            "input_ids": tokens[:, :1],
            "cache_position": torch.tensor([PROMPT])}, strict=True),
    }
    edge = harness.export_edge(programs, keep_linear=True)
    reference, calls = eager_run(model, tokens)
    names = {"emit_mutable_buffer_names": True}
    named = cli.save(harness.lower(edge, harness.greedy_pass(), **names),
                     "mistral-named.pte")
    unnamed = cli.save(harness.lower(edge, harness.greedy_pass()),
                       "mistral-unnamed.pte")
    shared = harness.lower(edge, harness.greedy_pass(
        share_mutable_buffers=True), **names)
    package = harness.lower(edge, harness.coreai_pass(
        harness.coreai_algorithm()), **names)

    # ExecuTorch's default export is warned about, naming the option.
    listing = cli.coreai_plan("inspect", named).stdout
    harness.check("kept at different offsets" in listing and
                  "--share-mutable-buffers" in listing,
                  f"inspect does not warn about the default export:\n"
                  f"{listing}")
    print("mistral: inspect warns: " + next(
        line for line in listing.splitlines() if "warning" in line)[:160])

    # Re-planned, each method alone computes what it computed before.
    for path in (named, unnamed):
        for sequence in each_method_alone(calls):
            summary, stderr = cli.replanned_runs_identical(
                f"mistral {path.rsplit('/', 1)[1]} "
                f"{sequence[0][0]}", path, sequence)
        if path == named:
            harness.check("warning" in stderr and
                          "--share-mutable-buffers" in stderr,
                          f"plan does not warn:\n{stderr}")
            cli.same_arenas_as_package("mistral-named", summary, package)

    # Without names nothing is paired, and a line says why.
    summary, stderr, _ = cli.replan(unnamed, "--share-mutable-buffers")
    harness.check(summary["shared_mutable_buffers"] == 0 and
                  "without names, so none is paired" in stderr and
                  "emit_mutable_buffer_names=True" in stderr,
                  f"the unnamed program: {summary['shared_mutable_buffers']}"
                  f" paired, stderr:\n{stderr}")
    print(f"mistral-unnamed: nothing paired: {stderr.strip()[:160]}...")

    # With names every cache is paired: prefill then decode through one
    # arena compute ExecuTorch's shared export, bit for bit.
    summary, stderr, data = cli.replan(named, "--share-mutable-buffers")
    harness.check(summary["shared_mutable_buffers"] > 0,
                  "no mutable buffer paired in the named program")
    paired = cli.run_bytes(data, calls)
    ours = cli.run_bytes(shared.buffer, calls)
    harness.check(harness.same_bits(paired, ours),
                  "--share-mutable-buffers computes otherwise than "
                  "ExecuTorch's share_mutable_buffers export")
    difference = harness.largest_difference(paired, reference)
    harness.check(difference <= 1e-4, f"{difference} from eager PyTorch")
    with open(named, "rb") as fp:
        exported = harness.largest_difference(
            cli.run_bytes(fp.read(), calls), reference)
    print(f"mistral-named: {summary['shared_mutable_buffers']} mutable "
          f"buffers paired; prefill + {STEPS} decode steps bit-identical to "
          f"ExecuTorch's shared export, {difference:.3g} from eager (the "
          f"program as exported: {exported:.3g})")
    cli.explain_peaks_within_heaps("mistral-named", named)
    cli.planted_overlap_fails("mistral-named", named)

"""Tiny decoders of three transformers families (Llama, Qwen3, GPT-2; random
weights, width 64, two layers) exported with ExecuTorch, planned by its greedy
and by coreai-plan, and run by ExecuTorch's runtime: the logits must agree bit
for bit between the two programs and with eager PyTorch within 1e-4.

    decoders.py llama|qwen3|gpt2
"""
import sys

import torch
from torch.export import export
from transformers import (GPT2Config, GPT2LMHeadModel, LlamaConfig,
                          LlamaForCausalLM, Qwen3Config, Qwen3ForCausalLM)

import harness

VOCAB = 256
TOKENS = 8


def llama():
    return LlamaForCausalLM(LlamaConfig(
        vocab_size=VOCAB, hidden_size=64, intermediate_size=128,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        max_position_embeddings=64))


def qwen3():
    return Qwen3ForCausalLM(Qwen3Config(
        vocab_size=VOCAB, hidden_size=64, intermediate_size=128,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        head_dim=16, max_position_embeddings=64))


def gpt2():
    return GPT2LMHeadModel(GPT2Config(
        vocab_size=VOCAB, n_embd=64, n_layer=2, n_head=4, n_positions=64))


FAMILIES = {"llama": llama, "qwen3": qwen3, "gpt2": gpt2}


class Logits(torch.nn.Module):
    """The decoder without a cache: token ids in, logits out."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        return self.model(input_ids=input_ids, use_cache=False).logits


def test(family):
    torch.manual_seed(0)
    model = Logits(FAMILIES[family]().eval())
    model.requires_grad_(False)
    tokens = torch.randint(0, VOCAB, (1, TOKENS))
    edge = harness.export_edge({"forward": export(model, (tokens,))},
                               keep_linear=True)
    reference = [[model(tokens)]]
    harness.compare_planners(family, edge, [("forward", [tokens])],
                             reference=reference)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in FAMILIES:
        sys.exit(f"usage: decoders.py {'|'.join(FAMILIES)}")
    harness.main(lambda: test(sys.argv[1]))

"""The CUDA runtime's pieces without a GPU (coreai_exec/runtime_cuda.py,
strict.py, attention.py): the strict accounting fed by a fake allocator
history (a planted unplanned allocation fails --strict, naming the step and
the bytes; a planned workspace covers what its kernel allocates; results
copied into their slots are named apart), the attention group of a
hand-planned GQA decoder layer found and run as one
scaled_dot_product_attention (its KV-cache writes in place on the states),
a group that is not attention left to the compiler, and kernels' result
dtypes: native_layer_norm's statistics in float32 slots, too-small slots
refused."""

import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import torch

from coreai_exec import __main__ as cli
from coreai_exec import attention, groups, mlir, strict


def alloc(address, size):
    return {"action": "alloc", "addr": address, "size": size}


def free(address, size):
    return {"action": "free_completed", "addr": address, "size": size}


class Accounting(unittest.TestCase):
    def test_replay_peak_kept_and_blocks(self):
        events = [alloc(1, 512), alloc(2, 1024), free(1, 512), alloc(3, 256), free(9, 4)]
        self.assertEqual(strict.replay(events), (1536, 1280, [512, 1024, 256]))

    def accounting(self, planted, is_strict):
        accounting = strict.Accounting(strict.PlantedAllocations(planted), strict=is_strict)
        accounting.begin_call(True)
        return accounting

    def test_planted_allocation_fails_strict_naming_the_step(self):
        accounting = self.accounting({1: [alloc(7, 4096), free(7, 4096)]}, True)
        accounting.run(lambda: None, "torch.aten.mm at line 3", "op mm")
        with self.assertRaises(strict.StrictError) as caught:
            accounting.run(lambda: None, "torch.aten.add at line 4", "compiled group (Inductor)", workspace=512)
        message = str(caught.exception)
        self.assertIn("step 1 (compiled group (Inductor), torch.aten.add at line 4) allocated 3584 bytes beyond the "
                      "plan", message)
        self.assertIn("4096 allocated at once in 1 block", message)

    def test_without_strict_the_bytes_are_reported_per_kind(self):
        accounting = self.accounting({0: [alloc(7, 4096)], 2: [alloc(8, 100), free(8, 100)]}, False)
        for kind in ("op mm", "op mm", "op add"):
            accounting.run(lambda: None, "here", kind)
        summary = accounting.summary()
        self.assertEqual((summary["unplanned_bytes"], summary["unplanned_steps"], summary["kept"]), (4196, 2, 4096))
        self.assertEqual(summary["by_kind"]["op mm"]["steps"], 1)
        self.assertIn("step 0 (op mm, here) allocated 4096 bytes", summary["first_unplanned"])
        self.assertTrue(any("op add: 1 steps allocate" in line for line in strict.report_lines(summary)))

    def test_workspace_and_copied_results_are_planned(self):
        accounting = self.accounting({0: [alloc(1, 1536), free(1, 1536)], 1: [alloc(2, 192), alloc(3, 1024)]}, True)
        accounting.run(lambda: None, "sdpa", "attention (one SDPA)", workspace=1536)
        accounting.run(lambda: torch.zeros(48), "group", "compiled group (Inductor)", workspace=1024,
                       copied_result_bytes=lambda returned: returned.numel() * 4)
        summary = accounting.summary()
        self.assertEqual(summary["unplanned_bytes"], 0)
        self.assertEqual([s["covered_by_workspace"] for s in accounting.steps], [1536, 1024])
        self.assertEqual(accounting.steps[1]["copied_result_bytes"], 192)

    def test_warm_up_call_is_not_measured(self):
        accounting = strict.Accounting(strict.PlantedAllocations({0: [alloc(1, 9)]}), strict=True)
        accounting.begin_call(False)
        accounting.run(lambda: None, "here", "op add")
        self.assertEqual(accounting.steps, [])

    def test_cpu_has_no_history(self):
        accounting = strict.Accounting(strict.NoAllocations(), strict=True)
        accounting.begin_call(True)
        accounting.run(lambda: None, "here", "op add")
        self.assertFalse(accounting.summary()["measured"])


F = "f32"


def t(*shape, element=F):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), element)


def op(result, name, operands, args, types, out_type, extra="", overload="default"):
    return ('    %s = "torch.aten.%s"(%s) {coreai.args = "%s", coreai.overload = "%s"%s} : (%s) -> %s'
            % (result, name, operands, args, overload, extra, ", ".join(types), out_type))


def attention_layer(planned, scale_op="mul", extra_op=False):
    """A GQA decoder layer's attention (4 query heads, 2 KV heads, S=3, a
    cache of 8, head size 4), as the exporter writes it: the cache written
    with index_put, K/V repeated by expand + clone, bmm, scale, mask,
    softmax, bmm. Planned: the writes into their states, kernel 0 the
    attention group with its inner values kept inside, its result in the
    heap."""
    def k(place):
        return (", coreai.kernel = 0 : i64" + (", coreai.placement = [%s]" % place if place else "")) if planned else ""

    def view(place=None):
        return ", coreai.alias_of = [0]" + (", coreai.kernel = 0 : i64" if planned and place else "")

    def state(arg):
        return ", coreai.placement = [#coreai.state<arg = %d>]" % arg if planned else ""
    fused = "#coreai.fused<kernel = 0>"
    cache, kv5, q = t(1, 2, 8, 4), t(1, 2, 2, 8, 4), t(1, 4, 3, 4)
    body = [
        op("%0", "index_put", "%arg0, %arg4, %arg3", "(T, [None, None, T], T)", [cache, t(3, element="i64"),
                                                                               t(1, 2, 3, 4)], cache, state(0)),
        op("%1", "index_put", "%arg1, %arg4, %arg3", "(T, [None, None, T], T)", [cache, t(3, element="i64"),
                                                                               t(1, 2, 3, 4)], cache, state(1)),
        op("%2", "unsqueeze", "%0", "(T, 2)", [cache], t(1, 2, 1, 8, 4), ", coreai.alias_of = [0]"),
        op("%3", "expand", "%2", "(T, [1, 2, 2, 8, 4])", [t(1, 2, 1, 8, 4)], kv5, ", coreai.alias_of = [0]"),
        op("%4", "unsqueeze", "%1", "(T, 2)", [cache], t(1, 2, 1, 8, 4), ", coreai.alias_of = [0]"),
        op("%5", "expand", "%4", "(T, [1, 2, 2, 8, 4])", [t(1, 2, 1, 8, 4)], kv5, ", coreai.alias_of = [0]"),
        op("%6", "expand", "%arg2", "(T, [1, 4, 3, 4])", [q], q, ", coreai.alias_of = [0]"),
        op("%7", "view", "%6", "(T, [4, 3, 4])", [q], t(4, 3, 4), ", coreai.alias_of = [0]"),
        op("%8", "clone", "%3", "(T, memory_format=torch.contiguous_format)", [kv5], kv5, k(fused)),
        op("%9", "view", "%8", "(T, [1, 4, 8, 4])", [kv5], t(1, 4, 8, 4), view(True)),
        op("%10", "clone", "%5", "(T, memory_format=torch.contiguous_format)", [kv5], kv5, k(fused)),
        op("%11", "view", "%10", "(T, [1, 4, 8, 4])", [kv5], t(1, 4, 8, 4), view(True)),
        op("%12", "permute", "%9", "(T, [0, 1, 3, 2])", [t(1, 4, 8, 4)], t(1, 4, 4, 8), view(True)),
        op("%13", "view", "%12", "(T, [4, 4, 8])", [t(1, 4, 4, 8)], t(4, 4, 8), view(True)),
        op("%14", "bmm", "%7, %13", "(T, T)", [t(4, 3, 4), t(4, 4, 8)], t(4, 3, 8), k(fused)),
        op("%15", "view", "%14", "(T, [1, 4, 3, 8])", [t(4, 3, 8)], t(1, 4, 3, 8), view(True)),
        op("%16", scale_op, "%15", "(T, 0.5)", [t(1, 4, 3, 8)], t(1, 4, 3, 8), k(fused), "Tensor"),
        op("%17", "add", "%16, %arg5", "(T, T)", [t(1, 4, 3, 8), t(1, 1, 3, 8)], t(1, 4, 3, 8), k(fused), "Tensor"),
    ]
    last = "%17"
    if extra_op:  # a soft-capping tanh: no longer plain attention
        body.append(op("%30", "tanh", "%17", "(T)", [t(1, 4, 3, 8)], t(1, 4, 3, 8), k(fused)))
        last = "%30"
    body += [
        op("%18", "_softmax", last, "(T, -1, False)", [t(1, 4, 3, 8)], t(1, 4, 3, 8), k(fused)),
        op("%19", "view", "%18", "(T, [4, 3, 8])", [t(1, 4, 3, 8)], t(4, 3, 8), view(True)),
        op("%20", "view", "%11", "(T, [4, 8, 4])", [t(1, 4, 8, 4)], t(4, 8, 4), view(True)),
        op("%21", "bmm", "%19, %20", "(T, T)", [t(4, 3, 8), t(4, 8, 4)], t(4, 3, 4),
           k("#coreai.heap<offset = 0, size = 192>")),
    ]
    signature = ('(%%arg0: %s {coreai.kind = "state", coreai.name = "key_cache"}, '
                 '%%arg1: %s {coreai.kind = "state", coreai.name = "value_cache"}, '
                 '%%arg2: %s {coreai.kind = "input", coreai.name = "q"}, '
                 '%%arg3: %s {coreai.kind = "input", coreai.name = "k"}, '
                 '%%arg4: %s {coreai.kind = "input", coreai.name = "cache_position"}, '
                 '%%arg5: %s {coreai.kind = "input", coreai.name = "mask"}) -> '
                 '(%s {coreai.kind = "state_update", coreai.name = "key_cache"}, '
                 '%s {coreai.kind = "state_update", coreai.name = "value_cache"}, %s {coreai.kind = "output"})'
                 % (cache, cache, q, t(1, 2, 3, 4), t(3, element="i64"), t(1, 1, 3, 8), cache, cache, t(4, 3, 4)))
    attrs = (' attributes {coreai.entry = "main", coreai.plan = #coreai.plan<heap = 192, alignment = 64>, '
             'coreai.seq_len = 3 : i64}' if planned else "")
    return ("module {\n  func.func @%s%s%s {\n%s\n    return %%0, %%1, %%21 : %s, %s, %s\n  }\n}\n"
            % ("main__s3" if planned else "main", signature, attrs, "\n".join(body), cache, cache, t(4, 3, 4)))


def run_cli(original_text, planned_text, extra=()):
    with tempfile.TemporaryDirectory() as folder:
        original, planned = os.path.join(folder, "m.mlir"), os.path.join(folder, "m.planned.mlir")
        with open(original, "w") as f:
            f.write(original_text)
        with open(planned, "w") as f:
            f.write(planned_text)
        report = os.path.join(folder, "report.json")
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(out):
            status = cli.main([planned, "--original", original, "--runtime", "cuda", "--json", report, *extra])
        with open(report) as f:
            return status, json.load(f), out.getvalue()


RUNTIME = hasattr(torch, "compile") and hasattr(torch.nn, "attention")
NEEDS = "the CUDA runtime needs torch.compile and torch.nn.attention (torch >= 2.5; ctest exec-cuda-unit runs it there)"


@unittest.skipUnless(RUNTIME, NEEDS)
class Attention(unittest.TestCase):
    def attention_step(self, **options):
        function = mlir.parse(attention_layer(True, **options)).functions[0]
        return [s for s in groups.steps_of(function) if s.compiled][0]

    def test_group_matched_with_its_operands(self):
        call = attention.match(self.attention_step(), {})
        self.assertIsNotNone(call)
        self.assertEqual((call.q, call.k, call.v, call.mask, call.scale, call.result),
                         ("%7", "%3", "%5", "%arg5", 0.5, "%21"))

    def test_division_is_a_scale(self):
        self.assertEqual(attention.match(self.attention_step(scale_op="div"), {}).scale, 2.0)

    def test_soft_capping_is_not_plain_attention(self):
        self.assertIsNone(attention.match(self.attention_step(extra_op=True), {}))

    def test_sdpa_matches_the_group_run_op_by_op(self):
        step = self.attention_step()
        call = attention.match(step, {})
        graph = groups.GroupGraph(step, {}, torch.device("cpu"))
        torch.manual_seed(0)
        cache_k, cache_v = torch.randn(1, 2, 8, 4), torch.randn(1, 2, 8, 4)
        env = {"%3": cache_k[:, :, None].expand(1, 2, 2, 8, 4), "%5": cache_v[:, :, None].expand(1, 2, 2, 8, 4),
               "%7": torch.randn(4, 3, 4), "%arg5": torch.randn(1, 1, 3, 8)}
        want = graph.module(*[env[name] for name in graph.inputs])[0]
        got = call.run(env)
        self.assertEqual(tuple(got.shape), (4, 3, 4))
        self.assertLess((got - want).abs().max().item(), 1e-5)
        env["%3"] = cache_k.repeat(1, 1, 2, 1).reshape(1, 2, 2, 8, 4)  # not a broadcast: not the cache's heads
        self.assertIsNone(call.operands(env))

    def test_layer_runs_on_the_runtime_with_writes_in_place(self):
        status, report, text = run_cli(attention_layer(False), attention_layer(True), ["--strict"])
        self.assertEqual(status, 0, text)
        record = report["functions"][0]
        self.assertEqual((record["stats"]["attention_groups"], record["stats"]["kv_in_place"]), (1, 2), text)
        self.assertIn(record["status"], ("identical", "close"))
        self.assertFalse(record["allocations"]["measured"])

    def test_not_attention_is_compiled(self):
        status, report, text = run_cli(attention_layer(False, extra_op=True), attention_layer(True, extra_op=True))
        self.assertEqual(status, 0, text)
        record = report["functions"][0]
        self.assertEqual((record["stats"]["attention_groups"], record["stats"]["compiled_groups"]), (0, 1), text)

    def test_planted_allocation_fails_the_run(self):
        status, report, text = run_cli(attention_layer(False), attention_layer(True),
                                       ["--strict", "--plant-allocation", "2:4096"])
        self.assertEqual(status, 2, text)
        record = report["functions"][0]
        self.assertEqual(record["status"], "unplanned")
        self.assertIn("UNPLANNED ALLOCATION (--strict): step 2 (attention (one SDPA), torch.aten.bmm at line", text)
        # The 192 bytes of SDPA's result copied into its slot are named apart, not unplanned.
        self.assertIn("allocated 3904 bytes beyond the plan (4096 allocated at once in 1 block", text)


def layer_norm(planned, statistics_bytes=24, dtypes="[f16, f32, f32]"):
    """native_layer_norm of a float16 [6, 8] input, its three results
    returned; planned with the statistics as `dtypes` says the kernel writes
    them, each in `statistics_bytes` of the heap."""
    x, stats = t(6, 8, element="f16"), t(6, 1, element="f16")
    extra = ""
    if planned:
        extra = (", coreai.result_dtypes = %s, coreai.placement = [#coreai.output<0>, #coreai.heap<offset = 0, "
                 "size = %d>, #coreai.heap<offset = 64, size = %d>]" % (dtypes, statistics_bytes, statistics_bytes))
    body = [op("%0:3", "native_layer_norm", "%arg0, %arg1, %arg2", "(T, [8], T, T, 1e-05)",
               [x, t(8, element="f16"), t(8, element="f16")], "(%s, %s, %s)" % (x, stats, stats), extra)]
    body.append(op("%1", "add", "%arg0, %0#0", "(T, T)", [x, x], x,
                   ", coreai.placement = [#coreai.output<1>]" if planned else "", "Tensor"))
    signature = ('(%%arg0: %s {coreai.kind = "input", coreai.name = "x"}, %%arg1: %s {coreai.kind = "weight", '
                 'coreai.name = "norm.weight"}, %%arg2: %s {coreai.kind = "weight", coreai.name = "norm.bias"}) -> '
                 '(%s {coreai.kind = "output"}, %s {coreai.kind = "output"})'
                 % (x, t(8, element="f16"), t(8, element="f16"), x, x))
    attrs = (' attributes {coreai.entry = "main", coreai.plan = #coreai.plan<heap = 128, alignment = 64>, '
             'coreai.seq_len = 0 : i64}' if planned else "")
    return ("module {\n  func.func @%s%s%s {\n%s\n    return %%0#0, %%1 : %s, %s\n  }\n}\n"
            % ("main__s0" if planned else "main", signature, attrs, "\n".join(body), x, x))


@unittest.skipUnless(RUNTIME, NEEDS)
class ResultDtypes(unittest.TestCase):
    def test_statistics_in_float32_slots(self):
        status, report, text = run_cli(layer_norm(False), layer_norm(True), ["--strict"])
        self.assertEqual(status, 0, text)
        record = report["functions"][0]
        # The CPU's kernel writes float16 statistics: cast into the float32 slots and counted.
        self.assertEqual(record["stats"]["cast_into_slot"], 2 if not torch.cuda.is_available() else 0, text)
        self.assertEqual(record["status"], "identical", text)

    def test_graph_sized_slots_refused_for_float32_statistics(self):
        status, report, text = run_cli(layer_norm(False), layer_norm(True, statistics_bytes=12))
        self.assertEqual(status, 2, text)
        self.assertIn("annotated size 12, but torch.float32 [6, 1] takes 24 bytes", report["functions"][0]["message"])

    def test_result_dtypes_parsed(self):
        function = mlir.parse(layer_norm(True)).functions[0]
        self.assertEqual(function.ops[0].attrs["coreai.result_dtypes"], ["f16", "f32", "f32"])


if __name__ == "__main__":
    unittest.main()

"""The fused mode's pieces: a function's steps, a kernel group as one fx
graph (its operands from outside, the results with planned bytes), the
canonical key that lets repeated layers share one compilation, the replay
of the CUDA allocator's history, the scaled comparison; and, where this
torch has torch.compile, the fused mode on a hand-planned graph: within
tolerance, a workspace under its step's result and a value kept inside read
outside refused. (A planted overlap is a ctest on the tiny graphs: here the
only overlap left is one a fused elementwise kernel may make.)"""

import io
import json
import os
import tempfile
import unittest
from unittest import mock
from contextlib import redirect_stderr, redirect_stdout

import torch

from coreai_exec import __main__ as cli
from coreai_exec import allocations, compare, engine, groups, mlir
from tests.test_engine import KERNEL_GOOD, KERNEL_OPS, module

F4 = "tensor<4xf32>"
F8 = "tensor<8xf32>"


def layers(second_scale="0.5", second_type=F4):
    """Two kernels of (mul by a constant, add x): the same computation layer
    after layer unless the second's constant or type differs."""
    def kernel(k, source, out, scale, ty):
        return ('    %%m%d = "torch.aten.mul"(%s) {coreai.args = "(T, %s)", coreai.overload = "Tensor", '
                'coreai.kernel = %d : i64, coreai.placement = [#coreai.fused<kernel = %d>]} : (%s) -> %s\n'
                '    %s = "torch.aten.add"(%%m%d, %s) {coreai.args = "(T, T)", coreai.overload = "Tensor", '
                'coreai.kernel = %d : i64, coreai.placement = [#coreai.output<%d>]} : (%s, %s) -> %s\n'
                % (k, source, scale, k, k, ty, ty, out, k, source, k, k, ty, ty, ty))
    return ('module {\n  func.func @main(%%arg0: %s {coreai.kind = "input", coreai.name = "x"}, '
            '%%arg1: %s {coreai.kind = "input", coreai.name = "y"}) -> (%s, %s) attributes '
            '{coreai.plan = #coreai.plan<heap = 0, alignment = 64>} {\n%s%s    return %%a, %%b : %s, %s\n  }\n}\n'
            % (F4, second_type, F4, second_type, kernel(0, "%arg0", "%a", "0.5", F4),
               kernel(1, "%arg1", "%b", second_scale, second_type), F4, second_type))


def graphs_of(text):
    function = mlir.parse(text).functions[0]
    steps = [s for s in groups.steps_of(function) if s.compiled]
    return [groups.GroupGraph(step, {}, torch.device("cpu")) for step in steps]


class Groups(unittest.TestCase):
    def test_steps_and_graph_of_a_kernel(self):
        function = mlir.parse(module("main__s0", KERNEL_GOOD, 128, KERNEL_OPS, "%4, %3")).functions[0]
        steps = groups.steps_of(function)
        self.assertEqual([len(s.ops) for s in steps], [1, 4, 1])
        self.assertEqual([s.compiled for s in steps], [False, True, False])
        graph = groups.GroupGraph(steps[1], {}, torch.device("cpu"))
        self.assertEqual(graph.inputs, ["%0", "%arg2"])
        # add is kept inside (#coreai.fused), its alias is a view: neither is an output.
        self.assertEqual([(op.results[0], j) for op, j in graph.outputs], [("%2", 0), ("%3", 0)])
        xw, x = torch.randn(4), torch.randn(4)
        neg, product = graph.module(xw, x)
        self.assertTrue(torch.equal(neg, -(xw + x)))
        self.assertTrue(torch.equal(product, -(xw + x) * xw))

    def test_repeated_layers_share_a_key(self):
        first, second = graphs_of(layers())
        x = torch.randn(4)
        self.assertEqual(first.key([x]), second.key([x]))
        # Another constant, another shape, another stride or alignment: another function.
        for text in (layers(second_scale="0.25"), layers(second_type=F8)):
            first, second = graphs_of(text)
            y = torch.randn(8) if "8xf32" in text else x
            self.assertNotEqual(first.key([x]), second.key([y]))
        first, _ = graphs_of(layers())
        self.assertNotEqual(first.key([x]), first.key([torch.randn(8)[::2]]))
        self.assertNotEqual(first.key([x]), first.key([torch.randn(5)[1:]]))


class LibraryCalls(unittest.TestCase):
    def test_calls_outside_generated_kernels_are_counted(self):
        from coreai_exec.fused import library_calls
        code = ("def call(args):\n    extern_kernels.bmm(arg0_1, arg1_1, out=buf0)\n"
                "    buf1 = torch.ops.aten._scaled_dot_product_flash_attention.default(q, k, v)\n"
                "    extern_kernels.bmm(buf2, arg1_1, out=buf3)\n    triton_poi_fused_add_0.run(buf3)\n")
        self.assertEqual(library_calls([code]), {"extern_kernels.bmm": 2,
                                                 "torch.ops.aten._scaled_dot_product_flash_attention.default": 1})


class Measurement(unittest.TestCase):
    def test_replay_separates_results_from_what_kernels_take(self):
        events = [{"action": "alloc", "addr": 0x1000, "size": 512},  # an inner value
                  {"action": "alloc", "addr": 0x2000, "size": 1024},  # workspace
                  {"action": "free_requested", "addr": 0x1000, "size": 512},
                  {"action": "free_completed", "addr": 0x1000, "size": 512},
                  {"action": "alloc", "addr": 0x1000, "size": 512},  # the result, at a reused address
                  {"action": "free_completed", "addr": 0x2000, "size": 1024},
                  {"action": "alloc", "addr": 0x3000, "size": 2048}]  # kept: a library's cached scratch
        measured = allocations.replay(events, [0x1000 + 16])
        self.assertEqual(measured, {"extra_peak": 2048, "extra_total": 3584, "extra_blocks": 3, "kept": 2048,
                                    "results": 512})

    def test_history_of_one_call_on_cuda(self):
        """The CUDA path's wiring, the allocator mocked: history cleared and
        started before the call, read and stopped after it, the returned
        tensors' blocks taken as results."""
        result = torch.zeros(4)
        events = [{"action": "alloc", "addr": 64, "size": 1024},
                  {"action": "free_completed", "addr": 64, "size": 1024},
                  {"action": "alloc", "addr": result.data_ptr(), "size": 512}]
        calls = []
        memory = mock.Mock()
        memory._record_memory_history.side_effect = lambda enabled, **kw: calls.append((enabled, kw))
        memory._snapshot.return_value = {"device_traces": [[], events]}
        with mock.patch.object(torch.cuda, "synchronize"), mock.patch.object(torch.cuda, "memory", memory):
            history = allocations.AllocatorHistory(torch.device("cuda", 1))
            returned, measured = history.measure(lambda: (result,))
        self.assertIs(returned[0], result)
        self.assertEqual(measured, {"extra_peak": 1024, "extra_total": 1024, "extra_blocks": 1, "kept": 0,
                                    "results": 512})
        self.assertEqual([c[0] for c in calls], ["all", None])
        self.assertTrue(calls[0][1]["clear_history"])

    def test_no_history_off_cuda(self):
        history = allocations.AllocatorHistory(torch.device("cpu"))
        self.assertEqual(history.measure(lambda: 7), (7, None))


class ScaledComparison(unittest.TestCase):
    def test_scaled_difference(self):
        want = torch.tensor([4.0, -2.0, 0.0])
        self.assertEqual(compare.scaled_difference(want.clone(), want), 0.0)
        self.assertAlmostEqual(compare.scaled_difference(want + torch.tensor([0.0, 0.0, 0.004]), want), 1e-3)
        nan = want.clone()
        nan[2] = float("nan")
        self.assertEqual(compare.scaled_difference(nan, want), float("inf"))
        self.assertEqual(compare.scaled_difference(torch.tensor([1, 2]), torch.tensor([1, 3])), float("inf"))
        self.assertIsNone(compare.close_difference(want + 1e-4, want))
        self.assertIsNotNone(compare.close_difference(want + 1e-2, want))


@unittest.skipUnless(hasattr(torch, "compile"), "torch.compile needs torch >= 2.0")
class FusedMode(unittest.TestCase):
    """The hand-planned kernel compiled: within tolerance; a planted overlap caught."""

    def run_cli(self, placements=KERNEL_GOOD, extra=()):
        with tempfile.TemporaryDirectory() as folder:
            original, planned = os.path.join(folder, "m.mlir"), os.path.join(folder, "m.planned.mlir")
            with open(original, "w") as f:
                f.write(module("main", ops=KERNEL_OPS, returned="%4, %3"))
            with open(planned, "w") as f:
                f.write(module("main__s0", placements, 128, KERNEL_OPS, "%4, %3"))
            report = os.path.join(folder, "report.json")
            out = io.StringIO()
            with redirect_stdout(out), redirect_stderr(out):
                status = cli.main([planned, "--original", original, "--fused", "--json", report, *extra])
            with open(report) as f:
                return status, json.load(f), out.getvalue()

    def test_compiled_kernel_runs_on_the_plan(self):
        status, report, text = self.run_cli()
        self.assertEqual(status, 0, text)
        record = report["functions"][0]
        self.assertIn(record["status"], ("identical", "close"))
        self.assertEqual(record["stats"]["compiled_groups"], 1)
        self.assertEqual(record["stats"]["compiled_copies"], 2)  # neg and the product into their slots
        compiled = [s for s in record["steps"] if s["compiled"]]
        self.assertEqual([(s["computing_ops"], s["fused_values"], s["results"]) for s in compiled], [(3, 1, 2)])
        self.assertIn("not measured (no CUDA allocator history)", text)

    def test_workspace_under_a_result_of_its_step_is_refused(self):
        # The kernel's workspace planned over the bytes its result %2 is written to.
        bad = dict(KERNEL_GOOD, p3=KERNEL_GOOD["p3"] + ", coreai.workspace = #coreai.heap<offset = 64, size = 16>")
        status, report, text = self.run_cli(bad)
        self.assertEqual(status, 2, text)
        self.assertIn("the workspace of torch.aten.mul (line 7; bytes [64, 80) of the arena) changed during its "
                      "step: a result of the step was written over it", text)

    def test_value_kept_inside_read_outside_is_refused(self):
        status, report, text = self.run_cli(extra=["--corrupt", "fused-read-outside"])
        self.assertEqual(status, 2, text)
        self.assertIn("stays inside kernel 0 (#coreai.fused) but is read by %4 (torch.aten.add, line 8)", text)

if __name__ == "__main__":
    unittest.main()

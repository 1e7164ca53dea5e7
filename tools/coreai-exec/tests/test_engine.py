"""The executor on a small hand-planned graph: a correct plan runs
bit-identical with every placement kind; overlapping live buffers, a slot
outside the arena or an output, a false in-place claim and placements
naming what the function lacks are caught; the old placement arrays are
refused; never-written bytes show as poison. A fused kernel: its internal
values in private tensors, its result exactly over its operand; a value
kept inside it read outside it, a result partly over its operand, and the
two kernel negative controls are caught."""

import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stdout, redirect_stderr

import torch

from coreai_exec import __main__ as cli
from coreai_exec import compare, engine

F4 = "tensor<4xf32>"
SIGNATURE = ('(%arg0: {t} {{coreai.kind = "weight", coreai.name = "w"}}, '
             '%arg1: {t} {{coreai.kind = "state", coreai.name = "cache"}}, '
             '%arg2: {t} {{coreai.kind = "input", coreai.name = "x"}}) -> '
             '({t} {{coreai.kind = "state_update", coreai.name = "cache"}}, {t} {{coreai.kind = "output"}})').format(t=F4)
# x*w, + x, neg, cache + that, and a product that reads the first value last.
OPS = [
    ("%0", "mul", "Tensor", "%arg2, %arg0", "{p0}"),
    ("%1", "add", "Tensor", "%0, %arg2", "{p1}"),
    ("%2", "neg", "default", "%1", "{p2}"),
    ("%3", "add", "Tensor", "%arg1, %2", "{p3}"),
    ("%4", "mul", "Tensor", "%2, %0", "{p4}"),
]
GOOD = {
    "p0": "coreai.placement = [#coreai.heap<offset = 0, size = 16>]",
    "p1": "coreai.placement = [#coreai.heap<offset = 256, size = 16>]",
    "p2": "coreai.placement = [#coreai.heap<offset = 256, size = 16, in_place = 0>]",
    "p3": "coreai.placement = [#coreai.state<arg = 1>]",
    "p4": "coreai.placement = [#coreai.output<1>]",
}


# x*w, then kernel 0: + x (kept inside), a view of it (inside too), neg (read
# outside the kernel too), times x*w (the kernel's output); cache + the neg.
KERNEL_OPS = [
    ("%0", "mul", "Tensor", "%arg2, %arg0", "{p0}"),
    ("%1", "add", "Tensor", "%0, %arg2", "{p1}"),
    ("%v", "alias", "default", "%1", "{pv}"),
    ("%2", "neg", "default", "%v", "{p2}"),
    ("%3", "mul", "Tensor", "%2, %0", "{p3}"),
    ("%4", "add", "Tensor", "%arg1, %2", "{p4}"),
]
K0 = "coreai.kernel = 0 : i64, "
KERNEL_GOOD = {
    "p0": "coreai.placement = [#coreai.heap<offset = 0, size = 16>]",
    "p1": K0 + "coreai.placement = [#coreai.fused<kernel = 0>]",
    "pv": K0 + "coreai.alias_of = [0]",
    "p2": K0 + "coreai.placement = [#coreai.heap<offset = 64, size = 16>]",
    "p3": K0 + "coreai.placement = [#coreai.output<1>]",
    "p4": "coreai.placement = [#coreai.state<arg = 1>]",
}


def module(name, placements=None, heap=272, ops=OPS, returned="%3, %4"):
    lines = []
    for result, op, overload, operands, place in ops:
        attrs = 'coreai.overload = "%s", coreai.args = "(%s)"' % (overload, ", ".join("T" for _ in operands.split(",")))
        if placements is not None:
            attrs += ", " + place.format(**placements)
        types = ", ".join(F4 for _ in operands.split(","))
        lines.append('    %s = "torch.aten.%s"(%s) {%s} : (%s) -> %s' % (result, op, operands, attrs, types, F4))
    function_attrs = ""
    if placements is not None:
        function_attrs = (' attributes {coreai.entry = "main", coreai.plan = #coreai.plan<heap = %d, alignment = 64>, coreai.seq_len = 0 : i64}'
                          % heap)
    return ("module {\n  func.func @%s%s%s {\n%s\n    return %s : %s, %s\n  }\n}\n"
            % (name, SIGNATURE, function_attrs, "\n".join(lines), returned, F4, F4))


class Executor(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.original = self.write("m.mlir", module("main"))

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def execute(self, placements, heap=272, extra=(), ops=OPS, returned="%3, %4"):
        if ops is not OPS:
            self.original = self.write("m.mlir", module("main", ops=ops, returned=returned))
        planned = self.write("m.planned.mlir", module("main__s0", placements, heap, ops, returned))
        report = os.path.join(self.dir.name, "report.json")
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = cli.main([planned, "--original", self.original, "--json", report, *extra])
        with open(report) as f:
            return status, json.load(f)["functions"], out.getvalue() + err.getvalue()

    def assert_refused(self, placements, status, message, record_status=None, extra=(), **graph):
        """Runs the plan; checks the exit status, the message, and the
        function's record status when given."""
        got, records, text = self.execute(placements, extra=extra, **graph)
        self.assertEqual(got, status, text)
        self.assertIn(message, text)
        if record_status:
            self.assertEqual(records[0]["status"], record_status)
        return records

    def test_correct_plan_is_bit_identical(self):
        status, records, text = self.execute(GOOD)
        self.assertEqual(status, 0, text)
        record = records[0]
        self.assertEqual(record["status"], "identical")
        stats = record["stats"]
        self.assertEqual((stats["in_place"], stats["state_placed"], stats["output_placed"]), (1, 1, 1))
        self.assertEqual(stats["into_slot"], 5)  # every kernel wrote its own slot
        self.assertIn("bit-identical (2 results, 1 states)", text)

    def test_borrowed_scratch_in_an_output(self):
        # Output 0's storage is free all call long (its value is placed in
        # the state): %0 lives there.
        borrowed = dict(GOOD, p0="coreai.placement = [#coreai.lent<output = 0, offset = 0, size = 16>]")
        status, records, text = self.execute(borrowed)
        self.assertEqual(status, 0, text)
        self.assertEqual(records[0]["stats"]["borrowed"], 1)
        outside = dict(GOOD, p0="coreai.placement = [#coreai.lent<output = 1, offset = 8, size = 16>]")
        self.assert_refused(outside, 2, "bytes [8, 24) are outside output 1 (16 bytes)")

    def test_returned_value_placed_nowhere_lives_in_its_output(self):
        # %4 is returned at position 1: with no place of its own the
        # caller's output storage holds it, as with no placement at all.
        for unplaced in ("coreai.placement = [#coreai.none]", 'coreai.name = "unplaced"'):
            status, records, text = self.execute(dict(GOOD, p4=unplaced))
            self.assertEqual(status, 0, text)
            self.assertEqual(records[0]["stats"]["output_placed"], 0)

    def test_placement_in_an_output_the_function_lacks(self):
        self.assert_refused(dict(GOOD, p4="coreai.placement = [#coreai.output<2>]"), 2,
                            "'#coreai.output' names result 2 of 2")

    def test_state_placement_in_an_argument_that_is_no_state(self):
        self.assert_refused(dict(GOOD, p3="coreai.placement = [#coreai.state<arg = 2>]"), 2,
                            "'#coreai.state' names argument 2, which is not a state")

    def test_old_placement_arrays_are_refused(self):
        old = dict(GOOD, p0="coreai.offsets = array<i64: 0>, coreai.sizes = array<i64: 16>")
        self.assert_refused(old, 1, "m.planned.mlir:3: 'torch.aten.mul' (%0): 'coreai.offsets' is the old "
                            "placement form: re-plan with this coreai-plan")

    def test_overlapping_live_buffers_mismatch(self):
        # %1 (and its in-place %2) onto %0, which %4 still reads.
        bad = dict(GOOD, p1=GOOD["p1"].replace("256", "0"), p2=GOOD["p2"].replace("256", "0"))
        self.assert_refused(bad, 2, "result 1 (output) differs at [0]", "mismatch")

    def test_corrupt_overlap_control(self):
        records = self.assert_refused(GOOD, 2, "", "mismatch", extra=["--corrupt", "overlap"])
        self.assertIn("buffer %1 (16 bytes) moved from offset 256 onto %0 at 0", records[0]["corrupted"])

    def test_workspace_is_scribbled_around_its_op(self):
        # neg (%2) with 16 bytes of workspace: free bytes [64, 80) are fine;
        # over %0, which %4 reads after the neg, they change the result.
        spare = dict(GOOD, p2=GOOD["p2"] + ", coreai.workspace = #coreai.heap<offset = 64, size = 16>")
        status, records, text = self.execute(spare)
        self.assertEqual(status, 0, text)
        self.assertEqual(records[0]["stats"]["workspaces"], 2)  # before and after the op
        over = dict(GOOD, p2=GOOD["p2"] + ", coreai.workspace = #coreai.heap<offset = 0, size = 16>")
        self.assert_refused(over, 2, "result 1 (output) differs", "mismatch")
        records = self.assert_refused(spare, 2, "", "mismatch", extra=["--corrupt", "workspace-over-live"])
        self.assertIn("the workspace of torch.aten.neg (line 5; 16 bytes) moved from offset 64 onto %0 at 0",
                      records[0]["corrupted"])
        self.assert_refused(dict(GOOD, p2=GOOD["p2"] + ", coreai.workspace = #coreai.output<0>"), 1,
                            "'coreai.workspace' must be #coreai.heap or #coreai.lent")

    def test_slot_outside_the_arena(self):
        bad = dict(GOOD, p1=GOOD["p1"].replace("256", "260"), p2=GOOD["p2"].replace("256", "260"))
        self.assert_refused(bad, 2, "bytes [260, 276) are outside the arena (272 bytes)", "failed")

    def test_false_in_place_claim(self):
        bad = dict(GOOD, p2=GOOD["p2"].replace("256", "0"))
        self.assert_refused(bad, 2, "%2 (torch.aten.neg, line 5): its placement says it is written over operand 0")

    def test_wrong_annotated_size(self):
        bad = dict(GOOD, p0=GOOD["p0"].replace("size = 16", "size = 8"))
        status, _, text = self.execute(bad)
        self.assertEqual(status, 2, text)
        self.assertIn("annotated size 8", text)

    def execute_kernel(self, placements, extra=()):
        return self.execute(placements, heap=128, extra=extra, ops=KERNEL_OPS, returned="%4, %3")

    def test_kernel_runs_bit_identical(self):
        status, records, text = self.execute_kernel(KERNEL_GOOD)
        self.assertEqual(status, 0, text)
        stats = records[0]["stats"]
        self.assertEqual((stats["kernels"], stats["kernel_ops"], stats["fused"], stats["fused_bytes"]), (1, 4, 1, 16))
        self.assertIn("heap 128 B, 1 fused kernel (4 ops, 1 value of 16 B kept inside), 6 ops (", text)
        # The kernel writes its output exactly over x*w, which only its last op reads then.
        over = dict(KERNEL_GOOD, p3=K0 + "coreai.placement = [#coreai.heap<offset = 0, size = 16>]")
        status, _, text = self.execute_kernel(over)
        self.assertEqual(status, 0, text)
        # Without kernels the summary is as before.
        status, _, text = self.execute(GOOD)
        self.assertNotIn("fused", text)

    def test_kernel_value_read_outside_is_refused(self):
        inside = dict(KERNEL_GOOD, p2=K0 + "coreai.placement = [#coreai.fused<kernel = 0>]")
        got, records, text = self.execute_kernel(inside)
        self.assertEqual(got, 2, text)
        self.assertEqual(records[0]["status"], "failed")
        self.assertIn("%2 (torch.aten.neg, line 6) stays inside kernel 0 (#coreai.fused) but is read by %4 "
                      "(torch.aten.add, line 8), which is not in kernel 0 ('coreai.kernel' is absent)", text)
        # The view of a value kept inside is inside too; so is what the return reads.
        view_outside = [op if op[0] != "%4" else ("%4", "add", "Tensor", "%arg1, %v", "{p4}") for op in KERNEL_OPS]
        got, _, text = self.execute(KERNEL_GOOD, heap=128, ops=view_outside, returned="%4, %3")
        self.assertIn("%v (torch.aten.alias, line 5; a view of %1) stays inside kernel 0 (#coreai.fused) but is read by %4", text)
        returned = dict(KERNEL_GOOD, p3=K0 + "coreai.placement = [#coreai.fused<kernel = 0>]")
        got, _, text = self.execute_kernel(returned)
        self.assertIn("%3 (torch.aten.mul, line 7) stays inside kernel 0 (#coreai.fused) but is returned by "
                      "@main__s0", text)

    def test_kernel_result_partly_over_its_operand_is_refused(self):
        partly = dict(KERNEL_GOOD, p2=K0 + "coreai.placement = [#coreai.heap<offset = 8, size = 16>]")
        got, _, text = self.execute_kernel(partly)
        self.assertEqual(got, 2, text)
        self.assertIn("%2 (torch.aten.neg, line 6), a result of kernel 0, partly overlaps %0, an operand of the "
                      "kernel (8 of its bytes, starting +8 bytes from it)", text)

    def test_kernel_negative_controls(self):
        got, records, text = self.execute_kernel(KERNEL_GOOD, extra=["--corrupt", "kernel-output-over-input"])
        self.assertEqual(got, 2, text)
        self.assertEqual(records[0]["status"], "mismatch")
        self.assertIn("kernel 0's result %2 (torch.aten.neg, line 6; 16 bytes) moved from offset 64 onto its "
                      "operand %0 at 0 (16 bytes), which %3 (torch.aten.mul, line 7) of the kernel reads after it "
                      "is written", records[0]["corrupted"])
        # Where no later op of the kernel reads the operand, one after the kernel does.
        after = [("%3", "mul", "Tensor", "%2, %2", "{p3}") if op[0] == "%3" else
                 ("%4", "add", "Tensor", "%arg1, %0", "{p4}") if op[0] == "%4" else op for op in KERNEL_OPS]
        got, records, text = self.execute(KERNEL_GOOD, heap=128, ops=after, returned="%4, %3",
                                          extra=["--corrupt", "kernel-output-over-input"])
        self.assertEqual((got, records[0]["status"]), (2, "mismatch"), text)
        self.assertIn("moved from offset 64 onto its operand %0 at 0 (16 bytes), which %4 (torch.aten.add, line 8) "
                      "reads after the kernel", records[0]["corrupted"])
        got, records, text = self.execute_kernel(KERNEL_GOOD, extra=["--corrupt", "fused-read-outside"])
        self.assertEqual((got, records[0]["status"]), (2, "failed"), text)
        self.assertIn("kernel 0's result %2 (torch.aten.neg, line 6), placed #coreai.heap, marked "
                      "#coreai.fused<kernel = 0>, but %4 (torch.aten.add, line 8) reads it outside the kernel",
                      records[0]["corrupted"])
        self.assertIn("stays inside kernel 0 (#coreai.fused) but is read by %4", text)
        for mode in ("kernel-output-over-input", "fused-read-outside"):
            self.assert_refused(GOOD, 1, "@main__s0 has no fused kernel (no op carries 'coreai.kernel'): nowhere "
                                "to plant '%s'" % mode, extra=["--corrupt", mode])

    def test_original_of_another_shape_is_exit_1(self):
        self.original = self.write("other.mlir", module("main").replace(
            '%arg0: tensor<4xf32>', '%arg0: tensor<5xf32>', 1))
        status, records, text = self.execute(GOOD)
        self.assertEqual(status, 1, text)
        self.assertEqual(records, [])
        self.assertIn("argument %arg0 is tensor<4xf32>, the original's is tensor<5xf32>", text)

    def test_bad_input_is_exit_1(self):
        planned = self.write("broken.mlir", "module {\n  func.func @f( {\n}\n")
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()) as err:
            status = cli.main([planned, "--original", self.original])
        self.assertEqual(status, 1)
        self.assertIn("broken.mlir:2:", err.getvalue())


class Poison(unittest.TestCase):
    def test_region_is_poisoned_and_guarded(self):
        region = engine.Region("the arena", 8, "cpu")
        slot = region.slot(0, 8, torch.float32, (2,), "v")
        self.assertTrue(torch.isnan(slot).all())  # 0xFF bytes: NaN
        self.assertTrue(region.guards_intact())
        region.bytes[region.guard + 8] = 0  # one byte past the end
        self.assertFalse(region.guards_intact())

    def test_poison_reaching_an_output_is_named(self):
        got = torch.full((16,), 0xFF, dtype=torch.uint8).view(torch.float32)
        diff = compare.first_difference(got, torch.zeros(1))
        self.assertEqual(diff["reason"], "type")
        diff = compare.first_difference(torch.cat([torch.ones(1), got[:3]]), torch.ones(4))
        self.assertEqual(diff["index"], [1])
        self.assertEqual(diff["differing"], 3)
        self.assertEqual(diff["nan_introduced"], 3)
        self.assertIn("3 NaN where the unplanned run has none (poison", compare.describe("result 0", diff))

    def test_bits_not_values(self):
        self.assertIsNotNone(compare.first_difference(torch.tensor([0.0]), torch.tensor([-0.0])))
        nan = torch.tensor([float("nan")])
        self.assertIsNone(compare.first_difference(nan, nan.clone()))


if __name__ == "__main__":
    unittest.main()

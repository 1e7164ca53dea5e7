import unittest

from coreai_exec import mlir

MODULE = r'''module attributes {coreai.model = "m", coreai.config = "{\"a\": 1}", coreai.plan.heap = 512 : i64} {
  func.func @f(%arg0: tensor<2x3xf32> {coreai.kind = "weight", coreai.name = "w\22q"}, %arg1: tensor<1x?xi64> {coreai.kind = "input", coreai.sym_shape = "1,s0"}) -> (tensor<2x3xf32> {coreai.kind = "output"}, tensor<f32>) attributes {coreai.plan = #coreai.plan<heap = 512, optimal = true, algorithm = "best">, coreai.seq_len = 4 : i64} {
    %0 = "torch.aten.add"(%arg0, %arg0) {coreai.args = "(T, T)", coreai.placement = [#coreai.heap<offset = 256, size = 24>]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %1:3 = "torch.aten.split"(%0) {coreai.alias_of = [0, 0, -1], coreai.sym_shapes = ["1,s0", "", "0"]} : (tensor<2x3xf32>) -> (tensor<1x3xf32>, tensor<f32>, tensor<0xf32>)
    "torch.aten._assert_tensor_metadata"(%1#0) {coreai.flag} : (tensor<1x3xf32>) -> ()
    return %0, %1#1 : tensor<2x3xf32>, tensor<f32>
  }
}
'''


class ParseModule(unittest.TestCase):
    def setUp(self):
        self.module = mlir.parse(MODULE, "m.mlir")
        self.function = self.module.functions[0]

    def test_module_attributes(self):
        self.assertEqual(self.module.attrs["coreai.model"], "m")
        self.assertEqual(self.module.attrs["coreai.config"], '{"a": 1}')  # \" escapes
        self.assertEqual(self.module.attrs["coreai.plan.heap"], 512)

    def test_function_signature(self):
        f = self.function
        self.assertEqual(f.name, "f")
        self.assertEqual([a.name for a in f.arguments], ["%arg0", "%arg1"])
        self.assertEqual(f.arguments[0].attrs["coreai.name"], 'w"q')  # \22 hex escape
        self.assertEqual(f.arguments[0].type, mlir.TensorType((2, 3), "f32"))
        self.assertEqual(f.arguments[1].type.shape, (1, None))
        self.assertFalse(f.arguments[1].type.is_static)
        self.assertEqual(f.result_types[1], mlir.TensorType((), "f32"))
        self.assertEqual(f.result_attrs, [{"coreai.kind": "output"}, {}])
        self.assertIsInstance(f.attrs["coreai.plan"], mlir.Plan)
        self.assertEqual(f.attrs["coreai.plan"], {"heap": 512, "optimal": True, "algorithm": "best"})
        self.assertEqual(f.attrs["coreai.seq_len"], 4)
        self.assertEqual(f.returned, ["%0", "%1#1"])

    def test_ops(self):
        add, split, check = self.function.ops
        self.assertEqual(add.name, "torch.aten.add")
        self.assertEqual(add.operands, ["%arg0", "%arg0"])
        self.assertEqual(add.placement(0), mlir.Placement("heap", offset=256, size=24))
        self.assertEqual(add.line, 3)
        self.assertEqual(split.results, ["%1#0", "%1#1", "%1#2"])
        self.assertEqual(split.attrs["coreai.alias_of"], [0, 0, -1])
        self.assertEqual(split.result_types[2], mlir.TensorType((0,), "f32"))
        self.assertEqual(split.placement(2), mlir.NOWHERE)  # no placement on the op
        self.assertEqual(check.results, [])
        self.assertIs(check.attrs["coreai.flag"], True)  # a unit attribute


# MODULE as `coreai-plan import` prints it with locations: aliases before and
# after the module, `loc(...)` after arguments, ops, returns and bodies, with
# nested parentheses and a ')' inside a file name.
LOCATED = r'''#loc = loc("a (1).pt2":0:0)
module attributes {coreai.model = "m"} {
  func.func @f(%arg0: tensor<2x3xf32> {coreai.kind = "weight"} loc("a (1).pt2":0:0), %arg1: tensor<2x3xf32> loc(#loc)) -> (tensor<2x3xf32>) {
    %0 = "torch.aten.add"(%arg0, %arg1) {coreai.args = "(T, T)"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> loc(#loc2)
    "torch.aten._assert_tensor_metadata"(%0) : (tensor<2x3xf32>) -> () loc(callsite("x"("m.py":3:0) at fused[#loc, #loc2]))
    return %0 : tensor<2x3xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("m.py":7:0)
#loc2 = loc("add"(#loc1))
'''


class ParseLocations(unittest.TestCase):
    def test_locations_are_skipped(self):
        function = mlir.parse(LOCATED, "m.mlir").functions[0]
        self.assertEqual([a.attrs for a in function.arguments], [{"coreai.kind": "weight"}, {}])
        add, check = function.ops
        self.assertEqual((add.name, add.operands, add.line), ("torch.aten.add", ["%arg0", "%arg1"], 4))
        self.assertEqual(check.operands, ["%0"])
        self.assertEqual(function.returned, ["%0"])

    def test_only_location_aliases(self):
        with self.assertRaises(mlir.ParseError) as caught:
            mlir.parse('#map = affine_map<(d0) -> (d0)>\nmodule {\n}\n', "bad.mlir")
        self.assertIn("bad.mlir:1: only location aliases", str(caught.exception))

    def test_comment_lines_are_skipped(self):
        # A file that opens with `//` lines (a test input's description),
        # with comments between ops and a `//` inside a string.
        text = ("// what this graph is\n// and why\n" +
                MODULE.replace('coreai.model = "m"', 'coreai.model = "m//n"')
                      .replace("    return", "    // the results\n    return"))
        module = mlir.parse(text, "c.mlir")
        self.assertEqual(module.attrs["coreai.model"], "m//n")
        self.assertEqual(module.functions[0].returned, ["%0", "%1#1"])
        # The line of an op counts the comment lines.
        self.assertEqual(module.functions[0].ops[0].line, 5)

    def test_unterminated_location(self):
        with self.assertRaises(mlir.ParseError) as caught:
            mlir.parse('module {\n} loc("a.pt2":0:0\n', "bad.mlir")
        self.assertIn("unterminated location", str(caught.exception))


def one_op(placement, results=1, function_attrs=""):
    """A module of one op with `placement` on it (and the function's attributes)."""
    names = "%0" if results == 1 else "%%0:%d" % results
    types = ", ".join(["tensor<4xf32>"] * results)
    return ('module {\n func.func @f(%%a: tensor<4xf32>) -> (tensor<4xf32>)%s {\n'
            '  %s = "torch.aten.neg"(%%a) {%s} : (tensor<4xf32>) -> (%s)\n'
            '  return %%a : tensor<4xf32>\n }\n}\n'
            % (function_attrs, names, placement, types))


class Placements(unittest.TestCase):
    def placements(self, text, results=1):
        op = mlir.parse(one_op("coreai.placement = " + text, results), "p.mlir").functions[0].ops[0]
        return [op.placement(j) for j in range(results)]

    def refusal(self, text):
        with self.assertRaises(mlir.ParseError) as caught:
            mlir.parse(text, "p.mlir")
        return str(caught.exception)

    def test_each_kind(self):
        P = mlir.Placement
        self.assertEqual(self.placements("[#coreai.heap<offset = 1024, size = 16>]"),
                         [P("heap", offset=1024, size=16)])
        self.assertEqual(self.placements("[#coreai.heap<offset = 0, size = 16, in_place = 1>]"),
                         [P("heap", offset=0, size=16, in_place=1)])
        self.assertEqual(self.placements("[#coreai.lent<output = 0, offset = 64, size = 16>]"),
                         [P("lent", output=0, offset=64, size=16)])
        self.assertEqual(self.placements("[#coreai.lent<output = 2, offset = 0, size = 16, in_place = 0>]"),
                         [P("lent", output=2, offset=0, size=16, in_place=0)])
        self.assertEqual(self.placements("[#coreai.output<0>]"), [P("output", output=0)])
        self.assertEqual(self.placements("[#coreai.state<arg = 3>]"), [P("state", arg=3)])
        self.assertEqual(self.placements("[#coreai.none]"), [mlir.NOWHERE])
        op = mlir.parse(one_op("coreai.kernel = 2 : i64, coreai.placement = [#coreai.fused<kernel = 2>]"),
                        "p.mlir").functions[0].ops[0]
        self.assertEqual((op.kernel, op.placement(0)), (2, P("fused", kernel=2)))

    def test_one_entry_per_result(self):
        self.assertEqual(self.placements("[#coreai.none, #coreai.heap<offset = 0, size = 16>]", results=2),
                         [mlir.NOWHERE, mlir.Placement("heap", offset=0, size=16)])

    def test_plan_summary(self):
        plan = ('#coreai.plan<heap = 3072, lower_bound = 3072, alignment = 64, buffers = 12, algorithm = "best", '
                'optimal = true, in_place_saved = 0, borrowed_bytes = 100, reordered = false>')
        function = mlir.parse(one_op("", function_attrs=" attributes {coreai.plan = %s}" % plan)).functions[0]
        self.assertEqual(function.attrs["coreai.plan"], {
            "heap": 3072, "lower_bound": 3072, "alignment": 64, "buffers": 12, "algorithm": "best",
            "optimal": True, "in_place_saved": 0, "borrowed_bytes": 100, "reordered": False})
        fused = plan.replace("reordered = false>", "reordered = true, kernels = 3, fused_bytes = 4096>")
        function = mlir.parse(one_op("", function_attrs=" attributes {coreai.plan = %s}" % fused)).functions[0]
        self.assertEqual((function.attrs["coreai.plan"]["kernels"], function.attrs["coreai.plan"]["fused_bytes"]),
                         (3, 4096))

    def test_fused_result_outside_its_kernel_is_refused(self):
        text = one_op("coreai.kernel = 1 : i64, coreai.placement = [#coreai.fused<kernel = 2>]")
        self.assertIn("p.mlir:3: 'torch.aten.neg' (%0) result 0: #coreai.fused<kernel = 2> stays inside kernel 2, "
                      "but the op is not in that kernel ('coreai.kernel' is 1)", self.refusal(text))
        text = one_op("coreai.placement = [#coreai.fused<kernel = 0>]")
        self.assertIn("but the op is not in that kernel ('coreai.kernel' is absent)", self.refusal(text))
        self.assertIn("#coreai.fused needs kernel; unknown: id",
                      self.refusal(one_op("coreai.kernel = 0 : i64, coreai.placement = [#coreai.fused<id = 0>]")))
        self.assertIn("#coreai.fused's kernel = -1 is not a non-negative integer",
                      self.refusal(one_op("coreai.placement = [#coreai.fused<kernel = -1>]")))

    def test_kernel_ids(self):
        for bad in ("-1 : i64", "true", "1.5", '"1"'):
            self.assertIn("p.mlir:3: 'torch.aten.neg' (%0): 'coreai.kernel' must be a non-negative integer",
                          self.refusal(one_op("coreai.kernel = " + bad)), bad)

    def test_kernel_ops_are_contiguous(self):
        ops = ['%0 = "torch.aten.neg"(%a) {coreai.kernel = 4 : i64} : (tensor<4xf32>) -> tensor<4xf32>',
               '%1 = "torch.aten.neg"(%0) {coreai.kernel = 4 : i64} : (tensor<4xf32>) -> tensor<4xf32>',
               '%2 = "torch.aten.neg"(%1) : (tensor<4xf32>) -> tensor<4xf32>',
               '%3 = "torch.aten.neg"(%2) {coreai.kernel = 4 : i64} : (tensor<4xf32>) -> tensor<4xf32>']

        def module(body):
            return ('module {\n func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>) {\n'
                    + "".join("  %s\n" % line for line in body) + '  return %a : tensor<4xf32>\n }\n}\n')
        function = mlir.parse(module(ops[:3]), "p.mlir").functions[0]
        self.assertEqual([op.kernel for op in function.ops], [4, 4, None])
        self.assertIn("p.mlir:6: @f: 'torch.aten.neg' (%3) is in kernel 4, whose ops are not contiguous: the "
                      "kernel's op at line 4 is followed by ops outside it", self.refusal(module(ops)))

    def test_old_arrays_are_refused(self):
        for old in ("coreai.offsets = array<i64: 0>, coreai.sizes = array<i64: 16>", "coreai.sizes = array<i64: 16>",
                    "coreai.in_place = array<i64: 0>", "coreai.output = array<i64: 0>",
                    "coreai.state = array<i64: 1>", "coreai.borrow = array<i64: -1>"):
            name = old.split(" = ")[0]
            self.assertIn("p.mlir:3: 'torch.aten.neg' (%%0): '%s' is the old placement form: "
                          "re-plan with this coreai-plan" % name, self.refusal(one_op(old)))

    def test_old_plan_dictionary_is_refused(self):
        text = one_op("", function_attrs=" attributes {coreai.plan = {heap = 64 : i64}}")
        self.assertIn("p.mlir:2: @f: this 'coreai.plan' is the old dictionary form", self.refusal(text))

    def test_wrong_count(self):
        text = one_op("coreai.placement = [#coreai.heap<offset = 0, size = 16>, #coreai.output<0>]")
        self.assertIn("p.mlir:3: 'torch.aten.neg' (%0): 'coreai.placement' must have one entry per result (1), "
                      "it has 2", self.refusal(text))
        text = one_op("coreai.placement = [#coreai.none]", results=2)
        self.assertIn("must have one entry per result (2), it has 1", self.refusal(text))
        self.assertIn("'coreai.placement' must be a list", self.refusal(one_op("coreai.placement = #coreai.none")))

    def test_unknown_kind(self):
        text = one_op("coreai.placement = [#coreai.arena<offset = 0, size = 16>]")
        self.assertIn("p.mlir:3: 'torch.aten.neg' (%0) result 0: #coreai.arena is not a placement "
                      "(#coreai.heap, #coreai.lent, #coreai.output, #coreai.state, #coreai.fused, #coreai.none)", self.refusal(text))
        self.assertIn("0 is not a placement", self.refusal(one_op("coreai.placement = [0]")))

    def test_malformed_fields(self):
        cases = {
            "#coreai.heap<offset = 0>": "#coreai.heap needs offset, size; missing: size",
            "#coreai.heap<offset = 0, size = 16, output = 0>": "needs offset, size; unknown: output",
            "#coreai.lent<offset = 0, size = 16>": "#coreai.lent needs output, offset, size; missing: output",
            "#coreai.state<3>": "#coreai.state takes no value without a name",
            "#coreai.output<0, 1>": "#coreai.output takes no value without a name",
            "#coreai.none<0>": "#coreai.none takes no value without a name",
            # -1 was "none" in the old arrays: here it is #coreai.none.
            "#coreai.heap<offset = -1, size = 16>": "#coreai.heap's offset = -1 is not a non-negative integer",
            '#coreai.state<arg = "3">': "#coreai.state's arg = '3' is not a non-negative integer",
            "#coreai.heap<offset = 0, offset = 8, size = 16>": "#coreai.heap sets 'offset' twice",
            "#coreai.heap<offset = 1.5, size = 16>": "expected an integer, a string, true or false, found '1.5'",
        }
        for placement, message in cases.items():
            self.assertIn(message, self.refusal(one_op("coreai.placement = [%s]" % placement)), placement)


class ParseErrors(unittest.TestCase):
    def error(self, text):
        with self.assertRaises(mlir.ParseError) as caught:
            mlir.parse(text, "bad.mlir")
        return str(caught.exception)

    def test_names_file_and_line(self):
        text = 'module {\n  func.func @f() {\n    %0 = foo\n  }\n}\n'
        self.assertIn("bad.mlir:3:", self.error(text))

    def test_operand_count_must_match_types(self):
        text = ('module {\n func.func @f(%a: tensor<f32>) {\n'
                '  %0 = "x.y"(%a) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n  return\n }\n}\n')
        self.assertIn("bad.mlir:3:", self.error(text))

    def test_missing_return(self):
        self.assertIn("no 'return'", self.error('module {\n func.func @f() {\n }\n}\n'))

    def test_unexpected_text_before_any_token(self):
        # The line of text no token matches, without reading it again.
        self.assertIn("bad.mlir:2: unexpected text '~ module", self.error('\n  ~ module {\n}\n'))

    def test_bad_tensor_type(self):
        self.assertIn("bad tensor type", self.error('module {\n func.func @f(%a: tensor<2xax3xf32>) {\n return\n }\n}\n'))


if __name__ == "__main__":
    unittest.main()

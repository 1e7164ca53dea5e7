"""A reader for the project's generic-form MLIR text (../shared/graphs/README.md).

It reads what the exporter and `coreai-plan plan` print: one module of
`func.func`s whose bodies are single blocks of generic ops
(`%r = "torch.aten.add"(%a, %b) {attrs} : (types) -> type`) over builtin
`tensor<>` types, ending in `return`, with or without the locations
`coreai-plan import` prints (`loc(...)` after arguments, ops and bodies, and
`#locN = loc(...)` definitions around the module), which are skipped. Nothing
else of MLIR is needed, so the executor runs where the C++ build is absent.

The plan's annotations are the `coreai` dialect's attributes
(docs/LIVENESS.md, "Output: attributes in the IR"): each op's
`coreai.placement = [#coreai.heap<offset = 0, size = 64>, #coreai.none]`,
one entry per result, is read into Placements and checked here, at the
op's line, so the engine never sees a malformed one; the function's
`coreai.plan = #coreai.plan<heap = 3072, ...>` becomes a Plan. Fused
kernels: `coreai.kernel = N : i64` on each top-level op of kernel N (its ops
contiguous in the body); a result that never leaves it is
`#coreai.fused<kernel = N>`, on an op of that kernel. A file with
the placement arrays that came before the dialect (`coreai.offsets`, ...)
is refused: read as "no placement", it would run as an unplanned graph.
"""

import bisect
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple


class ParseError(Exception):
    """Bad input, with the file and line it was found at."""


@dataclass(frozen=True)
class TensorType:
    shape: Tuple[Optional[int], ...]  # None for a `?` dimension
    element: str  # 'f32', 'i64', 'i1', ...

    def __str__(self):
        dims = ["?" if d is None else str(d) for d in self.shape]
        return "tensor<" + "".join(d + "x" for d in dims) + self.element + ">"

    @property
    def is_static(self):
        return all(d is not None for d in self.shape)


@dataclass(frozen=True)
class Placement:
    """Where one result lives: `#coreai.heap<...>`, `#coreai.lent<...>`,
    `#coreai.output<k>`, `#coreai.state<arg = a>`, `#coreai.fused<kernel = N>`
    (inside fused kernel N, no planned bytes) or `#coreai.none`."""

    kind: str  # 'heap', 'lent', 'output', 'state', 'fused' or 'none'
    offset: Optional[int] = None  # heap, lent: bytes into the heap or the lending output
    size: Optional[int] = None  # heap, lent: the result's bytes
    output: Optional[int] = None  # lent, output: the function result whose storage it is in
    arg: Optional[int] = None  # state: the state argument whose storage it is in
    in_place: Optional[int] = None  # heap, lent: the operand whose bytes it overwrites
    kernel: Optional[int] = None  # fused: the kernel (`coreai.kernel`) it never leaves


NOWHERE = Placement("none")  # what a result of an op without `coreai.placement` has

# Per kind: the fields it must have and the ones it may have.
_PLACEMENT_FIELDS = {
    "heap": (("offset", "size"), ("in_place",)),
    "lent": (("output", "offset", "size"), ("in_place",)),
    "output": (("output",), ()),
    "state": (("arg",), ()),
    "fused": (("kernel",), ()),
    "none": ((), ()),
}
# The kinds whose one field is written without its name (`#coreai.output<0>`).
_POSITIONAL_FIELD = {"output": "output"}

# The per-result arrays the planner wrote before the dialect.
OLD_PLACEMENT_ATTRIBUTES = ("coreai.offsets", "coreai.sizes", "coreai.in_place", "coreai.output",
                            "coreai.state", "coreai.borrow")


class Plan(dict):
    """`#coreai.plan<heap = ..., ...>`: its fields by name. Fields are not
    checked beyond their syntax: the summary may grow (`kernels`,
    `fused_bytes` where the function has fused kernels), and the executor
    needs only `heap`."""


@dataclass(frozen=True)
class DialectAttribute:
    """`#coreai.NAME<...>` as written, before it is given a meaning."""

    name: str  # 'heap', 'plan', ...
    fields: Dict[str, object]  # `key = value` parameters
    positional: Tuple[object, ...]  # parameters without a key (`#coreai.output<0>`)


@dataclass
class Op:
    name: str  # 'torch.aten.add'
    results: List[str]  # SSA names, '%5' or '%5#1'
    operands: List[str]
    attrs: Dict[str, object]
    operand_types: List[object]
    result_types: List[object]
    line: int

    @property
    def position(self):
        return "line %d" % self.line

    @property
    def kernel(self):
        """The fused kernel (`coreai.kernel = N`) the op belongs to, or None."""
        return self.attrs.get("coreai.kernel")

    def placement(self, j):
        """Where result j lives (NOWHERE when the op has no placement)."""
        placements = self.attrs.get("coreai.placement")
        return placements[j] if placements else NOWHERE

    @property
    def workspace(self):
        """The scratch of the op's kernel (`coreai.workspace`, a heap or lent
        Placement), or None: live while the op (or the fused kernel it ends)
        runs (docs/WORKSPACE.md)."""
        return self.attrs.get("coreai.workspace")

    def set_placement(self, j, placement):
        """Moves result j (negative controls break plans this way)."""
        placements = list(self.attrs.get("coreai.placement") or [NOWHERE] * len(self.results))
        placements[j] = placement
        self.attrs["coreai.placement"] = placements


@dataclass
class Argument:
    name: str  # '%arg3'
    type: object
    attrs: Dict[str, object]


@dataclass
class Function:
    name: str
    arguments: List[Argument]
    result_types: List[object]
    result_attrs: List[Dict[str, object]]
    attrs: Dict[str, object]
    ops: List[Op]
    returned: List[str]
    line: int


@dataclass
class Module:
    attrs: Dict[str, object]
    functions: List[Function] = field(default_factory=list)
    path: str = "<text>"

    def function(self, name):
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(name)


class I64Array(tuple):
    """`array<i64: ...>`, kept apart from `[...]` so the two can be told apart."""


# Whitespace and `//` comments (a test input, a file a user annotated)
# between tokens; a `//` inside a string is part of the string.
_TOKEN = re.compile(
    r"""(?:\s|//[^\n]*)*(?:
      (?P<string>"(?:[^"\\]|\\.)*")
    | (?P<value>%[A-Za-z0-9_$.\-]+(?:\#[0-9]+)?)
    | (?P<symbol>@[A-Za-z0-9_$.\-]+)
    | (?P<alias>\#[A-Za-z_][A-Za-z0-9_$.\-]*)
    | (?P<arrow>->)
    | (?P<number>[-+]?(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?))
    | (?P<ident>[A-Za-z_][A-Za-z0-9_$.]*)
    | (?P<punct>[(){}\[\]<>,:=*?])
    )""",
    re.VERBOSE,
)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{2}|.)")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unescape(body):
    def one(m):
        text = m.group(1)
        if len(text) == 2:
            return chr(int(text, 16))
        return _SIMPLE_ESCAPES.get(text, text)

    return _ESCAPE.sub(one, body)


class _Parser:
    def __init__(self, text, path):
        self.text = text
        self.path = path
        self.pos = 0
        self.peeked = None
        self.last_start = None
        self.newlines = [m.start() for m in re.finditer("\n", text)]

    # -- tokens -----------------------------------------------------------
    def line(self):
        """The line of the next token."""
        start = self.peek()[3]
        return bisect.bisect_left(self.newlines, start) + 1

    def error(self, message, start=None):
        """Fails at `start`, else the token read last (or the next one, before any)."""
        if start is None:
            start = self.last_start if self.last_start is not None else self.peek()[3]
        line = bisect.bisect_left(self.newlines, start) + 1
        raise ParseError("%s:%d: %s" % (self.path, line, message))

    def peek(self):
        if self.peeked is None:
            m = _TOKEN.match(self.text, self.pos)
            if not m:
                rest = re.sub(r"\A(?:\s|//[^\n]*)*", "", self.text[self.pos:])
                if not rest:
                    self.peeked = ("eof", "", len(self.text), len(self.text))
                else:
                    self.error("unexpected text %r" % rest[:20], start=len(self.text) - len(rest))
            else:
                self.peeked = (m.lastgroup, m.group(m.lastgroup), m.end(), m.start(m.lastgroup))
        return self.peeked

    def next(self):
        token = self.peek()
        self.pos = token[2]
        self.last_start = token[3]
        self.peeked = None
        return token

    def accept(self, text):
        if self.peek()[1] == text:
            return self.next()
        return None

    def expect(self, text):
        token = self.next()
        if token[1] != text:
            self.error("expected '%s', found '%s'" % (text, token[1] or "end of file"))
        return token

    def expect_kind(self, kind):
        token = self.next()
        if token[0] != kind:
            self.error("expected a %s, found '%s'" % (kind, token[1] or "end of file"))
        return token[1]

    def skip_ws(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    # -- locations --------------------------------------------------------
    def skip_location(self):
        """Skips a trailing `loc(...)`: where an op came from, not what it does."""
        if self.peek()[:2] != ("ident", "loc"):
            return
        self.next()
        self.skip_ws()
        if self.text[self.pos:self.pos + 1] != "(":
            self.error("expected '(' after 'loc'")
        depth, i = 0, self.pos
        while i < len(self.text):
            c = self.text[i]
            if c == '"':
                m = _STRING.match(self.text, i)
                if not m:
                    self.error("unterminated string in a location")
                i = m.end()
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    self.pos = i + 1
                    return
            i += 1
        self.error("unterminated location")

    def skip_location_aliases(self):
        """Skips `#name = loc(...)` definitions (before and after the module)."""
        while self.peek()[0] == "alias":
            self.next()
            self.expect("=")
            if self.peek()[:2] != ("ident", "loc"):
                self.error("only location aliases ('#name = loc(...)') are supported")
            self.skip_location()

    # -- types ------------------------------------------------------------
    def type(self):
        kind, text = self.next()[:2]
        if kind != "ident":
            self.error("expected a type, found '%s'" % text)
        if text != "tensor":
            return text  # a scalar type (i64, f32, index): kept as its name
        if self.peeked is not None:
            self.error("internal: peeked token before a shape")
        self.skip_ws()
        if self.text[self.pos:self.pos + 1] != "<":
            self.error("expected '<' after 'tensor'")
        end = self.text.find(">", self.pos)
        if end < 0:
            self.error("unterminated tensor type")
        body = self.text[self.pos + 1:end].strip()
        self.pos = end + 1
        parts = body.split("x")
        element = parts[-1]
        shape = []
        for dim in parts[:-1]:
            if dim == "?":
                shape.append(None)
            elif dim.isdigit():
                shape.append(int(dim))
            else:
                self.error("bad tensor type 'tensor<%s>'" % body)
        if not re.fullmatch(r"[a-z]+[0-9]*", element):
            self.error("bad element type in 'tensor<%s>'" % body)
        return TensorType(tuple(shape), element)

    def optional_dictionary(self):
        return self.dictionary() if self.peek()[1] == "{" else {}

    def argument(self):
        """`%name : type {attributes}? loc(...)?` of a function signature."""
        name = self.expect_kind("value")
        self.expect(":")
        ty = self.type()
        attrs = self.optional_dictionary()
        self.skip_location()
        return Argument(name, ty, attrs)

    def result(self):
        """`type {attributes}?` of a function's result list."""
        return self.type(), self.optional_dictionary()

    def type_list(self):
        if not self.accept("("):
            return [self.type()]
        return self.items(")", self.type)

    def items(self, close, item):
        """`item (, item)* close` or just `close`, the opening already read."""
        found = []
        if self.accept(close):
            return found
        while True:
            found.append(item())
            if self.accept(close):
                return found
            self.expect(",")

    # -- attributes -------------------------------------------------------
    def attribute(self):
        kind, text = self.peek()[:2]
        if kind == "string":
            self.next()
            return _unescape(text[1:-1])
        if kind == "number":
            self.next()
            value = float(text) if any(c in text for c in ".eE") and not text.startswith("0x") else int(text, 0)
            if self.accept(":"):
                self.type()
            return value
        if text == "[":
            self.next()
            return self.items("]", self.attribute)
        if text == "{":
            return self.dictionary()
        if kind == "ident":
            if text in ("true", "false"):
                self.next()
                return text == "true"
            if text == "unit":
                self.next()
                return True
            if text == "array":
                self.next()
                self.expect("<")
                self.type()
                values = []
                if self.accept(":"):
                    while True:
                        values.append(int(self.expect_kind("number"), 0))
                        if not self.accept(","):
                            break
                self.expect(">")
                return I64Array(values)
            if text == "tensor" or re.fullmatch(r"(f|bf|i|ui|si)[0-9]+", text):
                return self.type()  # a type attribute (`coreai.result_dtypes = [f16, f32]`): its name
            if text == "dense":
                self.error("dense attributes are not supported")
        if kind == "alias" and text.startswith("#coreai."):
            return self.dialect_attribute()
        self.error("unsupported attribute starting with '%s'" % text)

    def dialect_attribute(self):
        """`#coreai.NAME`, `#coreai.NAME<v, ...>` or `#coreai.NAME<key = v, ...>`."""
        name = self.next()[1][len("#coreai."):]
        fields, positional = {}, []
        if self.text[self.pos:self.pos + 1] != "<":  # MLIR prints no space before '<'
            return DialectAttribute(name, fields, ())
        self.expect("<")
        while True:
            kind, text = self.peek()[:2]
            if kind == "ident" and text not in ("true", "false"):
                self.next()
                self.expect("=")
                if text in fields:
                    self.error("#coreai.%s sets '%s' twice" % (name, text))
                fields[text] = self.dialect_value(name)
            else:
                positional.append(self.dialect_value(name))
            if self.accept(">"):
                return DialectAttribute(name, fields, tuple(positional))
            self.expect(",")

    def dialect_value(self, name):
        """A parameter: an integer, a string, true or false."""
        kind, text = self.next()[:2]
        if kind == "string":
            return _unescape(text[1:-1])
        if kind == "ident" and text in ("true", "false"):
            return text == "true"
        if kind == "number" and re.fullmatch(r"[-+]?[0-9]+", text):
            return int(text)
        self.error("#coreai.%s: expected an integer, a string, true or false, found '%s'" % (name, text))

    def dictionary(self):
        self.expect("{")
        attrs = {}
        if self.accept("}"):
            return attrs
        while True:
            kind, key = self.next()[:2]
            if kind == "string":
                key = _unescape(key[1:-1])
            elif kind != "ident":
                self.error("expected an attribute name, found '%s'" % key)
            attrs[key] = self.attribute() if self.accept("=") else True
            if self.accept("}"):
                return attrs
            self.expect(",")

    # -- the plan's annotations ----------------------------------------
    def placements(self, op, start):
        """Checks the op's annotations; its `coreai.placement` becomes Placements."""
        what = "'%s' (%s)" % (op.name, ", ".join(op.results) or "no results")
        for old in OLD_PLACEMENT_ATTRIBUTES:
            if old in op.attrs:
                self.error("%s: '%s' is the old placement form: re-plan with this coreai-plan"
                           % (what, old), start)
        if "coreai.workspace" in op.attrs:
            workspace = self.placement(op.attrs["coreai.workspace"], "%s workspace" % what, start)
            if workspace.kind not in ("heap", "lent") or workspace.in_place is not None:
                self.error("%s: 'coreai.workspace' must be #coreai.heap or #coreai.lent, not in place" % what,
                           start)
            op.attrs["coreai.workspace"] = workspace
        entries = op.attrs.get("coreai.placement")
        if entries is None:
            return
        if not isinstance(entries, list):
            self.error("%s: 'coreai.placement' must be a list, one entry per result" % what, start)
        if len(entries) != len(op.results):
            self.error("%s: 'coreai.placement' must have one entry per result (%d), it has %d"
                       % (what, len(op.results), len(entries)), start)
        op.attrs["coreai.placement"] = [self.placement(entry, "%s result %d" % (what, j), start)
                                        for j, entry in enumerate(entries)]
        for j, placement in enumerate(op.attrs["coreai.placement"]):
            if placement.kind == "fused" and placement.kernel != op.kernel:
                self.error("%s result %d: #coreai.fused<kernel = %d> stays inside kernel %d, but the op is "
                           "not in that kernel ('coreai.kernel' is %s)"
                           % (what, j, placement.kernel, placement.kernel,
                              "absent" if op.kernel is None else op.kernel), start)

    def kernel(self, op, start):
        """`coreai.kernel = N`: the op's fused kernel, a non-negative integer."""
        kernel = op.attrs.get("coreai.kernel")
        if kernel is not None and (type(kernel) is not int or kernel < 0):
            self.error("'%s' (%s): 'coreai.kernel' must be a non-negative integer (the kernel's id in its "
                       "function), got %r" % (op.name, ", ".join(op.results) or "no results", kernel), start)

    def contiguous_kernels(self, name, ops):
        """The ops of one kernel are one run of the body: the runtime launches each kernel once."""
        ended = {}  # kernel -> its last op, once another op followed it
        for previous, op in zip([None] + ops, ops):
            if previous is not None and previous.kernel is not None and previous.kernel != op.kernel:
                ended[previous.kernel] = previous
            if op.kernel in ended:
                raise ParseError("%s:%d: @%s: '%s' (%s) is in kernel %d, whose ops are not contiguous: "
                                 "the kernel's op at line %d is followed by ops outside it"
                                 % (self.path, op.line, name, op.name, ", ".join(op.results) or "no results",
                                    op.kernel, ended[op.kernel].line))

    def placement(self, entry, what, start):
        kinds = ", ".join("#coreai." + k for k in _PLACEMENT_FIELDS)
        if not isinstance(entry, DialectAttribute) or entry.name not in _PLACEMENT_FIELDS:
            shown = "#coreai." + entry.name if isinstance(entry, DialectAttribute) else repr(entry)
            self.error("%s: %s is not a placement (%s)" % (what, shown, kinds), start)
        fields = self.placement_fields(entry, what, start)
        for key, value in fields.items():
            # -1 meant "none" in the old arrays; here a result with no place is #coreai.none.
            if type(value) is not int or value < 0:
                self.error("%s: #coreai.%s's %s = %r is not a non-negative integer"
                           % (what, entry.name, key, value), start)
        return Placement(entry.name, **fields)

    def placement_fields(self, entry, what, start):
        """The entry's fields by name, exactly those its kind has."""
        required, optional = _PLACEMENT_FIELDS[entry.name]
        fields = dict(entry.fields)
        if entry.positional:
            key = _POSITIONAL_FIELD.get(entry.name)
            if key is None or len(entry.positional) != 1 or key in fields:
                self.error("%s: #coreai.%s takes no value without a name" % (what, entry.name), start)
            fields[key] = entry.positional[0]
        missing = [f for f in required if f not in fields]
        unknown = [f for f in fields if f not in required + optional]
        if missing or unknown:
            self.error("%s: #coreai.%s needs %s%s" % (
                what, entry.name, ", ".join(required) or "no fields",
                "; unknown: " + ", ".join(unknown) if unknown else "; missing: " + ", ".join(missing)), start)
        return fields

    def plan(self, function_name, attrs, start):
        """`coreai.plan`, when present, as a Plan."""
        plan = attrs.get("coreai.plan")
        if plan is None:
            return
        if isinstance(plan, dict):
            self.error("@%s: this 'coreai.plan' is the old dictionary form: re-plan with this coreai-plan"
                       % function_name, start)
        if not isinstance(plan, DialectAttribute) or plan.name != "plan" or plan.positional:
            self.error("@%s: 'coreai.plan' must be #coreai.plan<key = value, ...>" % function_name, start)
        attrs["coreai.plan"] = Plan(plan.fields)

    # -- structure --------------------------------------------------------
    def module(self):
        self.skip_location_aliases()
        self.expect("module")
        attrs = {}
        if self.accept("attributes"):
            attrs = self.dictionary()
        self.expect("{")
        module = Module(attrs, path=self.path)
        while not self.accept("}"):
            module.functions.append(self.function())
        self.skip_location()
        self.skip_location_aliases()
        if self.peek()[0] != "eof":
            self.error("text after the module")
        return module

    def function(self):
        line, start = self.line(), self.peek()[3]
        self.expect("func.func")
        if self.peek()[1] in ("private", "public", "nested"):
            self.next()
        name = self.expect_kind("symbol")[1:]
        self.expect("(")
        arguments = self.items(")", self.argument)
        result_types, result_attrs = [], []
        if self.accept("->"):
            if self.accept("("):
                for ty, attrs in self.items(")", self.result):
                    result_types.append(ty)
                    result_attrs.append(attrs)
            else:
                result_types.append(self.type())
                result_attrs.append({})
        attrs = self.dictionary() if self.accept("attributes") else {}
        self.plan(name, attrs, start)
        if self.peek()[1] != "{":
            self.skip_location()
            return Function(name, arguments, result_types, result_attrs, attrs, [], [], line)  # a declaration
        self.expect("{")
        ops, returned = [], None
        while True:
            if self.accept("}"):
                break
            if returned is not None:
                self.error("ops after 'return' in @%s" % name)
            if self.peek()[1] in ("return", "func.return"):
                self.next()
                returned = []
                if self.peek()[0] == "value":
                    while True:
                        returned.append(self.expect_kind("value"))
                        if not self.accept(","):
                            break
                    self.expect(":")
                    for _ in returned:
                        self.type()
                        self.accept(",")
                self.skip_location()
                continue
            ops.append(self.op())
        self.skip_location()
        if returned is None:
            self.error("@%s has no 'return'" % name)
        self.contiguous_kernels(name, ops)
        return Function(name, arguments, result_types, result_attrs, attrs, ops, returned, line)

    def op(self):
        line, start = self.line(), self.peek()[3]
        results = []
        if self.peek()[0] == "value":
            while True:
                first = self.expect_kind("value")
                if "#" in first:
                    self.error("a result name cannot carry '#'")
                count = 1
                if self.accept(":"):
                    count = int(self.expect_kind("number"))
                results.extend([first] if count == 1 else ["%s#%d" % (first, i) for i in range(count)])
                if not self.accept(","):
                    break
            self.expect("=")
        kind, name = self.next()[:2]
        if kind != "string":
            self.error("expected an op in generic form (\"dialect.op\"), found '%s'" % name)
        name = _unescape(name[1:-1])
        self.expect("(")
        operands = self.items(")", lambda: self.expect_kind("value"))
        if self.peek()[1] == "(" or self.peek()[1] == "[":
            self.error("ops with regions or successors are not supported")
        attrs = self.dictionary() if self.peek()[1] == "{" else {}
        self.expect(":")
        operand_types = self.type_list()
        self.expect("->")
        result_types = self.type_list()
        self.skip_location()
        if len(operand_types) != len(operands) or len(result_types) != len(results):
            self.error("'%s' has %d operands and %d results but its type lists %d and %d"
                       % (name, len(operands), len(results), len(operand_types), len(result_types)))
        op = Op(name, results, operands, attrs, operand_types, result_types, line)
        self.kernel(op, start)
        self.placements(op, start)
        return op


def parse(text, path="<text>"):
    """The module in `text`; ParseError names the file and line of a problem."""
    return _Parser(text, path).module()


def parse_file(path):
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ParseError("%s: cannot read: %s" % (path, e))
    return parse(text, path)

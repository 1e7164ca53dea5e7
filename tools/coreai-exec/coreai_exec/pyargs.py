"""`coreai.args` and symbolic shapes: Python reprs read without eval().

`coreai.args` is the Python repr of an ATen call's arguments with each tensor
shown as `T` ("(T, [None, None, T], T)", "(T, dtype=torch.float32)"),
symbolic sizes as sympy expressions ("[1, s58, 64]"). The text is parsed with
`ast` and only literals, names the exporter prints, arithmetic on integers
and `device(type=...)` are accepted, so a graph cannot run code.
"""

import ast
import math
import operator


class ArgsError(Exception):
    pass


class TensorSlot:
    """The `T` at one position: replaced by the next operand."""


class Device:
    """`device(type='cpu')` as exported: the executor substitutes its own."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return "device(%r)" % self.text


class TorchName:
    """`torch.float32`, `torch.strided`, ...: resolved by the caller."""

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, TorchName) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "torch." + self.name


def _floor_div(a, b):
    return a // b


_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: _floor_div,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_FUNCTIONS = {
    "Max": max,
    "Min": min,
    "floor": math.floor,
    "ceiling": math.ceil,
    "FloorDiv": _floor_div,
    "Mod": operator.mod,
}
_CONSTANTS = {"None": None, "True": True, "False": False, "inf": math.inf, "nan": math.nan}


class _Evaluator:
    def __init__(self, symbols):
        self.symbols = symbols

    def value(self, node):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (int, float, str, bool)) or node.value is None:
                return node.value
        elif isinstance(node, ast.Name):
            if node.id == "T":
                return TensorSlot()
            if node.id in _CONSTANTS:
                return _CONSTANTS[node.id]
            if node.id in self.symbols:
                return self.symbols[node.id]
            raise ArgsError("unbound symbol '%s'" % node.id)
        elif isinstance(node, (ast.List, ast.Tuple)):
            items = [self.value(e) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.value(node.operand)
            if isinstance(operand, (int, float)) and not isinstance(operand, bool):
                return -operand if isinstance(node.op, ast.USub) else operand
        elif isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = self.value(node.left), self.value(node.right)
            if all(isinstance(v, int) and not isinstance(v, bool) for v in (left, right)):
                return _BINARY[type(node.op)](left, right)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch":
            return TorchName(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [self.value(a) for a in node.args]
            kwargs = {k.arg: self.value(k.value) for k in node.keywords}
            if node.func.id == "device":
                text = kwargs.get("type", args[0] if args else None)
                if isinstance(text, str):
                    return Device(text)
            elif node.func.id in _FUNCTIONS and not kwargs and all(isinstance(a, int) for a in args):
                return _FUNCTIONS[node.func.id](*args)
        raise ArgsError("unsupported expression '%s'" % ast.dump(node)[:80])


def parse_call(text, symbols=None):
    """(positional, keyword) of a `coreai.args` string, `T` as TensorSlot."""
    try:
        tree = ast.parse("f" + text.strip(), mode="eval")
    except SyntaxError as e:
        raise ArgsError("cannot read arguments %r: %s" % (text, e.msg))
    call = tree.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.func.id != "f":
        raise ArgsError("arguments %r are not a parenthesised list" % text)
    evaluator = _Evaluator(symbols or {})
    positional = [evaluator.value(a) for a in call.args]
    keyword = {}
    for k in call.keywords:
        if k.arg is None:
            raise ArgsError("'**' in arguments %r" % text)
        keyword[k.arg] = evaluator.value(k.value)
    return positional, keyword


def eval_int(text, symbols):
    """One integer expression of a symbolic shape ("s58", "2*s58 + 1")."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise ArgsError("cannot read %r: %s" % (text, e.msg))
    value = _Evaluator(symbols).value(tree.body)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgsError("%r is not an integer expression" % text)
    return value


def eval_shape(text, symbols):
    """A `coreai.sym_shapes` entry ("1,s58,64"; "" for a 0-d tensor)."""
    text = text.strip()
    if not text:
        return ()
    return tuple(eval_int(dim, symbols) for dim in _split_top_level(text))


def _split_top_level(text):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def fill_tensors(value, tensors):
    """`value` with each TensorSlot replaced by the next of `tensors` (an iterator)."""
    if isinstance(value, TensorSlot):
        return next(tensors)
    if isinstance(value, list):
        return [fill_tensors(v, tensors) for v in value]
    if isinstance(value, tuple):
        return tuple(fill_tensors(v, tensors) for v in value)
    return value


def count_tensors(value):
    if isinstance(value, TensorSlot):
        return 1
    if isinstance(value, (list, tuple)):
        return sum(count_tensors(v) for v in value)
    return 0

"""The ATen op facts the planner reads (lib/Aten/AtenOpFacts.def, generated
from torch's schemas, and lib/Aten/AtenOpFactsManual.def), read here by
path from the repository so the executor and the planner share one table.

Only what the executor asks is parsed: per (name, overload) the mutated
arguments, the functional twin and the origin (torch or supplement); the
manual list's tags per entry.
"""

import os
import re

ATEN_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "..", "..", "..", "lib", "Aten"))
GENERATED = os.path.join(ATEN_DIR, "AtenOpFacts.def")
MANUAL = os.path.join(ATEN_DIR, "AtenOpFactsManual.def")

_ROW = re.compile(r'^ATEN_OP\((\w+), (\w+), "([^"]*)", "([^"]*)", ([01]), "([^"]*)", ([01]), (\w+)\)$')
_FACT = re.compile(r'^ATEN_FACT\(([\w.]+), "([^"]*)", "((?:[^"\\]|\\.)*)"\)$')


class Argument:
    """`position:name:operand[:kw]` of the table."""

    def __init__(self, text):
        parts = text.split(":")
        self.position, self.name = int(parts[0]), parts[1]
        self.operand = None if parts[2] == "?" else int(parts[2])
        self.keyword_only = len(parts) == 4


class OpFacts:
    def __init__(self, match):
        name, overload, _returns, mutated, random, twin, composite, origin = match.groups()
        self.name, self.overload = name, overload
        self.mutated = [Argument(a) for a in mutated.split(",") if a]
        self.random = random == "1"
        self.twin = tuple(twin.split(".", 1)) if twin else None
        self.composite = composite == "1"
        self.origin = origin
        self.tags = set()

    def is_out_variant(self):
        """Writes exactly one keyword-only `out` and computes its twin."""
        return (self.twin is not None and len(self.mutated) == 1
                and self.mutated[0].name == "out" and self.mutated[0].keyword_only)


def _read(path, pattern):
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith(("ATEN_OP(", "ATEN_FACT(")):
                match = pattern.match(line)
                if match is None:
                    raise ValueError("%s:%d: not a table row: %s" % (path, number, line))
                yield match


_TABLE = None


def table():
    """(name, overload) -> OpFacts, the manual tags applied."""
    global _TABLE
    if _TABLE is None:
        facts = {}
        for match in _read(GENERATED, _ROW):
            op = OpFacts(match)
            facts[(op.name, op.overload)] = op
        for match in _read(MANUAL, _FACT):
            key, tags = match.group(1), match.group(2).split()
            name, _, overload = key.partition(".")
            for op in facts.values():
                if op.name == name and (not overload or op.overload == overload):
                    op.tags.update(tags)
        _TABLE = facts
    return _TABLE


def lookup(name, overload):
    return table().get((name, overload or "default"))


def writes_self(name, overload):
    """True for in-place ops (`add_`, `copy_`, `index_put_`): they write
    operand 0 (`self`) and return it, and have a functional twin."""
    op = lookup(name, overload)
    return (op is not None and op.twin is not None and len(op.mutated) == 1
            and op.mutated[0].position == 0 and op.mutated[0].operand == 0)


def out_variant(name, overload):
    """The overload of `name` that writes the result of `name.overload` into
    its `out=` argument, or None."""
    for op in table().values():
        if op.name == name and op.is_out_variant() and op.twin == (name, overload):
            return op.overload
    return None

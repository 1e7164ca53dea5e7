#!/usr/bin/python3
"""Writes lib/Aten/AtenOpFacts.def: what torch's operator schemas say about
each ATen op and overload (aliasing, mutation, randomness, functional twin).

Run with Debian's python3-torch (the test test/lit/aten/regenerate.test
compares the checked-in file with a fresh run):

    /usr/bin/python3 scripts/gen-aten-op-facts.py -o lib/Aten/AtenOpFacts.def

Sources: torch._C._jit_get_all_schemas() (the installed torch, 1.13), then
scripts/aten-op-supplement.txt (ops and overloads newer than 1.13, in
torch's schema syntax), both parsed by torch's own schema parser and read
by the same code below. A supplement schema replaces torch's of the same
name and overload.
"""

import argparse
import os
import re
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SUPPLEMENT = os.path.join(HERE, "aten-op-supplement.txt")
COMMAND = "/usr/bin/python3 scripts/gen-aten-op-facts.py -o lib/Aten/AtenOpFacts.def"


def read_supplement(path):
    """(schema, composite) of the supplement, each schema preceded by its
    `#` comment (why and where it comes from; `dispatch:
    CompositeImplicitAutograd` where torch implements it so); a schema
    without one is refused."""
    schemas, comment = [], []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                comment = []
            elif line.startswith("#"):
                comment.append(line)
            else:
                if not comment:
                    sys.exit("%s:%d: schema without a comment saying where it comes from" % (path, number))
                composite = any("dispatch: CompositeImplicitAutograd" in c for c in comment)
                schemas.append((torch._C.parse_schema(line), composite))
                comment = []
    return schemas


def key(schema):
    return (schema.name[len("aten::"):], schema.overload_name or "default")


def mentions_tensor(schema):
    """Ops on tensors: the only ones a graph holds as `torch.aten.*` ops
    (scalar and list arithmetic such as `add.int` is left out)."""
    return any("Tensor" in str(a.type) for a in list(schema.arguments) + list(schema.returns))


def operand_count(type_text):
    """How many IR operands an argument of this type gives: fixed (0 or 1)
    or None when it depends on the call (optional tensors, lists)."""
    if type_text == "Tensor":
        return 1
    if "Tensor" in type_text:
        return None
    return 0


def fixed_operand(schema, position):
    """The IR operand index of argument `position` when it does not depend
    on the call: counted from the front when every tensor argument before
    it is a plain Tensor, else from the back (negative) when every one
    after it is; `?` otherwise."""
    counts = [operand_count(str(a.type)) for a in schema.arguments]
    if counts[position] != 1:
        return "?"
    before, after = counts[:position], counts[position + 1:]
    if None not in before:
        return str(sum(before))
    if None not in after:
        return str(-1 - sum(after))
    return "?"


def argument_ref(schema, position):
    """`position:name:operand[:kw]` (lib/Aten/OpFacts.cpp reads it)."""
    argument = schema.arguments[position]
    text = "%d:%s:%s" % (position, argument.name, fixed_operand(schema, position))
    return text + (":kw" if argument.kwarg_only else "")


def alias_sets(argument):
    info = argument.alias_info
    return set(info.before_set) if info is not None else set()


def return_alias_sets(schema, index):
    """The alias sets of return `index`. A list's (`Tensor(a)[]`) sit on its
    element type, which the Python binding does not show: read from the
    schema's text."""
    sets = alias_sets(schema.returns[index])
    if sets:
        return sets
    returns = str(schema).rsplit(") -> ", 1)[1]
    if returns.startswith("("):
        returns = returns[1:-1]
    match = re.match(r"\w+\(([\w|]+)!?\)", returns.split(", ")[index])
    return set(match.group(1).split("|")) if match else set()


def results_field(schema):
    """Per return: `-` a fresh tensor, `n` not a tensor, or the argument it
    aliases (`Tensor(a)` like that argument); `[]` for a list of them."""
    entries = []
    for index, ret in enumerate(schema.returns):
        type_text = str(ret.type)
        is_list = type_text.startswith("List[")
        if "Tensor" not in type_text:
            entry = "n"
        else:
            sets = return_alias_sets(schema, index)
            aliased = [i for i, a in enumerate(schema.arguments) if sets & alias_sets(a)]
            entry = argument_ref(schema, aliased[0]) if aliased else "-"
        entries.append(entry + ("[]" if is_list else ""))
    return ",".join(entries)


def mutated_field(schema):
    return ",".join(argument_ref(schema, i) for i, a in enumerate(schema.arguments)
                    if a.alias_info is not None and a.alias_info.is_write)


def signature(schema, drop_out=False):
    """Argument names, types (alias annotations and defaults left out) and
    keyword-onliness: what an in-place or out= variant shares with its
    functional twin."""
    return [(a.name, str(a.type), a.kwarg_only) for a in schema.arguments if not (drop_out and a.is_out)]


def is_in_place_name(name):
    if name.startswith("__") and name.endswith("__"):
        return name.startswith("__i")
    return name.endswith("_")


def functional_name(name):
    if name.startswith("__i") and name.endswith("__"):
        return "__" + name[3:]
    return name[:-1]


def is_functional(schema):
    return not any(a.alias_info is not None and a.alias_info.is_write for a in schema.arguments)


def twin_field(schema, by_name):
    """The functional op an in-place (`add_`, `__iand__`) or out= variant
    computes: an overload of the functional name with the same arguments
    (the out= ones left out), the same overload name first."""
    name, overload = key(schema)
    if any(a.is_out for a in schema.arguments):
        wanted, base, drop_out = signature(schema, drop_out=True), name, True
    elif is_in_place_name(name) and not is_functional(schema):
        wanted, base, drop_out = signature(schema), functional_name(name), False
    else:
        return ""
    candidates = [s for s in by_name.get(base, []) if is_functional(s) and s is not schema]
    candidates.sort(key=lambda s: (key(s)[1] != overload, key(s)[1]))
    for candidate in candidates:
        if signature(candidate) == wanted:
            return "%s.%s" % key(candidate)
    return ""


def takes_generator(schema):
    return any("Generator" in str(a.type) for a in schema.arguments)


def qualified(schema):
    return schema.name + ("." + schema.overload_name if schema.overload_name else "")


def is_dispatcher_op(schema):
    """An op of torch's dispatcher (`torch.ops.aten.*`, what graphs hold),
    not a TorchScript builtin (`sort.Tensor` sorting a list in place)."""
    try:
        torch._C._dispatch_has_kernel_for_dispatch_key(qualified(schema), "CompositeImplicitAutograd")
        return True
    except RuntimeError:
        return False


def is_composite(schema):
    """Implemented by a decomposition (CompositeImplicitAutograd): such ops
    may return an operand itself whatever their schema says (`type_as`)."""
    return torch._C._dispatch_has_kernel_for_dispatch_key(qualified(schema), "CompositeImplicitAutograd")


def collect(supplement):
    """(name, overload) -> (schema, origin, composite)."""
    schemas = {}
    for schema in torch._C._jit_get_all_schemas():
        if schema.name.startswith("aten::") and mentions_tensor(schema) and is_dispatcher_op(schema):
            schemas[key(schema)] = (schema, "torch", is_composite(schema))
    for schema, composite in read_supplement(supplement):
        schemas[key(schema)] = (schema, "supplement", composite)
    return schemas


def rows(schemas):
    by_name = {}
    for (name, _), (schema, _, _) in schemas.items():
        by_name.setdefault(name, []).append(schema)
    # torch's convention: an op with a Generator overload draws from the
    # default generator in its others (`rand`, `rand.generator`).
    random_names = {name for name, group in by_name.items() if any(takes_generator(s) for s in group)}
    for (name, overload) in sorted(schemas):
        schema, origin, composite = schemas[(name, overload)]
        yield '(%s, %s, "%s", "%s", %d, "%s", %d, %s)' % (
            name, overload, results_field(schema), mutated_field(schema),
            int(name in random_names), twin_field(schema, by_name), int(composite), origin)


HEADER = """\
//===- AtenOpFacts.def - What torch's schemas say about each ATen op -----===//
//
// GENERATED by scripts/gen-aten-op-facts.py from the operator schemas of
// torch {version} and scripts/aten-op-supplement.txt. Do not edit: run
//   {command}
// (test/lit/aten/regenerate.test fails when this file differs from a run).
// Facts no schema states live in AtenOpFactsManual.def.
//
// Scope: every aten:: op of torch's dispatcher with a Tensor argument or
// result ({count} overloads): the importer accepts only ops listed here,
// the effect model treats anything else as unknown. Scalar ops (`add.int`)
// and TorchScript builtins (`sort.Tensor`, a list sorted in place) never
// appear as `torch.aten.*` tensor ops and are left out.
//
// ATEN_OP(name, overload, results, mutated, random, twin, composite, origin)
//   results  per return: `-` a fresh tensor, `n` not a tensor, or the
//            argument it aliases; a trailing `[]` is a list of them
//   mutated  the arguments written (`Tensor(a!)`)
//   argument `position:name:operand[:kw]`: schema position, name, the IR
//            operand it is when that does not depend on the call (negative:
//            from the last operand; `?`: count the call's tensors), `kw`
//            when keyword-only
//   random   1 when some overload of the name takes a Generator
//   twin     for in-place and out= variants: the functional `name.overload`
//            computing the same values, or empty
//   composite 1 when implemented by a decomposition
//            (CompositeImplicitAutograd): the schema's promise of fresh
//            results is not checked by a kernel of its own (`type_as`
//            returns self), so the importer treats them as maybe-aliasing
//   origin   torch or supplement
//
//===----------------------------------------------------------------------===//
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", help="file to write (default: stdout)")
    parser.add_argument("--supplement", default=SUPPLEMENT, help=argparse.SUPPRESS)  # tests
    args = parser.parse_args()
    schemas = collect(args.supplement)
    text = HEADER.format(version=torch.__version__, command=COMMAND, count=len(schemas))
    text += "".join("ATEN_OP%s\n" % row for row in rows(schemas))
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()

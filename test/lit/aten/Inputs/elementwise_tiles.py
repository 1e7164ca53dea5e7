#!/usr/bin/python3
"""Evidence for every elementwise fact of the ATen op table.

The planner writes an op's result over one of its operands (same shape and
dtype, dead afterwards) only where lib/Aten/AtenOpFactsManual.def calls the
op `elementwise` (under its `elementwise_if` conditions) or, for `einsum`,
where the equation reads that operand at the result's own subscripts
(`elementwise_by_equation`). This script runs each such op through torch
the way a tiled kernel would run in place: one flat buffer holds the
operand's bytes; tile after tile, in a shuffled order, the op is computed
from the buffer as it is now and only that tile's positions of the result
are written back. An op whose result element i reads only element i of
the operand ends with the out-of-place result, bit for bit; an op that
reads other elements reads some an earlier tile overwrote.

The call forms, per overload, are in elementwise_samples.py beside this
script. Checked, per run (exit 1 on any failure, every one listed):
  - every allowed (call form, operand) ends bit-identical, in every tile
    size and order;
  - every form a condition or the equation refuses and the sample says
    moves elements (`moves=True`) does NOT: the condition is needed and the
    test can fail;
  - every functional overload the table calls elementwise has at least one
    allowed form with an operand checked ("no evidence for ..."), so the
    table cannot gain a fact without a sample here.

Run by hand (Debian's torch 1.13, CPU):
    /usr/bin/python3 test/lit/aten/Inputs/elementwise_tiles.py [MANUAL.def]
        [--generated AtenOpFacts.def] [--op NAME] [-v]
"""

import argparse
import os
import random
import re
import sys
import warnings

import torch

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from elementwise_samples import NO_SAMPLE, SAMPLES  # noqa: E402

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "..", "..", "..", ".."))
MANUAL = os.path.join(REPO, "lib", "Aten", "AtenOpFactsManual.def")
GENERATED = os.path.join(REPO, "lib", "Aten", "AtenOpFacts.def")

# Tiles of one element catch any element read out of place; wider ones
# catch kernels whose bug only shows across a tile boundary. Each size runs
# in several shuffled orders (a fixed order could happen to be the one a
# wrong fact survives, e.g. back to front for a cumulative sum).
TILE_SIZES = (1, 3, 8)
SHUFFLE_SEEDS = (0, 1, 2)

# ---------------------------------------------------------------------------
# The table

FACT_ROW = re.compile(r'^ATEN_FACT\(([\w.]+), "([^"]*)", "((?:[^"\\]|\\.)*)"\)$')
OP_ROW = re.compile(r'^ATEN_OP\((\w+), (\w+), "[^"]*", "([^"]*)",')
ELEMENTWISE_TAGS = ("elementwise", "elementwise_by_equation")


class Condition:
    """`elementwise_if=ARG@POS:V|V`: ARG as a keyword, or at positional
    index POS (`kw`: keyword-only), is literally one of the values
    (`absent`: not given)."""

    def __init__(self, text):
        argument, _, rest = text.partition("@")
        position, _, values = rest.partition(":")
        if not argument or not values or not (position == "kw" or position.isdigit()):
            raise ValueError("malformed condition '%s'" % text)
        self.argument = argument
        self.position = None if position == "kw" else int(position)
        self.values = set(values.split("|"))

    def holds(self, form):
        return form.literal(self.argument, self.position) in self.values


class Row:
    """One ATEN_FACT line: its key (`name` or `name.overload`) and tags."""

    def __init__(self, key, tags, line):
        self.key, self.line = key, line
        self.name, _, self.overload = key.partition(".")
        self.tags = set()
        self.conditions = []
        for tag in tags.split():
            if tag.startswith("elementwise_if="):
                self.conditions.append(Condition(tag[len("elementwise_if="):]))
            else:
                self.tags.add(tag)

    def elementwise(self):
        return any(tag in self.tags for tag in ELEMENTWISE_TAGS)

    def covers(self, name, overload):
        return self.name == name and self.overload in ("", overload)


def read_rows(path):
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if line.startswith("ATEN_FACT("):
                match = FACT_ROW.match(line.rstrip("\n"))
                try:
                    if match is None:
                        raise ValueError("not a fact row")
                    rows.append(Row(match.group(1), match.group(2), number))
                except ValueError as error:
                    raise ValueError("%s:%d: %s" % (path, number, error))
    return rows


def read_functional_overloads(path):
    """name -> overloads that write nothing (out= variants are never
    planned ops: the importer refuses them)."""
    overloads = {}
    with open(path) as f:
        for line in f:
            match = OP_ROW.match(line)
            if match:
                name, overload, mutated = match.groups()
                if not mutated:
                    overloads.setdefault(name, []).append(overload)
    return overloads


class Facts:
    """What every row covering one overload says, together (the C++ reader
    applies a `name` row and a `name.overload` row alike)."""

    def __init__(self, rows, name, overload):
        covering = [row for row in rows if row.covers(name, overload)]
        self.tags = set().union(*(row.tags for row in covering))
        self.conditions = [c for row in covering for c in row.conditions]

    def allows(self, form, operand):
        """Whether the planner may write the result over operand `operand`."""
        if "elementwise" in self.tags:
            return all(condition.holds(form) for condition in self.conditions)
        # elementwise_by_equation: the einsum equation is the first argument.
        if not form.args or not isinstance(form.args[0], str):
            return False
        equation = parse_einsum(form.args[0])
        return (equation is not None and not equation.sums()
                and equation.reads_at_result_index(operand))


# ---------------------------------------------------------------------------
# einsum equations, as lib/Aten/Einsum.cpp reads them


class Equation:
    def __init__(self, operands, result):
        self.operands, self.result = operands, result

    def sums(self):
        return any(label not in self.result for term in self.operands for label in term)

    def reads_at_result_index(self, k):
        return (k < len(self.operands) and self.operands[k] == self.result
                and len(set(self.result)) == len(self.result))


def parse_einsum_term(term):
    labels = []
    while term:
        if term.startswith("..."):
            if "..." in labels:
                return None
            labels.append("...")
            term = term[3:]
            continue
        c, term = term[0], term[1:]
        if c == " ":
            continue
        if not c.isalpha():
            return None
        labels.append(c)
    return labels


def parse_einsum(text):
    """Einsum.cpp's parser: None for what it refuses; an implicit result is
    the ellipsis, then the letters used once, alphabetically."""
    inputs, arrow, output = text.strip().strip("'\"").partition("->")
    operands = [parse_einsum_term(term) for term in inputs.split(",")]
    if any(term is None for term in operands):
        return None
    if arrow:
        result = parse_einsum_term(output)
        if result is None or len(set(result)) != len(result):
            return None
    else:
        letters = [label for term in operands for label in term if label != "..."]
        result = (["..."] if any("..." in term for term in operands) else []) + \
            sorted(label for label in set(letters) if letters.count(label) == 1)
    if any(all(label not in term for term in operands) for label in result):
        return None
    return Equation(operands, result)


# ---------------------------------------------------------------------------
# Running one call form


def flatten_results(value):
    """The tensor results of a call, in order (lists and tuples flattened)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in flatten_results(item)]
    return []


def shares_memory(tensor, others):
    ptr = tensor.storage().data_ptr()
    return any(other.storage().data_ptr() == ptr for other in others)


def row_major(tensor):
    return tensor.contiguous().reshape(-1)


def in_stride_order(tensor):
    """A dense tensor's elements in the order its strides put them in memory
    (a channels_last copy of NCHW: NHWC); None when it is not dense."""
    dims = sorted(range(tensor.dim()), key=lambda d: -tensor.stride(d))
    in_memory = tensor.permute(dims)
    return in_memory.reshape(-1) if in_memory.is_contiguous() else None


def layouts_of(result, inputs):
    """The orders a kernel may store the result in: position p of the flat
    tensor a layout returns is what it writes at storage position p.
    Row-major, as every planned tensor; and where torch returns a fresh
    result laid out otherwise (a channels_last copy, an einsum's permuted
    product), the order of its own strides, which a graph records and a
    runtime may keep. A view of an input writes nothing itself; were it
    planned as a result, it would be a row-major copy."""
    layouts = [("row-major", row_major)]
    if not shares_memory(result, inputs) and not result.is_contiguous() \
            and in_stride_order(result) is not None:
        layouts.append(("stride order", in_stride_order))
    return layouts


def same_bytes(a, b):
    """Bit for bit, NaNs included (torch.equal says NaN != NaN)."""
    return a.dtype == b.dtype and a.shape == b.shape and \
        a.contiguous().numpy().tobytes() == b.contiguous().numpy().tobytes()


def tiles(count, size, seed):
    """Slices of `size` consecutive storage positions, in a shuffled order."""
    order = [slice(start, min(start + size, count)) for start in range(0, count, size)]
    random.Random(seed).shuffle(order)
    return order


def run_in_place(form, operands, place, layout, size, seed):
    """Writes result `place[0]` over operand `place[1]` tile by tile, each
    tile stored in `layout`; returns the buffer at the end, or a string
    saying why it could not go on (the op refused the buffer, or the
    result changed shape)."""
    result_index, operand_index = place
    target = operands[operand_index]
    buffer = target.clone().reshape(-1)  # the operand's storage, contiguous
    for tile in tiles(buffer.numel(), size, seed):
        now = list(operands)
        now[operand_index] = buffer.view(target.shape)
        try:
            result = flatten_results(form.call(now))[result_index]
        except (RuntimeError, IndexError) as error:
            return "the op refused the partly written buffer: %s" % str(error).split("\n")[0]
        if result.shape != target.shape:
            return "the result's shape changed to %s" % list(result.shape)
        stored = layout(result)
        if stored is None:
            return "the result is no longer dense"
        buffer[tile] = stored[tile].clone()
    return buffer


class Outcome:
    """What happened to one (form, result, operand) over every layout and
    tile order."""

    def __init__(self, form, place, allowed):
        self.form, self.place, self.allowed = form, place, allowed
        self.tiles = 0
        self.first_miss = None  # (layout, size, seed, why) of the first miss

    def where(self):
        result_index, operand_index = self.place
        results = "" if result_index == 0 else " (result %d)" % result_index
        return "%s%s over operand %d" % (self.form.describe(), results, operand_index)

    def miss(self):
        layout, size, seed, why = self.first_miss
        return "%s, tiles of %d, shuffle %d: %s" % (layout, size, seed, why)


def check_operand(form, operands, result, place, allowed):
    """Runs every layout, tile size and shuffle; an allowed operand must end
    bit-identical in all of them, a refused one that moves elements must
    miss in one at least."""
    outcome = Outcome(form, place, allowed)
    for name, layout in layouts_of(result, operands):
        expected = layout(result).clone()
        for size in TILE_SIZES:
            for seed in SHUFFLE_SEEDS:
                outcome.tiles += -(-expected.numel() // size)
                buffer = run_in_place(form, operands, place, layout, size, seed)
                if isinstance(buffer, str):
                    why = buffer
                elif not same_bytes(buffer, expected):
                    why = "%d of %d elements differ" % (count_differing(buffer, expected),
                                                        buffer.numel())
                else:
                    continue
                if outcome.first_miss is None:
                    outcome.first_miss = (name, size, seed, why)
    return outcome


def count_differing(a, b):
    """Elements whose bytes differ (NaN-aware)."""
    width = a.element_size()
    a_bytes, b_bytes = a.numpy().tobytes(), b.numpy().tobytes()
    return sum(a_bytes[i:i + width] != b_bytes[i:i + width]
               for i in range(0, len(a_bytes), width))


def run_form(form, facts):
    """Every (result, operand) pair of one form the planner could write in
    place: an operand with exactly the result's shape and dtype."""
    operands = form.operands()
    try:
        results = flatten_results(form.call(operands))
    except RuntimeError as error:
        raise SampleError("%s: torch refuses the call: %s"
                          % (form.describe(), str(error).split("\n")[0]))
    again = flatten_results(form.call(operands))
    if len(again) != len(results) or not all(map(same_bytes, results, again)):
        raise SampleError("%s: two calls on the same operands differ" % form.describe())
    outcomes = []
    for result_index, result in enumerate(results):
        for operand_index, operand in enumerate(operands):
            if operand.shape == result.shape and operand.dtype == result.dtype:
                allowed = facts.allows(form, operand_index)
                outcomes.append(check_operand(form, operands, result,
                                              (result_index, operand_index), allowed))
    return outcomes


class SampleError(Exception):
    """A sample this script cannot use: a mistake here, not in the table."""


# ---------------------------------------------------------------------------
# Judging the table


class Report:
    def __init__(self, verbose):
        self.verbose = verbose
        self.failures = []
        self.notes = []
        self.totals = dict(rows=0, evidenced=0, overloads=0, forms=0, refused_forms=0,
                           operands=0, tiles=0, refused_failing=0)


class OpStats:
    """One row's share of the run, for its summary line."""

    def __init__(self):
        self.forms = self.refused_forms = self.operands = self.tiles = 0
        self.refused_failing = 0
        self.allowed_checked = set()  # overloads with an allowed operand checked
        self.failed = set()  # overloads with a failure
        self.details = []  # a line per operand written over (--verbose)


def judge_form(form, facts, stats, report):
    """Runs one form and records what it shows."""
    outcomes = run_form(form, facts)
    refused = [o for o in outcomes if not o.allowed]
    stats.forms += 1
    stats.refused_forms += bool(refused)
    stats.operands += len(outcomes)
    for outcome in outcomes:
        stats.tiles += outcome.tiles
        stats.details.append("  %s %s: %s" % (
            "allowed" if outcome.allowed else "refused", outcome.where(),
            "misses (%s)" % outcome.miss() if outcome.first_miss
            else "ends right in %d tiles" % outcome.tiles))
        held = outcome.first_miss is None
        if outcome.allowed and held:
            stats.allowed_checked.add(form.overload)
        elif outcome.allowed:
            report.failures.append("%s: the table lets it be written in place, but it "
                                   "ends different (%s)" % (outcome.where(), outcome.miss()))
            stats.failed.add(form.overload)
        elif not held:
            stats.refused_failing += 1
        elif not form.moves:
            report.notes.append("%s: refused by the table, though every tile order "
                                "ends right (a conservative fact)" % outcome.where())
    if form.moves and all(outcome.first_miss is None for outcome in outcomes):
        # A sample meant to show that a refusal is needed (or an adversary)
        # that never fails proves nothing, and the test could not fail on it.
        report.failures.append("%s: the sample says it moves elements, yet %s" % (
            form.describe(), "every tile order ends right" if outcomes
            else "no operand has its result's shape and dtype"))
        stats.failed.add(form.overload)


def overloads_of(row, functional):
    if row.overload:
        return [row.overload]
    return functional.get(row.name, [])


def judge_row(row, rows, functional, samples, report):
    """Runs every sample of the row's overloads; returns its summary line."""
    stats = OpStats()
    overloads = overloads_of(row, functional)
    if not overloads:
        report.failures.append("row %s (line %d) names no functional op of the "
                               "generated table" % (row.key, row.line))
        add_totals(report, stats, 0, evidenced=False)
        return "FAIL %s: names no op" % row.key
    for overload in overloads:
        facts = Facts(rows, row.name, overload)
        for form in samples.get((row.name, overload), []):
            try:
                judge_form(form, facts, stats, report)
            except SampleError as error:
                report.failures.append(str(error))
                stats.failed.add(overload)
    missing = [o for o in overloads if o not in stats.allowed_checked | stats.failed
               and "%s.%s" % (row.name, o) not in NO_SAMPLE]
    for overload in missing:
        report.failures.append("no evidence for %s.%s (row %s, line %d): no sample "
                               "form writes it over an operand in place"
                               % (row.name, overload, row.key, row.line))
    exempt = [o for o in overloads if "%s.%s" % (row.name, o) in NO_SAMPLE]
    add_totals(report, stats, len(overloads), evidenced=not missing and not stats.failed)
    verdict = "FAIL" if missing or stats.failed else "ok"
    summary = ("%s %s: %d forms (%d refused, %d operands failing as expected), "
               "%d operands, %d tiles%s" % (
                   verdict, row.key, stats.forms, stats.refused_forms, stats.refused_failing,
                   stats.operands, stats.tiles,
                   "; no sample possible: " + ", ".join(exempt) if exempt else ""))
    return "\n".join([summary] + stats.details if report.verbose else [summary])


def add_totals(report, stats, overloads, evidenced):
    totals = report.totals
    totals["rows"] += 1
    totals["evidenced"] += evidenced
    totals["overloads"] += overloads
    totals["forms"] += stats.forms
    totals["refused_forms"] += stats.refused_forms
    totals["operands"] += stats.operands
    totals["tiles"] += stats.tiles
    totals["refused_failing"] += stats.refused_failing


def check_samples_name_ops(samples, functional, report):
    """A sample for an overload the generated table lacks is a typo here."""
    for name, overload in sorted(samples):
        if overload not in functional.get(name, []):
            report.failures.append("sample for %s.%s: no such functional overload in "
                                   "the generated table" % (name, overload))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manual", nargs="?", default=MANUAL,
                        help="the manual facts table (default: the repository's)")
    parser.add_argument("--generated", default=GENERATED,
                        help="the generated table, for each name's overloads")
    parser.add_argument("--op", action="append", default=[],
                        help="check only the rows of this name (repeatable)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="a line per form and operand written over")
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # deprecations of the forms, not findings
    torch.set_num_threads(1)  # one thread: the same reductions every call

    try:
        rows = read_rows(args.manual)
    except ValueError as error:
        print("FAIL: %s" % error)
        return 1
    functional = read_functional_overloads(args.generated)
    samples = {}
    for form in SAMPLES:
        samples.setdefault((form.name, form.overload), []).append(form)
    report = Report(args.verbose)
    check_samples_name_ops(samples, functional, report)
    tested = [row for row in rows if row.elementwise()
              and (not args.op or row.name in args.op)]
    for row in tested:
        print(judge_row(row, rows, functional, samples, report), flush=True)

    for note in report.notes:
        print("note: " + note)
    t = report.totals
    print("elementwise rows: %d, with evidence: %d; overloads: %d; forms: %d "
          "(%d refused); operands written in place: %d; tiles: %d; refused operands "
          "failing as expected: %d; failures: %d"
          % (t["rows"], t["evidenced"], t["overloads"], t["forms"], t["refused_forms"],
             t["operands"], t["tiles"], t["refused_failing"], len(report.failures)))
    for failure in report.failures:
        print("FAIL: " + failure)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())

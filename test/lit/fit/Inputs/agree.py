"""Checks `fit --json` against the heaps `plan` wrote for the same inputs.

usage: agree.py PLAN.json FIT.json HEAP_TOTAL EXIT_CODE_FILE

Prints, per entry point, the chunk sizes that fit as plan's heaps say
(`@main fits at: none` or `@main fits at: 1, 16; largest S: 16`), and
fails when fit's answer or exit code differs.
"""
import json
import sys

plan = json.load(open(sys.argv[1]))
fit = json.load(open(sys.argv[2]))
budget = int(sys.argv[3])
exit_code = int(open(sys.argv[4]).read().split("=")[-1])

expected = {}
for entry in plan["entries"]:
    fits = expected.setdefault(entry["entry"], [])
    if entry["heap"] <= budget:
        fits.append(entry["chunk"])

got = {e["entry"]: e for e in fit["entries"]}
if sorted(got) != sorted(expected):
    sys.exit("entry points differ: fit %s, plan %s" % (sorted(got), sorted(expected)))
for name in sorted(expected):
    want = sorted(expected[name])
    entry = got[name]
    if entry["fitting"] != want:
        sys.exit("@%s: fit says %s, plan's heaps say %s" % (name, entry["fitting"], want))
    largest = want[-1] if want else None
    if entry["largest_fitting"] != largest:
        sys.exit("@%s: largest %s, expected %s" % (name, entry["largest_fitting"], largest))
    planned = {c["chunk"]: c["heap"] for c in entry["chunks"]}
    heaps = {e["chunk"]: e["heap"] for e in plan["entries"] if e["entry"] == name}
    if planned != heaps:
        sys.exit("@%s: fit planned %s, plan %s" % (name, planned, heaps))
    print("@%s fits at: %s%s" % (name, ", ".join(map(str, want)) or "none",
                                 "; largest S: %d" % largest if want else ""))
all_fit = all(expected.values())
if fit["all_fit"] != all_fit or exit_code != (0 if all_fit else 2):
    sys.exit("all_fit %s, exit code %d; expected %s" % (fit["all_fit"], exit_code, all_fit))
print("agree, exit code %d" % exit_code)

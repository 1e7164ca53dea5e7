"""Compares two plan.json files entry by entry: the same entries, chunk
sizes, buffers (value, live interval, size, offset, op), lower bound and
heap. Locations and file names may differ. Prints one line per entry."""
import json
import sys

KEYS = ("id", "value", "op", "start", "end", "size", "offset", "alignment")


def entries(path):
    plan = json.load(open(path))
    out = {}
    for e in plan["entries"]:
        buffers = [tuple(b.get(k) for k in KEYS) for b in e["buffers"]]
        out[(e["entry"], e["chunk"])] = (e["lower_bound"], e["heap"], buffers)
    return out


a, b = entries(sys.argv[1]), entries(sys.argv[2])
if sorted(a) != sorted(b):
    sys.exit("different entries: %s vs %s" % (sorted(a), sorted(b)))
for key in sorted(a):
    if a[key] != b[key]:
        sys.exit("%s S=%s differs: lower bound %s/%s, heap %s/%s, %d/%d buffers"
                 % (key[0], key[1], a[key][0], b[key][0], a[key][1], b[key][1],
                    len(a[key][2]), len(b[key][2])))
    print("same %s S=%s: %d buffers, lower bound %d, heap %d"
          % (key[0], key[1], len(a[key][2]), a[key][0], a[key][1]))

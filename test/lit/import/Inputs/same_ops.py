"""Compares the ops of two MLIR files in the graphs' generic form, line by
line: op name, operands, every coreai.* attribute and the types. Prints the
number of ops that are the same, or the first difference."""
import re
import sys

OP = re.compile(r'"(torch\.aten\.[a-z_0-9]+)"\((.*?)\) (\{.*\}) : (.*?)( loc\(.*\))?$')
ATTR = re.compile(r'(coreai\.[a-z_]+) = ("(?:[^"\\]|\\.)*"|\[[^\]]*\])')


def ops(path):
    out = []
    for line in open(path):
        m = OP.search(line.rstrip("\n"))
        if m:
            out.append((m.group(1), m.group(2), sorted(ATTR.findall(m.group(3))), m.group(4)))
    return out


a, b = ops(sys.argv[1]), ops(sys.argv[2])
if len(a) != len(b):
    sys.exit("%d ops against %d" % (len(a), len(b)))
for i, (x, y) in enumerate(zip(a, b)):
    if x != y:
        sys.exit("op %d differs:\n  %s\n  %s" % (i, x, y))
print("same %d ops" % len(a))

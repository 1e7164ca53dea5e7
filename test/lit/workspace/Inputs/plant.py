"""Moves one op's `coreai.workspace` onto the heap offset of a value's
placement, in a planned file: `plant.py IN OP VALUE OUT` puts the workspace
of the first OP (`_softmax`) at the offset of SSA value VALUE (`%0`)."""
import re
import sys

source, op, value, out = sys.argv[1:]
text = open(source).read()
placed = re.search(r"^\s*%s = .*?coreai\.placement = \[#coreai\.heap<offset = (\d+)" % re.escape(value),
                   text, re.M)
if not placed:
    sys.exit("%s has no heap placement" % value)
line = re.search(r'^.*"torch\.aten\.%s".*$' % re.escape(op), text, re.M)
if not line or "coreai.workspace" not in line.group(0):
    sys.exit("%s has no workspace" % op)
moved = re.sub(r"(coreai\.workspace = #coreai\.heap<offset = )\d+", r"\g<1>" + placed.group(1), line.group(0))
open(out, "w").write(text.replace(line.group(0), moved))

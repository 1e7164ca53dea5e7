#!/usr/bin/env python3
"""Fails when a file holds a byte that is not printable ASCII or a line
break: what coreai-plan printed must never carry a file's binary."""
import sys

data = open(sys.argv[1], "rb").read()
bad = [i for i, b in enumerate(data) if not (32 <= b < 127 or b in b"\n\t")]
if bad:
    sys.exit(f"{sys.argv[1]}: {len(bad)} unprintable bytes, the first at "
             f"{bad[0]}: {data[max(0, bad[0] - 40):bad[0] + 8]!r}")

#!/usr/bin/env python3
"""What `coreai-plan plan X.pte` changed in a program, for the tests:

    compare_programs.py BEFORE.pte AFTER.pte

Through `coreai-plan inspect --json` (on PATH), per arena: whether the
storages are the same (ids, bytes, live ranges, ops, locations), how many
moved, the bytes used before and after; and from the files themselves
whether the data segments after the program (weights) are byte for byte
the same. Exit 1 when anything but offsets and arena sizes differs.
"""
import json
import struct
import subprocess
import sys

KEYS = ("id", "size", "start", "end", "op", "location", "view_count", "value")


def arenas(path):
    out = subprocess.run(["coreai-plan", "inspect", path, "--json"],
                         check=True, capture_output=True, text=True).stdout
    return {e["entry"]: e for e in json.loads(out)["entries"]}


def segments(path):
    data = open(path, "rb").read()
    if data[8:10] != b"eh":
        return b""
    base, size = struct.unpack_from("<QQ", data, 24)
    return data[base:base + size] if base else b""


def main():
    before, after = sys.argv[1], sys.argv[2]
    old, new = arenas(before), arenas(after)
    same = sorted(old) == sorted(new)
    for name in sorted(old):
        a, b = old[name]["buffers"], new[name]["buffers"]
        kept = len(a) == len(b) and all(
            all(x[k] == y[k] for k in KEYS) for x, y in zip(a, b))
        same = same and kept
        moved = sum(x["offset"] != y["offset"] for x, y in zip(a, b))
        used = lambda bs: max([x["offset"] + x["size"] for x in bs] or [0])
        print("@%s: %s storages, %s; %d moved; used %d -> %d bytes" % (
            name, len(a), "the same" if kept else "DIFFERENT", moved,
            used(a), used(b)))
    data = segments(before)
    identical = data == segments(after)
    same = same and identical
    print("segments: %d bytes, %s" % (len(data),
                                      "identical" if identical else "DIFFERENT"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

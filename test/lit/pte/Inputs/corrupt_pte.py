#!/usr/bin/env python3
"""Writes a broken copy of an ExecuTorch program, for the tests of what
coreai-plan refuses:

    corrupt_pte.py truncate IN OUT       half the file
    corrupt_pte.py identifier IN OUT X   bytes 4..7 replaced by X (4 chars)
    corrupt_pte.py root IN OUT           the root table offset past the end
    corrupt_pte.py arena IN OUT OLD NEW  the arena size OLD (the 8 bytes
                                         after an 8-byte 0, the constants'
                                         entry) made NEW
"""
import struct
import sys


def main():
    mode, src, dst = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    if mode == "truncate":
        data = data[:len(data) // 2]
    elif mode == "identifier":
        data[4:8] = sys.argv[4].encode()[:4]
    elif mode == "root":
        data[0:4] = struct.pack("<I", len(data) + 64)
    elif mode == "arena":
        old = struct.pack("<qq", 0, int(sys.argv[4]))
        at = data.find(old)
        if at < 0 or data.find(old, at + 1) >= 0:
            sys.exit("arena size %s not found exactly once" % sys.argv[4])
        data[at:at + 16] = struct.pack("<qq", 0, int(sys.argv[5]))
    else:
        sys.exit("unknown mode " + mode)
    open(dst, "wb").write(bytes(data))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a broken copy of an ExecuTorch program, for the tests of what
coreai-plan refuses:

    corrupt_pte.py truncate IN OUT       half the file
    corrupt_pte.py identifier IN OUT X   bytes 4..7 replaced by X (4 chars)
    corrupt_pte.py root IN OUT           the root table offset past the end
    corrupt_pte.py arena IN OUT OLD NEW  the arena size OLD (the 8 bytes
                                         after an 8-byte 0, the constants'
                                         entry) made NEW
    corrupt_pte.py offset IN OUT M V NEW value V of method M (its index)
                                         placed at offset NEW: a planted
                                         overlap (its offset must be stored,
                                         i.e. not 0)

The offset mode walks the FlatBuffers tables by their field ids (the
format's: Program.execution_plan 1, ExecutionPlan.values 2, EValue.val 1,
Tensor.allocation_info 6, AllocationDetails.memory_offset_low 1).
"""
import struct
import sys


def u32(data, at):
    return struct.unpack_from("<I", data, at)[0]


def field(data, table, field_id):
    """Where field `field_id` of the table at `table` is, or None."""
    vtable = table - struct.unpack_from("<i", data, table)[0]
    slot = 4 + 2 * field_id
    if slot >= struct.unpack_from("<H", data, vtable)[0]:
        return None
    offset = struct.unpack_from("<H", data, vtable + slot)[0]
    return table + offset if offset else None


def deref(data, at):
    return at + u32(data, at)


def vector_item(data, at, index):
    """The table that item `index` of the vector of tables at `at` names."""
    vector = deref(data, at)
    if index >= u32(data, vector):
        sys.exit("index %d out of range" % index)
    return deref(data, vector + 4 + 4 * index)


def plant_offset(data, method, value, new):
    root = deref(data, 0)
    plan = vector_item(data, field(data, root, 1), method)
    evalue = vector_item(data, field(data, plan, 2), value)
    tensor = deref(data, field(data, evalue, 1))
    placement = deref(data, field(data, tensor, 6))
    low = field(data, placement, 1)
    if low is None:
        sys.exit("value %d has no stored offset to change" % value)
    struct.pack_into("<I", data, low, new)


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
    elif mode == "offset":
        plant_offset(data, int(sys.argv[4]), int(sys.argv[5]),
                     int(sys.argv[6]))
    else:
        sys.exit("unknown mode " + mode)
    open(dst, "wb").write(bytes(data))


if __name__ == "__main__":
    main()

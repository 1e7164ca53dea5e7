"""Plants one fault into a manifest written as JSON by flatc: `overlap` moves
a buffer onto another of the same region live at the same time; `outside`
moves a heap buffer past the end of the heap."""
import json
import sys

fault, source, target = sys.argv[1:]
manifest = json.load(open(source))


def region(b):
    return (b.get("region", "Heap"), b.get("region_index", 0))


def live_together(a, b):
    return a.get("start", 0) < b.get("end", 0) and b.get("start", 0) < a.get("end", 0)


def plant(entry):
    buffers = [b for b in entry.get("buffers", []) if b.get("size", 0) > 0]
    for i, a in enumerate(buffers):
        if fault == "outside" and region(a)[0] == "Heap":
            a["offset"] = entry["heap"]
            return True
        for b in buffers[i + 1:]:
            if (fault == "overlap" and region(a) == region(b) and live_together(a, b)
                    and a.get("offset", 0) != b.get("offset", 0)):
                b["offset"] = a.get("offset", 0)
                return True
    return False


if not any(plant(e) for e in manifest["entries"]):
    sys.exit("no buffer to plant the fault in")
json.dump(manifest, open(target, "w"))

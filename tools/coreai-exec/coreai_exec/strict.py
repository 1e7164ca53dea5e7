"""Strict accounting of the CUDA runtime (`--runtime cuda --strict`): every
byte a call allocates is either planned or named.

A runtime bound to a plan sets up once (the arena, the outputs' and states'
storages, the weights, cuBLAS's persistent workspace, compiled code) and
then calls the function; nothing a call allocates may lie beyond what the
plan holds. Each step of the measured call runs under an *allocation
source*, which reports the allocator's events of that step:

- `CudaHistory`: the CUDA caching allocator's recorded history
  (`torch.cuda.memory._record_memory_history`, its `device_traces`);
- `NoAllocations`: a CPU, which keeps no history (the accounting says the
  measurement is unavailable rather than print zeros);
- `PlantedAllocations`: a source a test feeds with events per step, so the
  accounting itself runs (and fails) without a GPU.

Per step the events are replayed (`alloc` adds a block, `free_completed`
removes it): `allocated` is the most bytes the step's blocks held at once,
results included; `kept` what is still held after it (a library's cache
or a leak). A step may allocate up to its planned workspace (the plan gave
that step those bytes: the kernel took them from the allocator rather than
the arena) and, named apart, the temporaries of results a kernel cannot
write into its slot (no `out=`: `copied_result_bytes`, counted as extra as
the issue asks). Whatever lies beyond is *unplanned*; `--strict` fails at the
first step with an unplanned byte, naming it and the count.
"""

import torch


class StrictError(Exception):
    """A step allocated beyond the plan under --strict (exit 2)."""


def replay(events):
    """(peak bytes held at once by the blocks allocated in `events`, bytes of
    those still held at the end, [sizes of every block allocated])."""
    open_blocks, held, peak, sizes = {}, 0, 0, []
    for event in events:
        if event["action"] == "alloc":
            open_blocks[event["addr"]] = event["size"]
            held += event["size"]
            sizes.append(event["size"])
            peak = max(peak, held)
        elif event["action"] == "free_completed" and event["addr"] in open_blocks:
            held -= open_blocks.pop(event["addr"])
    return peak, held, sizes


class NoAllocations:
    """A device whose allocator keeps no history: nothing is measured."""

    available = False

    def events(self, step_index, call):
        return call(), None


class CudaHistory:
    """The CUDA caching allocator's history around one step."""

    available = True

    def __init__(self, device):
        self.device = device

    def events(self, step_index, call):
        memory = torch.cuda.memory
        torch.cuda.synchronize(self.device)
        memory._record_memory_history("all", context=None, stacks="python", clear_history=True, device=self.device)
        try:
            returned = call()
            torch.cuda.synchronize(self.device)
            trace = memory._snapshot(self.device)["device_traces"][self.device.index]
        finally:
            memory._record_memory_history(None, device=self.device)
        return returned, [{"action": e["action"], "addr": e["addr"], "size": e["size"]} for e in trace
                          if e["action"] in ("alloc", "free_completed")]


class PlantedAllocations:
    """A fake allocator for tests: `planted` maps a step's index (in the
    measured call) to the events it reports; every other step allocates
    nothing."""

    available = True

    def __init__(self, planted):
        self.planted = planted

    def events(self, step_index, call):
        return call(), list(self.planted.get(step_index, []))


class Accounting:
    """The allocations of one measured call, step by step."""

    def __init__(self, source, strict=False):
        self.source, self.strict = source, strict
        self.active = False  # only the measured call (after the warm-up) counts
        self.steps = []  # one record per step of the measured call
        self.setup = {}  # what set-up allocated once, declared: {what: bytes}
        self.index = 0

    def declare(self, what, size):
        self.setup[what] = self.setup.get(what, 0) + int(size)

    def begin_call(self, measured):
        self.active, self.index, self.steps = measured, 0, []

    def run(self, call, where, kind, workspace=0, copied_result_bytes=0):
        """Runs one step (`call()`), accounts for it when the call is the
        measured one, and returns what it returned. `where` names the step
        (its last op and line), `kind` its kernel kind, `workspace` the bytes
        the plan gives it, `copied_result_bytes` the results it returns in
        temporaries of its own that the runtime copies into their slots."""
        if not self.active:
            return call()
        index = self.index
        self.index += 1
        returned, events = self.source.events(index, call)
        if callable(copied_result_bytes):  # known once the step has run
            copied_result_bytes = copied_result_bytes(returned)
        record = {"step": index, "where": where, "kind": kind, "workspace": int(workspace),
                  "copied_result_bytes": int(copied_result_bytes)}
        if events is None:
            record["measured"] = False
            self.steps.append(record)
            return returned
        peak, kept, sizes = replay(events)
        allowed = record["workspace"] + record["copied_result_bytes"]
        record.update(measured=True, allocated=peak, kept=kept, blocks=sizes,
                      unplanned=max(0, peak - allowed), covered_by_workspace=min(peak, record["workspace"]))
        self.steps.append(record)
        if self.strict and record["unplanned"]:
            raise StrictError(describe_unplanned(record))
        return returned

    def summary(self):
        """The call's figures and the report of every allocating step per kind."""
        measured = [s for s in self.steps if s.get("measured")]
        kinds = {}
        for step in measured:
            if not step["allocated"]:
                continue
            kind = kinds.setdefault(step["kind"], {"steps": 0, "allocated_max": 0, "allocated_total": 0,
                                                   "unplanned_steps": 0, "unplanned_max": 0,
                                                   "copied_result_bytes_max": 0, "first": step["where"]})
            kind["steps"] += 1
            kind["allocated_max"] = max(kind["allocated_max"], step["allocated"])
            kind["allocated_total"] += step["allocated"]
            kind["copied_result_bytes_max"] = max(kind["copied_result_bytes_max"], step["copied_result_bytes"])
            if step["unplanned"]:
                kind["unplanned_steps"] += 1
                kind["unplanned_max"] = max(kind["unplanned_max"], step["unplanned"])
        first = next((s for s in measured if s["unplanned"]), None)
        return {"measured": bool(measured) and self.source.available, "steps": len(self.steps),
                "allocating_steps": sum(1 for s in measured if s["allocated"]),
                "allocated_max": max((s["allocated"] for s in measured), default=0),
                "unplanned_bytes": sum(s["unplanned"] for s in measured),
                "unplanned_max": max((s["unplanned"] for s in measured), default=0),
                "unplanned_steps": sum(1 for s in measured if s["unplanned"]),
                "first_unplanned": describe_unplanned(first) if first else None,
                "kept": sum(s["kept"] for s in measured),
                "setup": dict(self.setup), "by_kind": kinds}


def describe_unplanned(step):
    return ("step %d (%s, %s) allocated %d bytes beyond the plan (%d allocated at once in %d block%s; the plan gives "
            "it %d bytes of workspace%s)" % (
                step["step"], step["kind"], step["where"], step["unplanned"], step["allocated"], len(step["blocks"]),
                "" if len(step["blocks"]) == 1 else "s", step["workspace"],
                ", and %d bytes of results copied into their slots are named apart" % step["copied_result_bytes"]
                if step["copied_result_bytes"] else ""))


def report_lines(summary):
    """The per-kind report as text lines."""
    if not summary["measured"]:
        return ["allocations: not measured (this device's allocator keeps no history)"]
    lines = ["allocations of the measured call: %d of %d steps allocate, %d bytes at most in a step; unplanned: %d "
             "bytes in %d steps" % (summary["allocating_steps"], summary["steps"], summary["allocated_max"],
                                    summary["unplanned_bytes"], summary["unplanned_steps"])]
    for kind, figures in sorted(summary["by_kind"].items()):
        lines.append("  %s: %d steps allocate, %d bytes at most (%d of it results copied into their slots), "
                     "%d unplanned at most; first at %s" % (
                         kind, figures["steps"], figures["allocated_max"], figures["copied_result_bytes_max"],
                         figures["unplanned_max"], figures["first"]))
    return lines

"""What a step's real kernels allocate beyond their results, from the CUDA
caching allocator's history.

Around one call the allocator's history is recorded
(`torch.cuda.memory._record_memory_history`, cleared first), and its events
(`_snapshot()["device_traces"]`) are replayed: every `alloc` adds a block,
every `free_completed` (the block reusable again, its stream done with it)
removes one. The blocks still allocated at the end that hold a tensor the
call returned are its results; every other block allocated during the call
is memory the kernels took for themselves: inner values the compiler wrote
to memory (a group it split into several kernels) and its real workspace.
The figures are the allocator's block sizes (it rounds requests up: to 512
bytes for small blocks), so they are what a runtime with this allocator
needs, not the bytes a kernel asked for.

On a CPU there is no such history: `measure` returns None, and the reports
say the measurement is unavailable rather than print a figure.
"""

import torch


def replay(events, result_pointers):
    """The history of one call replayed: {"extra_peak": the most bytes held at
    once by blocks that are not results, "extra_total": the bytes of every
    such block allocated, "extra_blocks": their count, "kept": the bytes of
    those still allocated at the end (a library's cached workspace), "results":
    the bytes of the result blocks}."""
    live = {}  # address -> (bytes, index of its alloc event)
    for index, event in enumerate(events):
        if event["action"] == "alloc":
            live[event["addr"]] = (event["size"], index)
        elif event["action"] == "free_completed":
            live.pop(event["addr"], None)
    results = set()
    for address, (size, index) in live.items():
        if any(address <= pointer < address + size for pointer in result_pointers):
            results.add(index)
    held = peak = total = blocks = 0
    open_blocks = {}
    for index, event in enumerate(events):
        if event["action"] == "alloc" and index not in results:
            open_blocks[event["addr"]] = event["size"]
            held += event["size"]
            total += event["size"]
            blocks += 1
            peak = max(peak, held)
        elif event["action"] == "free_completed" and event["addr"] in open_blocks:
            held -= open_blocks.pop(event["addr"])
    return {"extra_peak": peak, "extra_total": total, "extra_blocks": blocks, "kept": held,
            "results": sum(live[a][0] for a in live if live[a][1] in results)}


class AllocatorHistory:
    """Measures calls on `device` (a torch.device); a no-op off CUDA."""

    def __init__(self, device):
        self.device = device
        self.available = device.type == "cuda"

    def measure(self, call):
        """(what `call()` returned, the replayed history of its allocations
        or None where the allocator keeps none)."""
        if not self.available:
            return call(), None
        memory = torch.cuda.memory
        torch.cuda.synchronize(self.device)
        memory._record_memory_history("all", context=None, stacks="python", clear_history=True,
                                      device=self.device)
        try:
            returned = call()
            torch.cuda.synchronize(self.device)
            events = memory._snapshot(self.device)["device_traces"][self.device.index]
        finally:
            memory._record_memory_history(None, device=self.device)
        tensors = returned if isinstance(returned, (tuple, list)) else [returned]
        pointers = [t.data_ptr() for t in tensors if isinstance(t, torch.Tensor) and t.numel()]
        return returned, replay(events, pointers)

"""ExecuTorch's storage-reuse rules checked in O(n log n + n * live) instead
of over every pair of specs.

ExecuTorch's `Verifier.verify_storage_reuse` (exir/memory_planning.py of the
pinned version) visits every pair of a graph's specs: on a decoder of a few
thousand specs that is most of `to_executorch`'s time (issue 48: 12.9 of
27.3 s on six layers of Qwen3-0.6B's shape). It demands, of the specs it
collects:
1. all or none of them have a `mem_obj_id`;
2. two specs whose bytes overlap (same `mem_id`, inclusive ranges
   `[mem_offset, mem_offset + allocated_memory - 1]`, an empty range
   overlapping nothing) and whose lifetimes overlap (inclusive node
   indices) are allowed only when one is in the other's `storage_base`
   chain;
3. two specs whose bytes overlap have the same `mem_obj_id` (both None
   passes).
The same rules, here: (3) holds exactly when, in each arena, every maximal
run of overlapping byte ranges has one `mem_obj_id` (overlap is what joins
a run), and (2) is found by a sweep over node indices that compares each
spec with the specs still live when it starts.

No ExecuTorch import: specs are anything with TensorSpec's fields.
"""
import heapq


class StorageReuseError(ValueError):
    """A plan that breaks one of the rules; the message names the specs."""


def _describe(spec):
    return (f"mem_id {spec.mem_id} bytes [{spec.mem_offset}, "
            f"{spec.mem_offset + spec.allocated_memory}) lifetime "
            f"{spec.lifetime} mem_obj_id {spec.mem_obj_id}")


def _storage_chain(spec):
    chain = set()
    while spec is not None:
        if id(spec) in chain:
            raise StorageReuseError("a storage_base chain forms a cycle")
        chain.add(id(spec))
        spec = spec.storage_base
    return chain


def _checked(spec):
    if not isinstance(spec.mem_offset, int) or spec.mem_offset < 0:
        raise StorageReuseError(f"a spec has no memory offset: "
                                f"{_describe(spec)}")
    if spec.allocated_memory < 0:
        raise StorageReuseError(f"a spec has negative size: "
                                f"{_describe(spec)}")
    first, last = spec.lifetime
    if first is None or last is None:
        raise StorageReuseError(f"a spec has no lifetime: {_describe(spec)}")
    return spec


def check_memory_objects(specs):
    """Rules 1 and 3."""
    defined = {spec.mem_obj_id is None for spec in specs}
    if len(defined) > 1:
        raise StorageReuseError("specs do not agree on whether mem_obj_id "
                                "is defined")
    by_arena = {}
    for spec in specs:
        if spec.allocated_memory > 0:
            by_arena.setdefault(spec.mem_id, []).append(spec)
    for ranges in by_arena.values():
        ranges.sort(key=lambda spec: spec.mem_offset)
        run_end, run_first = -1, None
        for spec in ranges:
            if spec.mem_offset >= run_end:      # starts a new run
                run_first = spec
            elif spec.mem_obj_id != run_first.mem_obj_id:
                raise StorageReuseError(
                    "specs whose bytes overlap (directly or through others "
                    f"between them) have different mem_obj_ids: "
                    f"{_describe(run_first)}; {_describe(spec)}")
            run_end = max(run_end, spec.mem_offset + spec.allocated_memory)


def check_live_overlaps(specs):
    """Rule 2: no two live specs on the same bytes unless one backs the
    other."""
    order = sorted((spec for spec in specs if spec.allocated_memory > 0),
                   key=lambda spec: spec.lifetime[0])
    live = []       # heap of (last node, sequence, spec)
    for sequence, spec in enumerate(order):
        first, last = spec.lifetime
        while live and live[0][0] < first:
            heapq.heappop(live)
        if last < first:
            continue        # an empty lifetime overlaps nothing
        begin, end = spec.mem_offset, spec.mem_offset + spec.allocated_memory
        for _, _, other in live:
            if other.mem_id != spec.mem_id or \
                    other.mem_offset >= end or \
                    begin >= other.mem_offset + other.allocated_memory:
                continue
            if id(spec) in _storage_chain(other) or \
                    id(other) in _storage_chain(spec):
                continue
            raise StorageReuseError(
                "two live specs on the same bytes: "
                f"{_describe(other)}; {_describe(spec)}")
        heapq.heappush(live, (last, sequence, spec))


def check_storage_reuse(specs, allow_live_overlap=False):
    """The rules on `specs` (each listed once), rule 2 unless
    `allow_live_overlap` (the pass's allow_lifetime_and_storage_overlap);
    raises StorageReuseError on the first break."""
    specs = [_checked(spec) for spec in specs]
    check_memory_objects(specs)
    if not allow_live_overlap:
        check_live_overlaps(specs)

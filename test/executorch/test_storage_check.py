"""python/coreai_plan_executorch/storage_check.py against every pair of
specs (issue 48).

The check replaces ExecuTorch's pairwise `Verifier.verify_storage_reuse`
with a sweep; it must accept and reject exactly the plans that the pairwise
rules do. The pairwise oracle here is ExecuTorch's own classmethods
(`storage_overlap`, `lifetime_overlap`, `mem_obj_id_match`,
`_storage_root_chain`) where ExecuTorch is importable (the test venv), else
the same rules restated (any python3).
"""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))

from coreai_plan_executorch.storage_check import (  # noqa: E402
    StorageReuseError, check_storage_reuse)

try:
    from executorch.exir.memory_planning import Verifier
except ImportError:
    Verifier = None


class Spec:
    """ExecuTorch's TensorSpec where the rules read it."""

    def __init__(self, offset, nbytes, first, last, mem_id=1, obj=None,
                 base=None):
        self.mem_offset = offset
        self.allocated_memory = nbytes
        self.lifetime = [first, last]
        self.mem_id = mem_id
        self.mem_obj_id = obj
        self.storage_base = base

    def __repr__(self):
        return (f"Spec({self.mem_offset}, {self.allocated_memory}, "
                f"{self.lifetime}, mem_id={self.mem_id}, "
                f"obj={self.mem_obj_id})")


def inclusive_overlap(a, b):
    if a[0] > a[1] or b[0] > b[1]:
        return False
    return a[0] <= b[1] and b[0] <= a[1]


def chain(spec):
    found = []
    while spec is not None:
        found.append(spec)
        spec = spec.storage_base
    return found


def pairwise_ok(specs, allow_live_overlap=False):
    """Every pair, as ExecuTorch's Verifier walks them."""
    for i, lhs in enumerate(specs):
        for rhs in specs[i + 1:]:
            if (lhs.mem_obj_id is None) != (rhs.mem_obj_id is None):
                return False
            if Verifier is not None:
                storage = Verifier.storage_overlap(lhs, rhs)
                live = Verifier.lifetime_overlap(lhs, rhs)
                same_object = Verifier.mem_obj_id_match(lhs, rhs)
                backed = lhs in Verifier._storage_root_chain(rhs) or \
                    rhs in Verifier._storage_root_chain(lhs)
            else:
                storage = lhs.mem_id == rhs.mem_id and inclusive_overlap(
                    [lhs.mem_offset,
                     lhs.mem_offset + lhs.allocated_memory - 1],
                    [rhs.mem_offset,
                     rhs.mem_offset + rhs.allocated_memory - 1])
                live = inclusive_overlap(lhs.lifetime, rhs.lifetime)
                same_object = lhs.mem_obj_id == rhs.mem_obj_id
                backed = any(s is lhs for s in chain(rhs)) or \
                    any(s is rhs for s in chain(lhs))
            if not storage:
                continue
            if not allow_live_overlap and live and not backed:
                return False
            if not same_object:
                return False
    return True


def sweep_ok(specs, allow_live_overlap=False):
    try:
        check_storage_reuse(specs, allow_live_overlap)
    except StorageReuseError:
        return False
    return True


def random_plan(generator):
    """A small plan, often broken: few offsets, objects and lifetimes, so
    that overlaps of every kind come up."""
    specs = []
    for _ in range(generator.randint(1, 9)):
        first = generator.randint(0, 8)
        last = first + generator.randint(-1, 4)      # -1: empty lifetime
        base = None
        if specs and generator.random() < 0.2:
            base = generator.choice(specs)
        specs.append(Spec(
            offset=generator.choice([0, 16, 32, 48, 64]),
            nbytes=generator.choice([0, 16, 32, 48]),
            first=first, last=last, mem_id=generator.choice([1, 1, 1, 2]),
            obj=generator.choice([0, 0, 1, 2]), base=base))
    if generator.random() < 0.1:
        specs[-1].mem_obj_id = None
    return specs


class StorageCheckTest(unittest.TestCase):
    def test_against_every_pair(self):
        generator = random.Random(48)
        verdicts = {True: 0, False: 0}
        for _ in range(20000):
            specs = random_plan(generator)
            allow = generator.random() < 0.2
            expected = pairwise_ok(specs, allow)
            self.assertEqual(sweep_ok(specs, allow), expected,
                             f"allow={allow}: {specs}")
            verdicts[expected] += 1
        # Both verdicts must come up often, or the comparison proves little.
        self.assertGreater(min(verdicts.values()), 2000, verdicts)
        print(f"oracle: {'ExecuTorch' if Verifier else 'restated'}; "
              f"{verdicts[True]} accepted, {verdicts[False]} rejected")

    def test_live_overlap_named(self):
        victim = Spec(0, 32, 0, 4, obj=0)
        intruder = Spec(16, 16, 2, 3, obj=0)
        with self.assertRaisesRegex(StorageReuseError, "two live specs"):
            check_storage_reuse([victim, intruder])

    def test_backed_spec_may_overlap_its_base(self):
        base = Spec(0, 32, 0, 4, obj=0)
        check_storage_reuse([base, Spec(16, 16, 2, 3, obj=0, base=base)])

    def test_objects_of_a_run(self):
        # 0 and 2 do not touch, but 1 joins them into one run.
        specs = [Spec(0, 32, 0, 0, obj=0), Spec(16, 32, 1, 1, obj=0),
                 Spec(40, 16, 2, 2, obj=1)]
        with self.assertRaisesRegex(StorageReuseError, "mem_obj_ids"):
            check_storage_reuse(specs)


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""The rules of python/coreai_plan_executorch/placement.py and solver.py on
hand-made specs, with the real coreai-solve ($COREAI_SOLVE) and without
ExecuTorch: any python3 runs it.

The stand-in spec follows ExecuTorch's TensorSpec where planning reads it:
`allocated_memory` is the bytes rounded up to `alignment`, which `realign`
sets; lifetimes are inclusive node indices.
"""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))

from coreai_plan_executorch.placement import (PlanningError,  # noqa: E402
                                              place_specs)
from coreai_plan_executorch.solver import Solver, SolverError  # noqa: E402


class Spec:
    def __init__(self, nbytes, first, last, mem_id=None, base=None,
                 inner=0):
        self.nbytes = nbytes
        self.lifetime = [first, last]
        self.mem_id = mem_id
        self.storage_base = base
        self.storage_base_offset = inner
        self.alignment = 16
        self.shape = (nbytes,)

    def realign(self, alignment):
        self.alignment = alignment
        return self.allocated_memory

    @property
    def allocated_memory(self):
        return -(-self.nbytes // self.alignment) * self.alignment


def solver():
    return Solver(os.environ.get("COREAI_SOLVE"), time_limit_ms=2000)


def live_together(a, b):
    return a.lifetime[0] <= b.lifetime[1] and b.lifetime[0] <= a.lifetime[1]


def backed_by(a, b):
    while a is not None:
        if a is b:
            return True
        a = a.storage_base
    return False


def check_plan(test, specs, placements, sizes, alignment):
    """ExecuTorch's rules, checked here without the planner's code: aligned
    offsets inside the arena, and no two specs live at the same node on the
    same bytes unless one is stored in the other."""
    for spec in specs:
        where = placements[spec]
        test.assertEqual(where.mem_offset % alignment, 0)
        test.assertLessEqual(where.mem_offset + spec.allocated_memory,
                             sizes[where.mem_id])
    for i, a in enumerate(specs):
        for b in specs[i + 1:]:
            pa, pb = placements[a], placements[b]
            share = pa.mem_id == pb.mem_id and \
                pa.mem_offset < pb.mem_offset + b.allocated_memory and \
                pb.mem_offset < pa.mem_offset + a.allocated_memory
            if share and live_together(a, b):
                test.assertTrue(backed_by(a, b) or backed_by(b, a),
                                f"{a.lifetime} and {b.lifetime} overlap")
            if share:
                test.assertEqual(pa.mem_obj_id, pb.mem_obj_id)


class PlacementTest(unittest.TestCase):
    def plan(self, specs, alignment=16, **options):
        placements, sizes, solved, _ = place_specs(
            specs, alignment, solver(), **options)
        check_plan(self, specs, placements, sizes, alignment)
        return placements, sizes, solved

    def test_lifetimes_are_inclusive(self):
        # [0, 3] and [3, 5] are both live at node 3: never the same bytes.
        touching = [Spec(64, 0, 3), Spec(64, 3, 5)]
        _, sizes, _ = self.plan(touching)
        self.assertEqual(sizes, [0, 128])
        apart = [Spec(64, 0, 2), Spec(64, 3, 5)]
        placements, sizes, solved = self.plan(apart)
        self.assertEqual(sizes, [0, 64])
        self.assertTrue(solved[1].optimal)

    def test_sizes_round_up_to_the_alignment(self):
        specs = [Spec(10, 0, 1), Spec(10, 0, 1), Spec(33, 1, 2)]
        placements, sizes, _ = self.plan(specs, alignment=32)
        self.assertEqual([s.allocated_memory for s in specs], [32, 32, 64])
        self.assertEqual(sizes, [0, 128])

    def test_alignment_must_be_a_power_of_two(self):
        with self.assertRaisesRegex(PlanningError, "power of two, got 24"):
            place_specs([Spec(8, 0, 1)], 24, solver())

    def test_each_mem_id_is_its_own_arena(self):
        specs = [Spec(64, 0, 1), Spec(32, 0, 1, mem_id=3),
                 Spec(16, 0, 1, mem_id=3)]
        placements, sizes, _ = self.plan(specs)
        self.assertEqual(sizes, [0, 64, 0, 48])
        self.assertEqual([placements[s].mem_id for s in specs], [1, 3, 3])
        self.assertEqual(place_specs([], 16, solver())[1], [0, 0])

    def test_storage_bases(self):
        base = Spec(256, 0, 6)
        inner = Spec(64, 2, 4, base=base, inner=128)
        nested = Spec(16, 3, 4, base=inner, inner=32)
        other = Spec(64, 1, 5)
        placements, sizes, _ = self.plan([nested, inner, base, other])
        self.assertEqual(placements[inner].mem_offset,
                         placements[base].mem_offset + 128)
        self.assertEqual(placements[nested].mem_offset,
                         placements[base].mem_offset + 160)
        self.assertEqual(sizes, [0, 320])

    def test_storage_base_errors(self):
        base = Spec(64, 0, 4)
        with self.assertRaisesRegex(PlanningError, "does not fit"):
            place_specs([base, Spec(32, 1, 2, base=base, inner=48)], 16,
                        solver())
        with self.assertRaisesRegex(PlanningError, "not aligned to 16"):
            place_specs([base, Spec(16, 1, 2, base=base, inner=8)], 16,
                        solver())
        with self.assertRaisesRegex(PlanningError, "not planned here"):
            place_specs([Spec(16, 1, 2, base=Spec(64, 0, 4))], 16, solver())

    def test_set_aside_bytes_and_padding(self):
        specs = [Spec(64, 0, 1), Spec(64, 1, 2)]
        placements, sizes, solved = self.plan(
            specs, input_sizes=[0, 100], extra_padding=64)
        # 100 bytes set aside (control flow) rounded up to 112, then 128
        # bytes of heap, then the padding.
        self.assertEqual(min(p.mem_offset for p in placements.values()), 112)
        self.assertEqual(sizes, [0, 112 + 128 + 64])

    def test_a_spec_listed_twice_is_placed_once(self):
        spec = Spec(64, 0, 3)
        _, sizes, _ = self.plan([spec, spec, Spec(64, 1, 2)])
        self.assertEqual(sizes, [0, 128])

    def test_empty_specs_take_no_bytes(self):
        specs = [Spec(0, 0, 3), Spec(48, 0, 3)]
        placements, sizes, _ = self.plan(specs)
        self.assertEqual(sizes, [0, 48])

    def test_missing_lifetime(self):
        spec = Spec(16, 0, 1)
        spec.lifetime = [None, None]
        with self.assertRaisesRegex(PlanningError, "no lifetime"):
            place_specs([spec], 16, solver())

    def test_memory_objects_follow_shared_bytes(self):
        specs = [Spec(64, 0, 1), Spec(64, 2, 3), Spec(64, 0, 3)]
        placements, _, _ = self.plan(specs)
        ids = {placements[s].mem_offset: placements[s].mem_obj_id
               for s in specs}
        self.assertEqual(len(set(ids.values())), 2)

    def test_random_specs_follow_the_rules(self):
        generator = random.Random(7)
        for _ in range(30):
            alignment = generator.choice([1, 8, 16, 64])
            specs = []
            # One backed spec per base at most: siblings on the same bytes
            # while both live would be an overlap the input asks for.
            bases = set()
            for _ in range(generator.randint(1, 40)):
                first = generator.randint(0, 30)
                spec = Spec(generator.randint(0, 300), first,
                            first + generator.randint(0, 8),
                            mem_id=generator.choice([None, None, 2]))
                if specs and generator.random() < 0.15:
                    base = generator.choice(specs)
                    if base.storage_base is None and base.nbytes >= 64 and \
                            id(base) not in bases:
                        bases.add(id(base))
                        room = -(-base.nbytes // alignment) * alignment
                        inner = generator.choice(
                            [0] + ([alignment] if alignment + max(
                                alignment, 16) <= room else []))
                        spec = Spec(16, *base.lifetime, base=base,
                                    inner=inner)
                specs.append(spec)
            placements, sizes, solved = self.plan(specs, alignment)
            for mem_id, answer in solved.items():
                self.assertGreaterEqual(answer.heap, answer.lower_bound)


class SolverTest(unittest.TestCase):
    def test_missing_binary(self):
        with self.assertRaisesRegex(SolverError, "not an executable"):
            Solver("/nonexistent/coreai-solve")

    def test_bad_rows_are_refused(self):
        with self.assertRaisesRegex(SolverError, "exited with 1"):
            solver()([(3, 3, 16)], 16)

    def test_negative_time_limit(self):
        with self.assertRaisesRegex(ValueError, "must not be negative"):
            Solver(os.environ.get("COREAI_SOLVE"), time_limit_ms=-1)


if __name__ == "__main__":
    unittest.main(verbosity=2)

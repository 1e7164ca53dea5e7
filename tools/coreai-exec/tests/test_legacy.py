"""One test per mapping of legacy.py: against the op's definition, and
bit for bit against the op itself where the installed torch has it."""

import unittest

import torch

from coreai_exec import aten
from coreai_exec.legacy import LEGACY_OPS


def native(name, overload):
    packet = getattr(torch.ops.aten, name, None)
    return getattr(packet, overload, None) if packet is not None and overload in packet.overloads() else None


class Mappings(unittest.TestCase):
    def test_every_mapping_is_tested_here(self):
        tested = {("_native_batch_norm_legit_no_training", "default"), ("squeeze", "dims"),
                  ("_assert_tensor_metadata", "default")}
        self.assertEqual(set(LEGACY_OPS), tested)

    def test_batch_norm_legit_no_training(self):
        g = torch.Generator().manual_seed(0)
        x = torch.randn(2, 3, 4, 5, generator=g)
        weight, bias = torch.rand(3, generator=g) + 0.5, torch.randn(3, generator=g)
        mean, var = torch.randn(3, generator=g), torch.rand(3, generator=g) + 0.5
        out, saved_mean, saved_invstd = LEGACY_OPS[("_native_batch_norm_legit_no_training", "default")](
            x, weight, bias, mean, var, 0.1, 1e-5)
        shape = (1, 3, 1, 1)
        # The definition: an affine map per channel with the running statistics.
        expected = ((x.double() - mean.double().view(shape)) / torch.sqrt(var.double().view(shape) + 1e-5)
                    * weight.double().view(shape) + bias.double().view(shape))
        torch.testing.assert_close(out.double(), expected, rtol=1e-5, atol=1e-6)
        self.assertEqual(saved_mean.shape, (0,))
        self.assertEqual(saved_invstd.shape, (0,))
        real = native("_native_batch_norm_legit_no_training", "default")
        if real is not None:
            self.assertTrue(torch.equal(real(x, weight, bias, mean, var, 0.1, 1e-5)[0], out))

    def test_squeeze_dims(self):
        squeeze_dims = LEGACY_OPS[("squeeze", "dims")]
        x = torch.arange(6.0).view(1, 2, 1, 3, 1)
        # The definition: each listed dimension of size 1 goes, others stay.
        self.assertEqual(squeeze_dims(x, [0, 2]).shape, (2, 3, 1))
        self.assertEqual(squeeze_dims(x, [-1, 1]).shape, (1, 2, 1, 3))
        self.assertEqual(squeeze_dims(x, []).shape, x.shape)
        result = squeeze_dims(x, [0, 2, 4])
        self.assertEqual(result.data_ptr(), x.data_ptr())  # a view
        self.assertTrue(torch.equal(result, x.reshape(2, 3)))
        real = native("squeeze", "dims")
        if real is not None:
            for dims in ([0, 2], [-1, 1], [0, 2, 4]):
                self.assertEqual(real(x, dims).shape, squeeze_dims(x, dims).shape)

    def test_assert_tensor_metadata(self):
        check = LEGACY_OPS[("_assert_tensor_metadata", "default")]
        x = torch.zeros(2, 3)
        check(x, None, None, torch.float32, device="cpu", layout=torch.strided)
        check(x, [2, 3], [3, 1], torch.float32)
        for bad in (dict(dtype=torch.int64), dict(size=[3, 2]), dict(stride=[1, 2])):
            with self.assertRaises(RuntimeError, msg=str(bad)):
                check(x, **bad)

    def test_used_only_where_torch_lacks_the_op(self):
        kernel = aten.kernel("_assert_tensor_metadata", "default")
        with_device = ([torch.zeros(1), None, None, torch.float32], {"device": torch.device("cpu")})
        schema_names = {a.name for a in kernel.native._schema.arguments} if kernel.native else set()
        self.assertEqual(kernel.uses_legacy(*with_device), "device" not in schema_names)
        self.assertFalse(aten.kernel("add", "Tensor").uses_legacy([torch.zeros(1), 1], {}))


class OutVariants(unittest.TestCase):
    def test_out_overload_with_the_same_arguments(self):
        self.assertEqual(aten.kernel("add", "Tensor").out_variant._schema.overload_name, "out")
        self.assertEqual(aten.kernel("pow", "Tensor_Scalar").out_variant._schema.overload_name, "Tensor_Scalar_out")
        self.assertEqual(aten.kernel("where", "self").out_variant._schema.overload_name, "self_out")
        # Factory kwargs (dtype, device) have no place in arange.out: copied in.
        self.assertIsNone(aten.kernel("arange", "start_step").out_variant)
        self.assertIsNone(aten.kernel("view", "default").out_variant)

    def test_in_place_through_out(self):
        arena = torch.zeros(16, dtype=torch.uint8)
        slot = arena[4:12].view(torch.float32)
        slot.copy_(torch.tensor([1.0, 2.0]))
        wrote = aten.kernel("mul", "Tensor").call_into([slot, 3.0], {}, slot)
        self.assertTrue(wrote)
        self.assertEqual(slot.tolist(), [3.0, 6.0])
        self.assertEqual(arena[:4].tolist(), [0, 0, 0, 0])

    def test_to_copy_writes_its_slot(self):
        source = torch.tensor([[1.5, -2.25], [3.0, 4.0]]).t()  # not contiguous
        slot = torch.zeros(2, 2, dtype=torch.bfloat16)
        wrote = aten.kernel("_to_copy", "default").call_into(
            [source], {"dtype": torch.bfloat16, "layout": torch.strided, "device": torch.device("cpu")}, slot)
        self.assertTrue(wrote)
        self.assertTrue(torch.equal(slot, torch.ops.aten._to_copy.default(source, dtype=torch.bfloat16)))
        # Another dtype than the slot's: not a plain copy, the result is checked and refused.
        with self.assertRaises(RuntimeError):
            aten.kernel("_to_copy", "default").call_into([source], {"dtype": torch.float64}, slot)

    def test_partial_overlap_is_written_anyway(self):
        arena = torch.zeros(4, dtype=torch.float32)
        arena[:3] = torch.tensor([1.0, 2.0, 3.0])
        source, slot = arena[0:3], arena[1:4]
        wrote = aten.kernel("neg", "default").call_into([source], {}, slot)
        self.assertFalse(wrote)  # ATen refuses out= over a partial overlap
        self.assertEqual(arena.tolist(), [1.0, -1.0, -2.0, -3.0])


if __name__ == "__main__":
    unittest.main()

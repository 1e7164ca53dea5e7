import math
import unittest

from coreai_exec import pyargs


class ParseCall(unittest.TestCase):
    def test_tensors_lists_and_keywords(self):
        positional, keyword = pyargs.parse_call("(T, [None, None, T], T, accumulate=False)")
        self.assertIsInstance(positional[0], pyargs.TensorSlot)
        self.assertEqual(positional[1][:2], [None, None])
        self.assertEqual(pyargs.count_tensors(positional), 3)
        self.assertEqual(keyword, {"accumulate": False})
        filled = pyargs.fill_tensors(positional, iter("abc"))
        self.assertEqual(filled, ["a", [None, None, "b"], "c"])

    def test_torch_names_and_device(self):
        positional, keyword = pyargs.parse_call(
            "(T, None, None, torch.float32, device=device(type='cpu'), layout=torch.strided)")
        self.assertEqual(positional[3], pyargs.TorchName("float32"))
        self.assertIsInstance(keyword["device"], pyargs.Device)
        self.assertEqual(keyword["device"].text, "cpu")
        self.assertEqual(keyword["layout"], pyargs.TorchName("strided"))

    def test_numbers(self):
        positional, _ = pyargs.parse_call("(-3.4028234663852886e+38, 1e-06, -inf, 9223372036854775807)")
        self.assertEqual(positional[0], -3.4028234663852886e+38)
        self.assertEqual(positional[1], 1e-06)
        self.assertEqual(positional[2], -math.inf)
        self.assertEqual(positional[3], 2 ** 63 - 1)

    def test_symbols(self):
        positional, _ = pyargs.parse_call("(T, [1, s58, -1, 2*s58 + 1, s58//3])", {"s58": 8})
        self.assertEqual(positional[1], [1, 8, -1, 17, 2])
        with self.assertRaises(pyargs.ArgsError):
            pyargs.parse_call("(T, [1, s58])")  # unbound

    def test_no_code_runs(self):
        for text in ["(__import__('os').system('true'))", "(T.__class__)", "((lambda: 1)())", "(open('x'))"]:
            with self.assertRaises(pyargs.ArgsError, msg=text):
                pyargs.parse_call(text)

    def test_shapes(self):
        self.assertEqual(pyargs.eval_shape("1,s0,64", {"s0": 16}), (1, 16, 64))
        self.assertEqual(pyargs.eval_shape("", {}), ())
        self.assertEqual(pyargs.eval_shape("Max(1, s0 - 4),s0", {"s0": 2}), (1, 2))


if __name__ == "__main__":
    unittest.main()

"""Writes small torch.export archives (.pt2) for the importer's tests.

usage: make_pt2.py CASE OUT.pt2

The archives follow torch/_export/serde/schema.py (version 8.17) as
torch.export.save writes them: a zip with <name>/models/model.json and
<name>/data/...; only what the importer reads is filled in.
"""
import json
import struct
import sys
import zipfile

F32, F16, I64 = 7, 6, 5


def meta(sizes, dtype=F32, strides=None):
    def sym(v):
        if isinstance(v, str):
            return {"as_expr": {"expr_str": "Symbol('%s', positive=True, integer=True)" % v,
                                "hint": {"as_int": 8}}}
        return {"as_int": v}
    if strides is None:
        strides, step = [], 1
        for s in reversed(sizes):
            strides.insert(0, step)
            step *= s if isinstance(s, int) else 8
    return {"dtype": dtype, "sizes": [sym(s) for s in sizes], "requires_grad": False,
            "device": {"type": "cpu", "index": None}, "strides": [sym(s) for s in strides],
            "storage_offset": {"as_int": 0}, "layout": 7}


def T(name):
    return {"as_tensor": {"name": name}}


class Program:
    def __init__(self):
        self.nodes, self.values, self.inputs, self.input_specs = [], {}, [], []
        self.outputs, self.output_specs, self.line = [], [], 10
        self.schema = {"major": 8, "minor": 17}
        self.ranges = {}

    def placeholder(self, kind, name, sizes, dtype=F32, persistent=True):
        fx = {"parameter": "p_", "buffer": "b_", "user_input": ""}[kind] + name
        self.values[fx] = meta(sizes, dtype)
        self.inputs.append(T(fx))
        if kind == "user_input":
            self.input_specs.append({"user_input": {"arg": T(fx)}})
        elif kind == "parameter":
            self.input_specs.append({"parameter": {"arg": {"name": fx}, "parameter_name": name}})
        else:
            self.input_specs.append({"buffer": {"arg": {"name": fx}, "buffer_name": name,
                                                "persistent": persistent}})
        return fx

    def op(self, target, args, out=None, sizes=None, dtype=F32, strides=None, kw=()):
        """args: a list of (schema name, Argument) pairs."""
        self.line += 1
        inputs = [{"name": n, "arg": a, "kind": 1} for n, a in args]
        inputs += [{"name": n, "arg": a, "kind": 2} for n, a in kw]
        outputs = []
        if out is not None:
            self.values[out] = meta(sizes, dtype, strides)
            outputs = [T(out)]
        self.nodes.append({
            "target": target, "inputs": inputs, "outputs": outputs,
            "metadata": {"stack_trace": 'File "/home/user/model.py", line %d, in forward\n'
                                        '    y = layer(x)' % self.line},
            "is_hop_single_tensor_return": None, "name": out or "node%d" % self.line})
        return out

    def user_output(self, name):
        self.outputs.append(T(name))
        self.output_specs.append({"user_output": {"arg": T(name)}})

    def json(self):
        return {
            "graph_module": {
                "graph": {"inputs": self.inputs, "outputs": self.outputs, "nodes": self.nodes,
                          "tensor_values": self.values, "sym_int_values": {},
                          "sym_bool_values": {}, "is_single_tensor_return": False,
                          "custom_obj_values": {}, "sym_float_values": {}},
                "signature": {"input_specs": self.input_specs, "output_specs": self.output_specs},
                "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields": {}},
            "opset_version": {"aten": 10}, "range_constraints": self.ranges,
            "schema_version": self.schema, "verifiers": ["ATEN"],
            "torch_version": "2.11.0", "guards_code": []}


def write(path, program=None, members=None, weight=b"\0"):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("case/archive_format", "pt2")
        z.writestr("case/data/weights/weight_0", weight * 64)
        if program is not None:
            z.writestr("case/models/model.json", json.dumps(program.json()))
        for name, data in (members or {}).items():
            z.writestr(name, data)


def mlp():
    """x -> mm(x, w) -> relu: the smallest well-formed program."""
    p = Program()
    w = p.placeholder("parameter", "w", [8, 8])
    x = p.placeholder("user_input", "x", [4, 8])
    mm = p.op("torch.ops.aten.mm.default", [("self", T(x)), ("mat2", T(w))], "mm", [4, 8])
    relu = p.op("torch.ops.aten.relu.default", [("self", T(mm))], "relu", [4, 8])
    p.user_output(relu)
    return p


def case(name):
    p = mlp()
    if name == "ok":
        return p
    if name == "schema-9":
        p.schema = {"major": 9, "minor": 0}
    elif name == "unknown-op":
        p.nodes[1]["target"] = "torch.ops.aten.frobnicate.default"
    elif name == "custom-op":
        p.nodes[1]["target"] = "torch.ops.mylib.fused_relu.default"
    elif name == "negative-size":
        p.values["relu"]["sizes"][0] = {"as_int": -3}
    elif name == "gapped-strides":
        p.values["relu"]["strides"] = [{"as_int": 16}, {"as_int": 1}]
    return p


def functional_cases(name):
    p = Program()
    if name == "inplace-buffer":
        # cache.copy_(x + x); y = cache * 2: the read sees the write.
        cache = p.placeholder("buffer", "cache", [4, 8])
        x = p.placeholder("user_input", "x", [4, 8])
        s = p.op("torch.ops.aten.add.Tensor", [("self", T(x)), ("other", T(x))], "add", [4, 8])
        p.op("torch.ops.aten.copy_.default", [("self", T(cache)), ("src", T(s))], "copy_", [4, 8])
        y = p.op("torch.ops.aten.mul.Tensor", [("self", T(cache)), ("other", {"as_float": 2.0})],
                 "mul", [4, 8])
        p.user_output(y)
    elif name == "slice-write":
        # cache[:, 0:4].copy_(k): a write through a view becomes slice_scatter.
        cache = p.placeholder("buffer", "cache", [1, 16, 8])
        k = p.placeholder("user_input", "k", [1, 4, 8])
        v = p.op("torch.ops.aten.slice.Tensor",
                 [("self", T(cache)), ("dim", {"as_int": 1}), ("start", {"as_int": 0}),
                  ("end", {"as_int": 4})], "slice", [1, 4, 8], strides=[128, 8, 1])
        p.op("torch.ops.aten.copy_.default", [("self", T(v)), ("src", T(k))], "copy_", [1, 4, 8],
             strides=[128, 8, 1])
        y = p.op("torch.ops.aten.mul.Tensor", [("self", T(cache)), ("other", {"as_float": 0.5})],
                 "mul", [1, 16, 8])
        p.user_output(y)
    elif name == "stale-view":
        # v = t.view(32); t.add_(1); v is read after the write: made again.
        x = p.placeholder("user_input", "x", [4, 8])
        t = p.op("torch.ops.aten.clone.default", [("self", T(x))], "clone", [4, 8])
        v = p.op("torch.ops.aten.view.default", [("self", T(t)), ("size", {"as_ints": [32]})],
                 "view", [32])
        p.op("torch.ops.aten.add_.Tensor", [("self", T(t)), ("other", {"as_int": 1})], "add_",
             [4, 8])
        y = p.op("torch.ops.aten.mul.Tensor", [("self", T(v)), ("other", T(v))], "mul", [32])
        p.user_output(y)
    elif name in ("param-write", "input-write"):
        kind = "parameter" if name == "param-write" else "user_input"
        w = p.placeholder(kind, "w", [4, 8])
        p.op("torch.ops.aten.mul_.Tensor", [("self", T(w)), ("other", {"as_float": 2.0})],
             "mul_", [4, 8])
        y = p.op("torch.ops.aten.relu.default", [("self", T(w))], "relu", [4, 8])
        p.user_output(y)
    elif name == "expand-write":
        b = p.placeholder("buffer", "b", [1, 8])
        e = p.op("torch.ops.aten.expand.default",
                 [("self", T(b)), ("size", {"as_ints": [4, 8]})], "expand", [4, 8],
                 strides=[0, 1])
        p.op("torch.ops.aten.add_.Tensor", [("self", T(e)), ("other", {"as_int": 1})], "add_",
             [4, 8], strides=[0, 1])
        y = p.op("torch.ops.aten.relu.default", [("self", T(b))], "relu", [1, 8])
        p.user_output(y)
    elif name in ("fused-casts", "fused-casts-unknown-reader"):
        # Issue 41's graph as torch.export writes it (unique names): a
        # product narrowed, widened twice alike, one copy fused into add,
        # the other read by a product (or by an op the ATen facts do not
        # know, which the importer refuses).
        w = p.placeholder("parameter", "w", [4, 4])
        x = p.placeholder("user_input", "x", [4, 4])
        mm = p.op("torch.ops.aten.mm.default", [("self", T(x)), ("mat2", T(w))], "mm", [4, 4])
        half, wide = {"as_scalar_type": 6}, {"as_scalar_type": 7}
        h = p.op("torch.ops.aten._to_copy.default", [("self", T(mm))], "_to_copy", [4, 4],
                 dtype=F16, kw=[("dtype", half)])
        a = p.op("torch.ops.aten._to_copy.default", [("self", T(h))], "_to_copy_1", [4, 4],
                 kw=[("dtype", wide)])
        b = p.op("torch.ops.aten._to_copy.default", [("self", T(h))], "_to_copy_2", [4, 4],
                 kw=[("dtype", wide)])
        s = p.op("torch.ops.aten.add.Tensor", [("self", T(a)), ("other", T(mm))], "add", [4, 4])
        y = p.op("torch.ops.aten.mm.default", [("self", T(s)), ("mat2", T(w))], "mm_1", [4, 4])
        reader = "foo" if name == "fused-casts-unknown-reader" else "mm"
        z = p.op("torch.ops.aten.%s.default" % reader, [("self", T(b)), ("mat2", T(w))], "mm_2",
                 [4, 4])
        p.user_output(y)
        p.user_output(z)
    elif name in ("dynamic", "inverted-range"):
        x = p.placeholder("user_input", "x", [1, "s0", 8])
        p.ranges = {"s0": {"min_val": 1, "max_val": 64}}
        if name == "inverted-range":
            p.ranges["s0"]["max_val"] = -64
        y = p.op("torch.ops.aten.relu.default", [("self", T(x))], "relu", [1, "s0", 8])
        p.user_output(y)
    else:
        return None
    return p


def main():
    name, out = sys.argv[1], sys.argv[2]
    if name == "not-zip":
        open(out, "w").write("module {}\n")
    elif name == "no-model":
        write(out)
    elif name == "member-not-utf8":
        # The model member's name with a byte that is not UTF-8 (zip names
        # are raw bytes); same length, so only the names change.
        write(out + ".plain", members={"Xase/models/model.json": json.dumps(mlp().json())})
        data = open(out + ".plain", "rb").read()
        open(out, "wb").write(data.replace(b"Xase/models", b"\xeaase/models"))
    elif name == "claims-2gib":
        # The central directory claims 1.9 GiB for the model member the
        # archive holds a few KiB of (a header field the fuzzer mutated).
        write(out + ".plain", mlp())
        data = bytearray(open(out + ".plain", "rb").read())
        member = b"case/models/model.json"
        entry = data.index(b"PK\x01\x02")  # central directory entries
        while data[entry + 46:entry + 46 + len(member)] != member:
            entry = data.index(b"PK\x01\x02", entry + 4)
        struct.pack_into("<I", data, entry + 24, 1900 << 20)  # uncompressed size
        open(out, "wb").write(bytes(data))
    elif name == "truncated":
        write(out + ".full", mlp())
        data = open(out + ".full", "rb").read()
        open(out, "wb").write(data[: len(data) // 2])
    elif name == "corrupt-json":
        write(out + ".full", mlp())
        data = bytearray(open(out + ".full", "rb").read())
        at = data.index(b'"graph_module"')
        data[at] = ord("#")  # same length, so the zip stays readable
        open(out, "wb").write(bytes(data))
    elif name == "two-models":
        write(out, mlp(), members={"case/models/prefill.json": json.dumps(mlp().json())})
    elif name == "other-weights":
        write(out, mlp(), weight=b"\1")
    elif name == "bad-json":
        write(out, members={"case/models/model.json": "{ not json"})
    else:
        p = functional_cases(name) or case(name)
        write(out, p)


if __name__ == "__main__":
    main()

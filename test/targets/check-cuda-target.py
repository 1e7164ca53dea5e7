#!/usr/bin/env python3
"""targets/cuda.json against the measurements it was written from.

    check-cuda-target.py --target targets/cuda.json --runs bench/cuda-kernels-runs [--plant]

Every figure of the cuda target comes from bench/cuda-kernels.py run on the
GPU machine; its JSON is kept in bench/cuda-kernels-runs/. This check reads
the newest full (not --quick) run there and fails, naming the figure, where
the target says something the data does not:

- result dtypes: every normalisation result whose dtype CUDA's kernel
  writes otherwise than the CPU's (float16 input) has a rule saying so, and
  every rule is such a result;
- attention workspace: each variant's bytes, evaluated at every measured
  shape and S, equal the bytes its backend allocated beyond its result
  (cuDNN with the float16 mask; flash causal on the written prefix);
- KV writes in place: `index_put_` and `index_copy_` on the cache allocated
  nothing, and the target binds state before the call;
- alignment: the smallest arena offset (of those measured) at which every
  kernel ran, allocated what it did at offset 0 and gave identical bits;
- the cuBLAS workspace named in the description is the measured one;
- fusion: each pattern the target fuses was one Inductor kernel, with
  nothing allocated beyond its results (so no workspace rule for it).

--plant changes one figure at a time in a copy of the target and requires
each change to be caught: the check's negative control.
"""
import argparse
import copy
import glob
import json
import os
import re
import sys

DTYPES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
          "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64"}


def newest_run(folder):
    runs = sorted(p for p in glob.glob(os.path.join(folder, "*.json")) if not p.endswith("-quick.json"))
    if not runs:
        sys.exit("check-cuda-target: no full run in %s (bench/cuda-kernels.py on the GPU machine writes one)"
                 % folder)
    with open(runs[-1]) as f:
        return runs[-1], json.load(f)


def evaluate(expression, q_shape):
    """A workspace expression (docs/WORKSPACE.md) at an attention op whose
    in0 (the query) has shape q_shape; names the check does not know fail."""
    numel = 1
    for d in q_shape:
        numel *= d
    text = expression
    text = re.sub(r"in0\.numel", str(numel), text)
    text = re.sub(r"in0\.dim\((-?\d+)\)", lambda m: str(q_shape[int(m.group(1))]), text)
    text = text.replace("/", "//")
    names = {"align": lambda a, b: -(-a // b) * b, "cdiv": lambda a, b: -(-a // b), "min": min, "max": max}
    if re.search(r"[A-Za-z_]", re.sub(r"\b(align|cdiv|min|max)\b", "", text)):
        raise ValueError("cannot evaluate '%s' here" % expression)
    return eval(text, {"__builtins__": {}}, names)  # noqa: S307 - digits, operators and the four names only


def check_result_dtypes(target, data, errors):
    section = data.get("result_dtypes", {})
    cpu, cuda = section.get("cpu", {}), section.get("cuda", {})
    measured = set()
    for name, results in cuda.items():
        if not isinstance(results, list) or not isinstance(cpu.get(name), list):
            continue
        op = "aten." + name.split("(")[0]
        for index, (on_cpu, on_cuda) in enumerate(zip(cpu[name], results)):
            graph, kernel = DTYPES.get(on_cpu["dtype"]), DTYPES.get(on_cuda["dtype"])
            if graph != kernel and on_cuda["shape"] and all(on_cuda["shape"]):
                measured.add((op, index, graph, kernel))
    declared = set()
    for i, rule in enumerate(target.get("result_dtypes", [])):
        for index in rule["results"]:
            for graph in rule.get("graph_dtypes", ["f16"]):
                if graph == "f16":  # what was measured: float16 input
                    declared.add((rule["op"], index, graph, rule["dtype"]))
    for op, index, graph, kernel in sorted(measured - declared):
        errors.append("result_dtypes: %s result %d is %s on CUDA where the CPU writes %s, and the target "
                      "does not say so" % (op, index, kernel, graph))
    for op, index, graph, kernel in sorted(declared - measured):
        errors.append("result_dtypes: the target says %s result %d is written as %s for %s input; "
                      "measured: not so" % (op, index, kernel, graph))


def attention_rule(target):
    for rule in target.get("workspace", []):
        if rule.get("class") == "attention":
            return rule
    return None


# The measured case each variant of the attention rule stands for.
VARIANT_CASES = {"cudnn": ("cudnn", "mask"), "flash": ("flash", "causal_prefix")}


def check_attention(target, data, errors):
    rule = attention_rule(target)
    if rule is None:
        errors.append("workspace: the target has no attention rule")
        return
    variants = rule.get("variants") or [{"name": "default", "bytes": rule["bytes"]}]
    for variant in variants:
        backend_variant = VARIANT_CASES.get(variant["name"])
        if backend_variant is None:
            errors.append("workspace: attention variant '%s' names no measured backend" % variant["name"])
            continue
        compared = 0
        for row in data.get("attention", []):
            times = row["heads"] // row["kv_heads"]
            gqa = "enable_gqa" if times > 1 else "repeated"
            for case in row.get("cases", []):
                if (case["backend"], case["variant"], case["gqa"]) != backend_variant + (gqa,):
                    continue
                if "error" in case:
                    continue  # the backend refused this case: nothing to compare
                expected = evaluate(variant["bytes"], [1, row["heads"], row["S"], row["head"]])
                compared += 1
                if expected != case["extra_peak"]:
                    errors.append("workspace: attention variant '%s' gives %d bytes at %s S=%d; %s measured "
                                  "%d" % (variant["name"], expected, row["shape"], row["S"],
                                          "/".join(backend_variant), case["extra_peak"]))
        if compared == 0:
            errors.append("workspace: attention variant '%s': no measured case ran" % variant["name"])


def check_kv_writes(target, data, errors):
    rows = data.get("kv_write", [])
    in_place = bool(rows) and all(row.get(key, {}).get("extra_peak") == 0
                                  for row in rows for key in ("index_put_", "index_copy_"))
    if target.get("state_bound_before_call") and not in_place:
        errors.append("state_bound_before_call: KV writes are planned in place, but index_put_/index_copy_ "
                      "allocated (or were not measured)")
    if in_place and not target.get("state_bound_before_call"):
        errors.append("state_bound_before_call: measured in place, the target says otherwise")


def check_alignment(target, data, errors):
    rows = {row["offset"]: row["cases"] for row in data.get("alignment", [])}
    if 0 not in rows:
        errors.append("alignment: not measured")
        return

    def fine(offset):
        for name, case in rows[offset].items():
            base = rows[0].get(name, {})
            if "error" in case or "error" in base:
                if "error" not in base:
                    return False
                continue
            if case.get("extra_peak") != base.get("extra_peak") or case.get("bit_identical_to_offset_0") is False:
                return False
        return True

    offsets = sorted(o for o in rows if o > 0)
    needed = next((o for o in offsets if all(fine(m) for m in offsets if m % o == 0)), None)
    if needed is None:
        errors.append("alignment: no measured offset below %d works" % max(offsets))
    elif target["alignment"] != needed:
        errors.append("alignment: the target says %d, the smallest measured offset every kernel takes is %d"
                      % (target["alignment"], needed))


def check_cublas(target, data, errors):
    rows = [r for r in data.get("cublas_workspace", []) if r.get("CUBLAS_WORKSPACE_CONFIG") == ":4096:8"]
    if not rows or "kept_after_first_mm" not in rows[0]:
        errors.append("cuBLAS workspace: not measured under CUBLAS_WORKSPACE_CONFIG=:4096:8")
        return
    kept = rows[0]["kept_after_first_mm"]
    said = [int(n.replace(",", "")) for n in re.findall(r"([\d,]+) bytes", target.get("description", ""))]
    if kept not in said:
        errors.append("description: the cuBLAS workspace kept after the first product is %d bytes (measured); "
                      "the description says %s" % (kept, said or "no figure"))


# Inductor groups of bench/cuda-kernels.py and the fusion pattern each shows.
GROUP_PATTERNS = {"elementwise.": "elementwise", "rope": "elementwise", "cast.": "cast",
                  "norm.": "reduction", "softmax.": "reduction"}


def check_fusion(target, data, errors):
    rows = [r for r in data.get("inductor_groups", []) if "error" not in r]
    for pattern in ("elementwise", "cast", "reduction"):
        groups = [r for r in rows if any(r["group"].startswith(prefix) and kind == pattern
                                         for prefix, kind in GROUP_PATTERNS.items())]
        one_kernel = bool(groups) and all(r.get("generated_kernels") == 1 and not r.get("library_calls")
                                          for r in groups)
        if (pattern in target.get("fusion", [])) != one_kernel:
            errors.append("fusion: '%s' is %s by the target; Inductor ran its groups as %s" % (
                pattern, "fused" if pattern in target.get("fusion", []) else "not fused",
                ", ".join("%s S=%s: %s kernel(s)" % (r["group"], r["S"], r.get("generated_kernels"))
                          for r in groups) or "nothing measured"))
        allocated = [r for r in groups if (r.get("measured") or {}).get("extra_peak")]
        rules = [w for w in target.get("workspace", []) if w.get("class") in ("normalisation", "reduction")]
        if pattern == "reduction" and not allocated and rules:
            errors.append("workspace: a normalisation/reduction rule, where Inductor's kernels allocated nothing")
        for r in allocated:
            errors.append("fusion: Inductor's %s S=%s allocated %d bytes beyond its results, and the target "
                          "has no rule for it" % (r["group"], r["S"], r["measured"]["extra_peak"]))


CHECKS = [check_result_dtypes, check_attention, check_kv_writes, check_alignment, check_cublas, check_fusion]


def check(target, data):
    errors = []
    for function in CHECKS:
        function(target, data, errors)
    return errors


def plants(target):
    """(what, a copy of the target with one figure wrong)."""
    def changed(what, edit):
        planted = copy.deepcopy(target)
        edit(planted)
        return what, planted
    out = [changed("alignment halved", lambda t: t.update(alignment=t["alignment"] // 2)),
           changed("state not bound", lambda t: t.update(state_bound_before_call=False)),
           changed("result dtypes dropped", lambda t: t.update(result_dtypes=[])),
           changed("cuBLAS figure changed", lambda t: t.update(description=re.sub(
               r"([\d,]+) bytes", "1 bytes", t["description"]))),
           changed("reduction not fused", lambda t: t.update(fusion=[p for p in t["fusion"] if p != "reduction"]))]
    rule = attention_rule(target)
    for k, variant in enumerate((rule or {}).get("variants", [])):
        def edit(t, k=k):
            v = attention_rule(t)["variants"][k]
            v["bytes"] = "(%s) + 512" % v["bytes"]
        out.append(changed("attention variant '%s' off by 512" % variant["name"], edit))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", required=True)
    parser.add_argument("--runs", required=True)
    parser.add_argument("--plant", action="store_true")
    args = parser.parse_args()
    with open(args.target) as f:
        target = json.load(f)
    path, data = newest_run(args.runs)
    if args.plant:
        missed = [what for what, planted in plants(target) if not check(planted, data)]
        if check(target, data):
            print("check-cuda-target: the target itself fails; plant nothing into it", file=sys.stderr)
            return 1
        for what in missed:
            print("check-cuda-target: planted '%s' not caught" % what, file=sys.stderr)
        print("check-cuda-target: %d planted figures, %d caught" % (len(plants(target)),
                                                                     len(plants(target)) - len(missed)))
        return 1 if missed else 0
    errors = check(target, data)
    for error in errors:
        print("%s: %s (measured: %s)" % (args.target, error, path), file=sys.stderr)
    if not errors:
        print("check-cuda-target: %s matches %s (%s)" % (args.target, os.path.basename(path),
                                                           data.get("versions", {}).get("gpu", "?")))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

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


def evaluate(expression, tensors):
    """A workspace expression (docs/WORKSPACE.md) where `tensors` maps in0,
    in1, ... and out to (shape, element bytes); names the check does not
    know fail."""
    def numel(name):
        count = 1
        for d in tensors[name][0]:
            count *= d
        return count
    text = expression
    text = re.sub(r"\b(in\d|out)\.numel", lambda m: str(numel(m.group(1))), text)
    text = re.sub(r"\b(in\d|out)\.bytes", lambda m: str(numel(m.group(1)) * tensors[m.group(1)][1]), text)
    text = re.sub(r"\b(in\d|out)\.dim\((-?\d+)\)", lambda m: str(tensors[m.group(1)][0][int(m.group(2))]), text)
    text = text.replace("/", "//")
    names = {"align": lambda a, b: -(-a // b) * b, "cdiv": lambda a, b: -(-a // b), "min": min, "max": max}
    if re.search(r"[A-Za-z_]", re.sub(r"\b(align|cdiv|min|max)\b", "", text)):
        raise ValueError("cannot evaluate '%s' here" % expression)
    return eval(text, {"__builtins__": {}}, names)  # noqa: S307 - digits, operators and the four names only


def check_result_dtypes(target, data, errors, notes):
    section = data.get("result_dtypes", {})
    cpu, cuda = section.get("cpu", {}), section.get("cuda", {})
    measured = set()
    for name, results in cuda.items():
        if not isinstance(results, list) or not isinstance(cpu.get(name), list):
            continue
        op = "aten." + name.split("(")[0]
        for index, (on_cpu, on_cuda) in enumerate(zip(cpu[name], results)):
            graph, kernel = DTYPES.get(on_cpu["dtype"]), DTYPES.get(on_cuda["dtype"])
            if on_cpu["shape"] != on_cuda["shape"]:
                notes.append("result_dtypes: %s result %d is %s %s on CUDA, %s %s on the CPU: a shape, not a "
                             "dtype, differs (no result_dtypes rule can say it)"
                             % (op, index, kernel, on_cuda["shape"], graph, on_cpu["shape"]))
            elif graph != kernel:
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


def attention_rule(target, cls="attention_kernel"):
    for rule in target.get("workspace", []):
        if rule.get("class") == cls:
            return rule
    return None


def runtime_case(row):
    """The SDPA case the runtime runs for a measured shape (tools/coreai-exec,
    attention.py): the efficient backend where the call reads every query
    head's K/V or one KV head as a broadcast (measured with the heads
    repeated), else cuDNN with enable_gqa; the float16 mask either way."""
    kv, heads = row["kv_heads"], row["heads"]
    if kv == heads or kv == 1:
        return ("efficient", "mask", "repeated")
    return ("cudnn", "mask", "enable_gqa")


def check_attention(target, data, errors, notes):
    for cls in ("attention_kernel", "attention"):
        rule = attention_rule(target, cls)
        if rule is None or "bytes" not in rule:
            errors.append("workspace: the target has no class %s rule of one expression" % cls)
            continue
        compare_attention(rule, data, errors, notes if cls == "attention" else [])


def compare_attention(rule, data, errors, notes):
    compared = 0
    for row in data.get("attention", []):
        wanted = runtime_case(row)
        case = next((c for c in row.get("cases", []) if (c["backend"], c["variant"], c["gqa"]) == wanted), None)
        if case is None or "error" in case:
            notes.append("workspace: attention at %s S=%d: %s refused (%s)" % (
                row["shape"], row["S"], "/".join(wanted), (case or {}).get("error", "not measured")))
            continue
        q = [1, row["heads"], row["S"], row["head"]]
        cache = [1, row["kv_heads"], row["cache"], row["head"]]
        tensors = {"in0": (q, 2), "in1": (cache, 2), "in2": (cache, 2), "in3": ([0], 1), "out": (q, 2)}
        expected = evaluate(rule["bytes"], tensors)
        compared += 1
        if expected != case["extra_peak"]:
            errors.append("workspace: the class %s rule gives %d bytes at %s S=%d; %s measured %d"
                          % (rule["class"], expected, row["shape"], row["S"], "/".join(wanted), case["extra_peak"]))
    if compared == 0:
        errors.append("workspace: no measured attention case to compare the rule with")


def check_kv_writes(target, data, errors, notes):
    rows = data.get("kv_write", [])
    in_place = bool(rows) and all(row.get(key, {}).get("extra_peak") == 0
                                  for row in rows for key in ("index_put_", "index_copy_"))
    if target.get("state_bound_before_call") and not in_place:
        errors.append("state_bound_before_call: KV writes are planned in place, but index_put_/index_copy_ "
                      "allocated (or were not measured)")
    if in_place and not target.get("state_bound_before_call"):
        errors.append("state_bound_before_call: measured in place, the target says otherwise")
    # Under deterministic algorithms (the executor's default) the in-place
    # writes sort their positions: the target's rule for each op.
    for op, key in (("aten.index_put", "index_put_.deterministic"), ("aten.index_copy", "index_copy_.deterministic")):
        rule = next((w for w in target.get("workspace", []) if w.get("op") == op), None)
        for row in rows:
            measured = row.get(key, {}).get("extra_peak")
            positions = ([row["S"]], 8)
            tensors = {"in0": ([row["cache_bytes"] // 2], 2), "in1": positions, "in2": ([row["values_bytes"] // 2], 2)}
            given = evaluate(rule["bytes"], tensors) if rule else 0
            if measured is not None and given != measured:
                errors.append("workspace: %s gives %d bytes at %s S=%d; %s measured %d"
                              % (op, given, row["shape"], row["S"], key, measured))


def check_alignment(target, data, errors, notes):
    section = data.get("alignment", [])
    rows = {row["offset"]: row["cases"] for row in section} if isinstance(section, list) else {}
    if 0 not in rows:
        notes.append("alignment: not measured in this run (%s): the target's %d is not checked"
                     % (first_line(section), target["alignment"]))
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


def first_line(section):
    if isinstance(section, dict) and "error" in section:
        lines = [l for l in section["error"].strip().splitlines() if l.strip()]
        return "the section failed: " + (lines[-1].strip()[:160] if lines else "?")
    return "absent"


def check_cublas(target, data, errors, notes):
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


def check_fusion(target, data, errors, notes):
    section = data.get("inductor_groups", [])
    if not isinstance(section, list) or not section:
        notes.append("fusion: Inductor's groups not measured in this run (%s): the target's fusion %s is not "
                     "checked" % (first_line(section), target.get("fusion", [])))
        return
    rows = [r for r in section if "error" not in r]
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


def check(target, data, notes=None):
    errors = []
    for function in CHECKS:
        function(target, data, errors, notes if notes is not None else [])
    return errors


data_sections = {}


def plants(target):
    """(what, a copy of the target with one figure wrong)."""
    def changed(what, edit):
        planted = copy.deepcopy(target)
        edit(planted)
        return what, planted
    def rule_of(t, op):
        return next(w for w in t["workspace"] if w.get("op") == op)

    out = [changed("state not bound", lambda t: t.update(state_bound_before_call=False)),
           changed("result dtypes dropped", lambda t: t.update(result_dtypes=[])),
           changed("a result dtype f64", lambda t: t["result_dtypes"][0].update(dtype="f64")),
           changed("cuBLAS figure changed", lambda t: t.update(description=re.sub(
               r"([\d,]+) bytes", "1 bytes", t["description"]))),
           changed("attention kernel rule off by 16 at S = 1", lambda t: attention_rule(t).update(
               bytes="(%s) + 16 * (in0.dim(-2) == 1)" % attention_rule(t)["bytes"])),
           changed("SDPA op rule without the D > 128 accumulator", lambda t: attention_rule(t, "attention").update(
               bytes=attention_rule(t, "attention")["bytes"].replace("in0.numel * 4", "0"))),
           changed("index_put's deterministic workspace dropped",
                   lambda t: rule_of(t, "aten.index_put").update(bytes="0"))]
    if isinstance(data_sections.get("alignment"), list):
        out.append(changed("alignment halved", lambda t: t.update(alignment=t["alignment"] // 2)))
    if isinstance(data_sections.get("inductor_groups"), list):
        out.append(changed("reduction not fused", lambda t: t.update(
            fusion=[p for p in t["fusion"] if p != "reduction"])))
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
    data_sections.update(data)
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
    notes = []
    errors = check(target, data, notes)
    for note in notes:
        print("note: %s" % note)
    for error in errors:
        print("%s: %s (measured: %s)" % (args.target, error, path), file=sys.stderr)
    if not errors:
        print("check-cuda-target: %s matches %s (%s)" % (args.target, os.path.basename(path),
                                                           data.get("versions", {}).get("gpu", "?")))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

"""python3 -m coreai_exec PLANNED.mlir... --original MODEL.mlir [options]

Runs every function of each planned graph in its planned order on one
poisoned arena and the runtime's storages, runs the original function
unplanned, and compares every result and every state's final contents bit
for bit. One line per function; exit 0 when all are identical, 2 when one
differs or the plan fails to execute (reads outside its storage, a kernel
refusing clobbered inputs), 1 on bad input.
"""

import argparse
import json
import os
import sys
import time


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog="python3 -m coreai_exec", description=__doc__.split("\n\n")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("planned", nargs="+", help="MODEL.planned.mlir written by `coreai-plan plan`")
    parser.add_argument("--original", required=True, help="the graph that was planned (MODEL.mlir)")
    parser.add_argument("--function", action="append", default=[],
                        help="planned function to run (main__s8; repeatable; default: all)")
    parser.add_argument("--device", default="cpu", help="torch device: cpu (default), cuda, cuda:1")
    parser.add_argument("--seed", type=int, default=0, help="seed of the inputs (default 0)")
    parser.add_argument("--scale", type=float, default=0.05, help="weights uniform in [-scale, scale] (0.05)")
    parser.add_argument("--kv-cache", choices=["zero", "random"], default="zero",
                        help="initial KV cache (and other float state): zero or random at the weights' scale")
    parser.add_argument("--start-position", type=int, default=0,
                        help="cache_position starts here (integer state starts here too)")
    parser.add_argument("--corrupt", choices=["zero", "overlap", "kernel-output-over-input", "fused-read-outside",
                                              "workspace-over-live"],
                        help="negative control: break the plan first (every offset 0; two live buffers overlapping; "
                             "a fused kernel's result over an input it reads later; a value read outside its "
                             "kernel marked as kept inside it; a kernel's workspace moved onto a value live across "
                             "its op)")
    parser.add_argument("--fused", action="store_true",
                        help="compile each kernel group of two or more ops as one function (torch.compile, Inductor) "
                             "and compare within a tolerance where one ran (docs/EXECUTOR.md, 'Fused mode')")
    parser.add_argument("--runtime", choices=["cuda"],
                        help="run as the CUDA runtime bound to the plan: attention groups as one "
                             "scaled_dot_product_attention, KV-cache writes in place, other groups compiled, every "
                             "call's allocations accounted (docs/EXECUTOR.md, 'The CUDA runtime'); any device")
    parser.add_argument("--strict", action="store_true",
                        help="with --runtime cuda: fail at the first step of the measured call that allocates a byte "
                             "beyond the plan, naming it and the count")
    parser.add_argument("--calls", type=int, default=2,
                        help="with --runtime cuda: calls per function, the last one measured (default 2: a warm-up)")
    parser.add_argument("--attention-backend", choices=["cudnn", "flash", "efficient", "math"],
                        help="with --runtime cuda: restrict scaled_dot_product_attention to this backend")
    parser.add_argument("--plant-allocation", metavar="STEP:BYTES",
                        help="negative control of --strict: the allocator reports BYTES allocated by the measured "
                             "call's kernel call STEP (counted from 0) and nothing else (a fake allocator history)")
    parser.add_argument("--no-deterministic", action="store_true",
                        help="do not ask torch for deterministic kernels")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON ('-': stdout)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    if args.device.startswith("cuda") and not args.no_deterministic:
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    import torch
    from . import compare, engine, mlir
    from .aten import UnsupportedOp
    from .corrupt import corrupt
    from .inputs import Inputs, vocabulary_of

    if not args.no_deterministic:
        torch.use_deterministic_algorithms(True, warn_only=True)
    records, status = [], 0
    compiler = None
    try:
        if args.fused or args.runtime:
            from .fused import GroupCompiler
            compiler = GroupCompiler()
        original = mlir.parse_file(args.original)
        references = {}
        inputs = Inputs(engine.concrete_device(args.device), seed=args.seed, scale=args.scale,
                        kv_cache=args.kv_cache, start=args.start_position)
        for path in args.planned:
            planned = mlir.parse_file(path)
            functions = [f for f in planned.functions if f.ops or f.returned]
            if args.function:
                functions = [f for f in functions if f.name in args.function]
            for function in functions:
                record = run_function(function, planned, original, args, references, inputs,
                                      engine, compare, corrupt, vocabulary_of, torch, compiler)
                record["file"] = os.path.basename(path)
                records.append(record)
                print(summary(record), flush=True)
                if record["status"] not in ("identical", "close", "drift"):
                    status = 2
        if not records:
            raise engine.InputError("no planned function to run (--function %s)" % ", ".join(args.function))
    except (mlir.ParseError, engine.InputError, UnsupportedOp) as e:
        print("error: %s" % e, file=sys.stderr)
        status = 1
    if args.json:
        report = {"torch": torch.__version__, "device": args.device, "functions": records, "exit": status}
        if compiler is not None:
            report["compiler"] = compiler.summary()
        text = json.dumps(report, indent=2, sort_keys=True)
        if args.json == "-":
            print(text)
        else:
            with open(args.json + ".tmp", "w") as f:
                f.write(text + "\n")
            os.replace(args.json + ".tmp", args.json)
    return status


def run_function(function, planned, original, args, references, inputs,
                 engine, compare, corrupt, vocabulary_of, torch, compiler=None):
    entry = function.attrs.get("coreai.entry", function.name)
    seq_len = engine.sequence_length(function)
    plan = function.attrs.get("coreai.plan")  # a Plan: the reader refuses the old dictionary
    if plan is None or "heap" not in plan:
        raise engine.InputError("%s: @%s has no coreai.plan<heap = ...>: plan it first"
                                % (planned.path, function.name))
    try:
        source = original.function(entry)
    except KeyError:
        raise engine.InputError("%s has no @%s (the entry of @%s)" % (original.path, entry, function.name))
    check_same_arguments(function, source, engine, engine.symbols_of(original, seq_len))
    vocab = vocabulary_of(source)
    record = {"function": function.name, "entry": entry, "seq_len": seq_len, "heap": plan["heap"],
              "device": args.device}
    for key in ("kernels", "fused_bytes"):  # the plan's own figures, where it has kernels
        if key in plan:
            record["plan_" + key] = plan[key]
    key = (entry, seq_len)
    if key not in references:
        symbols = engine.symbols_of(original, seq_len)
        started = time.time()
        reference = engine.Execution(source, symbols, inputs, args.device, planned=False, vocab=vocab)
        references[key] = reference.run()
        record["unplanned_seconds"] = round(time.time() - started, 3)
    want_results, want_states = references[key]
    # NaN or inf in the reference would hide differences behind them.
    record["unplanned_nonfinite"] = sum(int((~torch.isfinite(t)).sum()) for t in want_results
                                        if t.dtype.is_floating_point)
    if args.corrupt:
        record["corrupted"] = corrupt(function, args.corrupt)
    started = time.time()
    symbols = engine.symbols_of(planned, seq_len)
    accounting = None
    if args.runtime:
        from . import runtime_cuda, strict
        accounting = strict.Accounting(runtime_cuda.allocation_source(args.device, planted_allocation(args)),
                                       strict=args.strict)
        execution = runtime_cuda.BoundExecution(function, symbols, inputs, args.device, compiler, vocab=vocab,
                                                accounting=accounting, calls=args.calls,
                                                backend=args.attention_backend)
    elif compiler is not None:
        from .fused import FusedExecution
        execution = FusedExecution(function, symbols, inputs, args.device, compiler, vocab=vocab)
    else:
        execution = engine.Execution(function, symbols, inputs, args.device, planned=True, vocab=vocab)
    try:
        got_results, got_states = execution.run(heap_size=plan["heap"])
    except Exception as e:
        from .strict import StrictError
        if not isinstance(e, (engine.PlanError, StrictError)):
            raise
        status = "mismatch" if getattr(e, "numerics", False) else ("unplanned" if isinstance(e, StrictError)
                                                                   else "failed")
        record.update(status=status, message=str(e), stats=execution.stats.as_dict())
        if accounting is not None:
            record["allocations"] = accounting.summary()
        return record
    if accounting is not None:
        record["allocations"] = accounting.summary()
        record["attention_groups"] = execution.stats.attention_groups
        record["largest_attention_difference"] = max(execution.attention_differences, default=0.0)
    record["planned_seconds"] = round(time.time() - started, 3)
    record["stats"] = execution.stats.as_dict()
    record["results"], record["states"] = len(got_results), len(got_states)
    tolerant = compiler is not None and (execution.stats.compiled_groups > 0
                                         or getattr(execution.stats, "attention_groups", 0) > 0)
    if compiler is not None:
        record["steps"] = execution.step_records
    if tolerant:
        # The plan's verdict: bit for bit against the same compiled kernels on
        # private storage (only the storage differs; a corruption changes
        # placements alone, which that run does not read).
        started = time.time()
        if args.runtime:
            private = runtime_cuda.BoundExecution(function, symbols, inputs, args.device, compiler, vocab=vocab,
                                                  planned=False, backend=args.attention_backend)
        else:
            private = FusedExecution(function, symbols, inputs, args.device, compiler, vocab=vocab, planned=False)
        want_fused = private.run(heap_size=plan["heap"])
        record["fused_reference_seconds"] = round(time.time() - started, 3)
        for what, got, want in result_pairs(function, source, (got_results, got_states), want_fused):
            diff = compare.first_difference(got, want)
            if diff:
                record.update(status="mismatch", difference=diff, message=describe_against_private(what, diff,
                                                                                                   compare))
                return record
    # Against the unplanned eager run: bit for bit without compiled groups;
    # with them, the compiled arithmetic's drift (compare.TOLERANCES).
    largest, drift = 0.0, None
    for what, got, want in result_pairs(function, source, (got_results, got_states), (want_results, want_states)):
        diff = compare.close_difference(got, want) if tolerant else compare.first_difference(got, want)
        if diff and not tolerant:
            record.update(status="mismatch", message=compare.describe(what, diff), difference=diff)
            return record
        if diff and drift is None:
            drift = (what, diff)
        if tolerant:
            largest = max(largest, compare.scaled_difference(got, want))
    record["status"] = "close" if largest else "identical"
    if tolerant:
        record["largest_scaled_difference"] = largest
        record["largest_group_difference"] = max(execution.group_differences, default=0.0)
    if drift is not None:  # the plan is bit-identical to the same kernels: the drift is the compiler's
        record.update(status="drift", message=compare.describe_close(*drift), difference=drift[1])
    return record


def planted_allocation(args):
    """--plant-allocation STEP:BYTES as the fake allocator's events, or None."""
    if not args.plant_allocation:
        return None
    try:
        step, size = (int(part) for part in args.plant_allocation.split(":"))
    except ValueError:
        raise SystemExit("error: --plant-allocation takes STEP:BYTES, not %r" % args.plant_allocation)
    return {step: [{"action": "alloc", "addr": 1 << 40, "size": size},
                   {"action": "free_completed", "addr": 1 << 40, "size": size}]}


def result_pairs(function, source, got, want):
    """(what, got, want) for each result the original also returns and each
    state's final contents."""
    (got_results, got_states), (want_results, want_states) = got, want
    pairs = []
    compared = [p for p in range(len(got_results)) if p not in added_state_updates(function, source)]
    for position, expected in zip(compared, want_results):
        kind = function.result_attrs[position].get("coreai.kind", "result")
        what = "result %d (%s%s)" % (position, kind, ": " + function.result_attrs[position]["coreai.name"]
                                     if "coreai.name" in function.result_attrs[position] else "")
        pairs.append((what, got_results[position], expected))
    pairs += [("final state %s" % name, got_states[name], want_states[name]) for name in sorted(want_states)]
    return pairs


def describe_against_private(what, diff, compare):
    return ("%s, against the same compiled kernels run with every value in memory of its own (only the storage "
            "differs, so the plan changed it)" % compare.describe(what, diff))


def added_state_updates(function, source):
    """Positions of the planned function's state updates the original does
    not return: the functionalisation added them for states the original
    writes in place. Their values are compared as the states' final contents."""
    returned = {attrs.get("coreai.name") for attrs in source.result_attrs
                if attrs.get("coreai.kind") == "state_update"}
    return [p for p, attrs in enumerate(function.result_attrs)
            if attrs.get("coreai.kind") == "state_update" and attrs.get("coreai.name") not in returned]


def check_same_arguments(function, source, engine, symbols):
    """The planned function is the original's at this S: same arguments
    (kind, name, type once the original's symbols are bound), the same
    results but for state updates the functionalisation added."""
    results = len(function.result_types) - len(added_state_updates(function, source))
    if len(function.arguments) != len(source.arguments) or results != len(source.result_types):
        raise engine.InputError("@%s and the original @%s differ in arguments or results"
                                % (function.name, source.name))
    for planned_arg, original_arg in zip(function.arguments, source.arguments):
        for key in ("coreai.kind", "coreai.name"):
            if planned_arg.attrs.get(key) != original_arg.attrs.get(key):
                raise engine.InputError("@%s: argument %s is %s %r, the original's is %r"
                                        % (function.name, planned_arg.name, key, planned_arg.attrs.get(key),
                                           original_arg.attrs.get(key)))
        what = "argument %s of the original @%s" % (original_arg.name, source.name)
        shape = engine.concrete_shape(original_arg.type, original_arg.attrs.get("coreai.sym_shape"), symbols, what)
        if (planned_arg.type.element != original_arg.type.element
                or tuple(planned_arg.type.shape) != tuple(shape)):
            raise engine.InputError("@%s: argument %s is %s, the original's is %s at S=%d (is this its original?)"
                                    % (function.name, planned_arg.name, planned_arg.type, original_arg.type,
                                       engine.sequence_length(function)))


def summary(record):
    head = "@%s (%s, S=%d): heap %d B" % (record["function"], record["entry"], record["seq_len"], record["heap"])
    if "corrupted" in record:
        head += " [corrupted: %s]" % record["corrupted"]
    stats = record.get("stats")
    if stats and stats.get("kernels"):
        head += ", %d fused kernel%s (%d ops, %d value%s of %d B kept inside)" % (
            stats["kernels"], "s" if stats["kernels"] != 1 else "", stats["kernel_ops"], stats["fused"],
            "s" if stats["fused"] != 1 else "", stats["fused_bytes"])
    if stats:
        head += (", %d ops (%d kernels wrote their slot, %d copied in, %d in place, %d output-placed, %d state-placed,"
                 " %d borrowed)" % (stats["ops"], stats["into_slot"], stats["copied"], stats["in_place"],
                                    stats["output_placed"], stats["state_placed"], stats["borrowed"]))
    if record.get("unplanned_nonfinite"):
        head += " [the unplanned run's results hold %d NaN/inf values]" % record["unplanned_nonfinite"]
    if stats and "compiled_groups" in stats:
        steps = record.get("steps", [])
        measured = [s["measured"] for s in steps if s.get("measured")]
        head += ", fused mode: %d compiled groups (%d ops; %d compiled now), %d results copied into their slots" % (
            stats["compiled_groups"], stats["compiled_ops"], sum(1 for s in steps if s.get("compiled_now")),
            stats["compiled_copies"])
        head += (", kernels' extra allocation: %d B at most in a step" % max(m["extra_peak"] for m in measured)
                 if measured else ", kernels' extra allocation: not measured (no CUDA allocator history)")
    if "allocations" in record:
        head += cuda_runtime_summary(record)
    if record["status"] == "identical":
        return head + ": bit-identical (%d results, %d states)" % (record["results"], record["states"])
    if record["status"] == "close":
        return head + (": within tolerance (%d results, %d states; each compiled group within %.2g of its ops run one"
                       " by one, the results within %.2g of the unplanned eager run, as fractions of each tensor's"
                       " largest magnitude)" % (record["results"], record["states"], record["largest_group_difference"],
                                               record["largest_scaled_difference"]))
    if record["status"] == "drift":
        return head + (": bit-identical to the same compiled kernels on private storage (%d results, %d states); each"
                       " compiled group within %.2g of its ops run one by one, but the results drift from the"
                       " unplanned eager run beyond the float tolerance, the compiled arithmetic compounded over the"
                       " function: %s" % (record["results"], record["states"], record["largest_group_difference"],
                                          record["message"]))
    if record["status"] == "mismatch":
        return head + ": MISMATCH: " + record["message"]
    if record["status"] == "unplanned":
        return head + ": UNPLANNED ALLOCATION (--strict): " + record["message"]
    return head + ": FAILED: " + record["message"]


def cuda_runtime_summary(record):
    """The CUDA runtime's part of the summary line."""
    stats, allocations = record.get("stats") or {}, record["allocations"]
    text = ", cuda runtime: %d attention groups as one SDPA, %d KV-cache writes in place, %d results cast into " \
           "their slots" % (stats.get("attention_groups", 0), stats.get("kv_in_place", 0), stats.get("cast_into_slot", 0))
    if not allocations["measured"]:
        return text + ", allocations not measured (no allocator history on this device)"
    return text + ", measured call: %d of %d kernel calls allocate, %d B at most, %d unplanned B" % (
        allocations["allocating_steps"], allocations["steps"], allocations["allocated_max"],
        allocations["unplanned_bytes"])


if __name__ == "__main__":
    sys.exit(main())

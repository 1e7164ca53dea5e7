"""`coreai-plan plan PROGRAM.pte` on programs of three families no other
test exports (issue 48), each run by ExecuTorch's runtime:

    cli_programs.py xnnpack   torchvision's MNASNet 0.5 lowered to XNNPACK
    cli_programs.py mistral   a tiny Mistral, prefill + decode with a static
                              KV cache, exported with and without buffer
                              names
    cli_programs.py vit       a tiny ViT (transformers), portable kernels

Each program is lowered by ExecuTorch (its greedy planner) and re-planned
by the CLI: the re-planned program must run bit-identical to ExecuTorch's
in its runtime, and the CLI's arenas must be the package's
(python/coreai_plan_executorch planning the same edge program; ExecuTorch's
XNNPACK padding included). The two-method program: ExecuTorch's default
export is warned about; without buffer names `--share-mutable-buffers`
pairs nothing and says why; with names it pairs the caches, and prefill
then decode through one arena compute what ExecuTorch's own shared export
computes, bit for bit. A planted overlap (two live tensors at one offset)
fails `coreai-plan check`.

$COREAI_PLAN names the coreai-plan of the build under test.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

import torch
from torch.export import export

import harness

WORK = tempfile.mkdtemp(prefix="coreai-cli-programs-")


def cli():
    path = os.environ.get("COREAI_PLAN")
    harness.check(path and os.path.isfile(path),
                  f"$COREAI_PLAN must name the build's coreai-plan, got "
                  f"{path!r}")
    return path


def coreai_plan(*args, expect=0):
    run = subprocess.run([cli(), *args], capture_output=True, text=True)
    harness.check(run.returncode == expect,
                  f"coreai-plan {' '.join(args)} exited {run.returncode}, "
                  f"not {expect}:\n{run.stdout}{run.stderr}")
    return run


def save(program, name):
    path = os.path.join(WORK, name)
    with open(path, "wb") as fp:
        fp.write(program.buffer)
    return path


def replan(path, *options):
    """The CLI's re-plan of `path`: (its JSON summary, its stderr, the new
    program's bytes)."""
    out = path[:-4] + ".replanned.pte"
    run = coreai_plan("plan", path, "-o", out, "--json", *options)
    with open(out, "rb") as fp:
        return json.loads(run.stdout), run.stderr, fp.read()


def run_bytes(data, calls):
    loaded = harness.Runtime.get().load_program(data)
    methods = {name: loaded.load_method(name) for name, _ in calls}
    return [[out.clone() for out in methods[name].execute(inputs)]
            for name, inputs in calls]


def cli_arenas(summary):
    """memory id -> the arena every method of the CLI's program has: the
    new size, or where the program's plan was kept, its largest."""
    sizes = {int(m): size for m, size in summary["arena_sizes"].items()}
    for memory_id in summary["kept_memory_ids"]:
        sizes[memory_id] = max(arena["before"] for arena in summary["arenas"]
                               if arena["memory_id"] == memory_id)
    return sizes


def same_arenas_as_package(label, summary, package_program):
    """The CLI's arena per memory id (every method's, the largest) against
    the package's largest for that memory id."""
    package = harness.arenas(package_program)
    mine = cli_arenas(summary)
    harness.check(mine, f"{label}: the CLI planned no arena")
    for memory_id, size in mine.items():
        theirs = max(sizes[int(memory_id) - 1] for sizes in package.values()
                     if len(sizes) >= int(memory_id))
        harness.check(size == theirs,
                      f"{label}: memory id {memory_id}: the CLI's arena is "
                      f"{size} bytes, the package's {theirs}")
    kept = summary["kept_memory_ids"]
    print(f"{label}: CLI arenas {mine} (kept as exported: {kept}), the "
          f"package's {package}: the same")


def replanned_runs_identical(label, path, calls, *options):
    summary, stderr, data = replan(path, *options)
    with open(path, "rb") as fp:
        original = run_bytes(fp.read(), calls)
    replanned = run_bytes(data, calls)
    harness.check(harness.same_bits(original, replanned),
                  f"{label}: the re-planned program computes otherwise")
    print(f"{label}: re-planned by the CLI, {len(calls)} call(s) identical "
          "bit for bit in ExecuTorch's runtime")
    return summary, stderr


def planted_overlap_fails(label, path):
    """Moves the placement of one planned tensor onto the bytes of another
    that is live with it (pairs from the CLI's own listing, tried until the
    check fails on one) and asks `check`: exit 2, the overlap named."""
    coreai_plan("check", path)  # ExecuTorch's own plan: sound
    listing = coreai_plan("inspect", path, "--buffers").stdout
    rows = []
    for line in listing.splitlines():
        cells = line.split()
        if cells and cells[0].startswith("v") and "heap" in cells:
            at = cells.index("heap")
            rows.append((int(cells[0][1:]), *map(int, cells[at + 1:at + 5])))
    tries = 0
    for value, offset, size, start, end in rows:
        for other, other_offset, _, other_start, other_end in rows:
            if other == value or not offset or other_offset == offset or \
                    max(start, other_start) >= min(end, other_end):
                continue
            planted = path[:-4] + ".planted.pte"
            subprocess.run([sys.executable, os.path.join(
                os.path.dirname(os.path.abspath(__file__)), "..", "lit",
                "pte", "Inputs", "corrupt_pte.py"), "offset", path, planted,
                "0", str(value), str(other_offset)], check=True)
            result = subprocess.run([cli(), "check", planted],
                                    capture_output=True, text=True)
            tries += 1
            if result.returncode == 2 and "share bytes" in result.stdout:
                print(f"{label}: v{value} planted at v{other}'s offset "
                      f"{other_offset}: check fails (exit 2): "
                      f"{result.stdout.splitlines()[1][:200]}...")
                return
            if tries == 20:
                break
    raise harness.TestFailure(f"{label}: no planted overlap failed the "
                              f"check in {tries} tries")


def explain_peaks_within_heaps(label, path):
    """`explain` never shows a peak above the arena's heap (every tensor's
    bytes rounded up to the alignment, as the arena is)."""
    import re
    heap = None
    for line in coreai_plan("explain", path).stdout.splitlines():
        if match := re.match(r"@(\S+?)(?: at S=\d+)?: heap (\d+)", line):
            arena, heap = match.group(1), int(match.group(2))
        if match := re.search(r"peak at op .*?: (\d+) bytes live", line):
            if heap is None:
                raise harness.TestFailure(f"{label}: explain printed a peak "
                                          f"before any arena's heap")
            harness.check(int(match.group(1)) <= heap,
                          f"{label}: explain shows a peak of "
                          f"{match.group(1)} bytes above arena {arena}'s "
                          f"heap of {heap}")


def single_method(label, model, example, partitioner=None):
    """Lowers `model` (one method) with greedy and with the package,
    re-plans greedy's program with the CLI and runs both."""
    if partitioner:
        from executorch.exir import to_edge_transform_and_lower
        edge = to_edge_transform_and_lower(
            {"forward": export(model, example)}, partitioner=[partitioner])
    else:
        edge = harness.export_edge({"forward": export(model, example)})
    greedy = harness.lower(edge, harness.greedy_pass())
    package = harness.lower(edge, harness.coreai_pass(
        harness.coreai_algorithm()))
    path = save(greedy, label + ".pte")
    calls = [("forward", list(example))]
    summary, _ = replanned_runs_identical(label, path, calls)
    same_arenas_as_package(label, summary, package)
    reference = [[model(*example)]]
    difference = harness.largest_difference(
        run_bytes(greedy.buffer, calls), reference)
    harness.check(difference <= 1e-4, f"{label}: {difference} from eager")
    explain_peaks_within_heaps(label, path)
    planted_overlap_fails(label, path)
    return path


def test_xnnpack():
    import torchvision
    try:
        from executorch.backends.xnnpack.partition.xnnpack_partitioner \
            import XnnpackPartitioner
    except ModuleNotFoundError as missing:
        raise harness.TestFailure(
            f"ExecuTorch's XNNPACK partitioner needs {missing.name}: "
            "python/requirements-executorch.txt pins it, so a venv made "
            "before that pin must be made again (scripts/dev venv)")
    torch.manual_seed(0)
    model = torchvision.models.mnasnet0_5(num_classes=10).eval()
    model.requires_grad_(False)
    path = single_method("mnasnet0_5-xnnpack", model,
                         (torch.randn(1, 3, 64, 64),), XnnpackPartitioner())
    with open(path, "rb") as fp:
        harness.check(b"XnnpackBackend" in fp.read(),
                      "no XNNPACK delegate in the program")
    # The arena the CLI keeps is the bytes used plus ExecuTorch's padding.
    summary, _, _ = replan(path)
    sizes = cli_arenas(summary)
    for arena in summary["arenas"]:
        harness.check(sizes[arena["memory_id"]] - arena["after"] == 64,
                      f"the XNNPACK program's arena {arena} does not keep "
                      "ExecuTorch's 64 bytes of padding")
    print("mnasnet0_5-xnnpack: ExecuTorch's 64 bytes of XNNPACK padding "
          "kept by the CLI")


def test_vit():
    from transformers import ViTConfig, ViTModel
    torch.manual_seed(0)
    model = ViTModel(ViTConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=64, image_size=32, patch_size=8)).eval()
    model.requires_grad_(False)

    class Hidden(torch.nn.Module):
        def __init__(self, vit):
            super().__init__()
            self.vit = vit

        def forward(self, pixels):
            return self.vit(pixel_values=pixels).last_hidden_state

    single_method("vit-tiny", Hidden(model), (torch.randn(1, 3, 32, 32),))


if __name__ == "__main__":
    tests = {"xnnpack": test_xnnpack, "vit": test_vit,
             "mistral": lambda: __import__("cli_two_methods").test()}
    if len(sys.argv) != 2 or sys.argv[1] not in tests:
        sys.exit(f"usage: cli_programs.py {'|'.join(tests)}")
    harness.main(tests[sys.argv[1]])

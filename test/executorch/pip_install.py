"""`pip install` of python/ alone, then a program planned with nothing on
PATH (issue 48).

    pip_install.py ROOT

Makes a virtual environment layered on the test environment (its
site-packages named by a .pth path line, so torch and ExecuTorch are found
but no package of it is installed there), installs the checkout's python/
into it with `pip install --no-build-isolation` (scikit-build-core, pinned in
python/requirements-executorch.txt, builds coreai-solve into the wheel) and
then, with PATH empty and $COREAI_SOLVE unset:
- the package imported is the one just installed and its solver is its own
  bin/coreai-solve;
- the tiny Llama of decoders.py, lowered with coreai-plan alone, runs in
  ExecuTorch's runtime bit-identical to ExecuTorch's greedy plan and within
  1e-4 of eager PyTorch;
- negative control: the same package without its bin/ finds no solver and
  says so.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MISSING_SOLVER = 3


def fail(message):
    print(f"FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def layered_venv(directory):
    """A venv whose site-packages come first, then this environment's."""
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", directory],
                   check=True)
    python = os.path.join(directory, "bin", "python")
    own = subprocess.run(
        [python, "-c", "import sysconfig; "
         "print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip()
    # This environment's directories (its site-packages and what its .pth
    # files added), not the script's own: path lines only, so no .pth of
    # theirs runs (an editable install of the package stays out).
    inherited = [path for path in sys.path[1:] if os.path.isdir(path)]
    with open(os.path.join(own, "zz-test-environment.pth"), "w") as pth:
        pth.write("".join(path + "\n" for path in inherited))
    return python, own


def pip_install(python, root, build_dir):
    """`pip install` of python/ with this environment's pip and build backend
    (no download); ccache, where installed, keeps a rebuild cheap."""
    command = [python, "-m", "pip", "install", "--no-deps",
               "--no-build-isolation", "--no-cache-dir",
               "--disable-pip-version-check", "--quiet",
               f"--config-settings=build-dir={build_dir}"]
    env = dict(os.environ)
    if shutil.which("ccache"):
        command.append("--config-settings=cmake.define."
                       "CMAKE_CXX_COMPILER_LAUNCHER=ccache")
        env.update(CCACHE_BASEDIR=root, CCACHE_NOHASHDIR="1")
    command.append(os.path.join(root, "python"))
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"pip install of python/ exited {done.returncode}:\n"
             f"{done.stdout}{done.stderr}")


def bare_environment(python_path=None):
    """No PATH, no $COREAI_SOLVE: only what the package brings."""
    env = {"PATH": "", "HOME": os.environ.get("HOME", "/tmp"),
           "PYTHONDONTWRITEBYTECODE": "1"}
    if python_path:
        env["PYTHONPATH"] = python_path
    return env


def parent(root):
    try:
        import scikit_build_core  # noqa: F401
    except ImportError:
        fail(f"no scikit-build-core in {sys.prefix}: python/requirements-"
             "executorch.txt pins it (scripts/dev venv installs it)")
    with tempfile.TemporaryDirectory(prefix="coreai-pip-") as scratch:
        python, site = layered_venv(os.path.join(scratch, "venv"))
        pip_install(python, root, os.path.join(scratch, "build"))
        package = os.path.join(site, "coreai_plan_executorch")
        solver = os.path.join(package, "bin", "coreai-solve")
        if not os.access(solver, os.X_OK):
            fail(f"pip install put no coreai-solve at {solver}")
        print(f"pip install: {solver} ({os.path.getsize(solver)} bytes)")
        child = [python, os.path.abspath(__file__), "--plan", package]
        done = subprocess.run(child, env=bare_environment(), cwd=scratch)
        if done.returncode != 0:
            fail(f"planning through the installed package exited "
                 f"{done.returncode}")
        # Negative control: the package as it was before it carried its
        # solver, still with nothing on PATH.
        without = os.path.join(scratch, "without-solver")
        shutil.copytree(package, os.path.join(without,
                                              "coreai_plan_executorch"),
                        ignore=shutil.ignore_patterns("bin"))
        done = subprocess.run(
            [python, os.path.abspath(__file__), "--expect-missing",
             os.path.join(without, "coreai_plan_executorch")],
            env=bare_environment(without), cwd=scratch)
        if done.returncode != 0:
            fail("the package without bin/ found a solver or failed "
                 "otherwise: the check above proves nothing")
    print("PASSED")


def imported_from(expected):
    import coreai_plan_executorch
    where = os.path.dirname(os.path.abspath(coreai_plan_executorch.__file__))
    if where != os.path.abspath(expected):
        fail(f"imported coreai_plan_executorch from {where}, not {expected}")


def expect_missing(expected):
    imported_from(expected)
    from coreai_plan_executorch import Solver, SolverError
    try:
        solver = Solver()
    except SolverError as error:
        print(f"without bin/, as expected: {error}")
        sys.exit(0)
    fail(f"found a solver at {solver.path} with PATH empty and no bin/")


def plan(expected):
    """In the bare environment: lower and run the tiny Llama."""
    imported_from(expected)
    sys.path.insert(0, HERE)
    import torch
    from torch.export import export
    from coreai_plan_executorch import CoreAIPlanAlgorithm

    import decoders
    import harness
    algorithm = CoreAIPlanAlgorithm()
    bundled = os.path.join(expected, "bin", "coreai-solve")
    harness.check(algorithm.solver.path == bundled,
                  f"the package runs {algorithm.solver.path}, not {bundled}")
    torch.manual_seed(0)
    model = decoders.Logits(decoders.llama().eval())
    model.requires_grad_(False)
    tokens = torch.randint(0, decoders.VOCAB, (1, decoders.TOKENS))
    edge = harness.export_edge({"forward": export(model, (tokens,))},
                               keep_linear=True)
    harness.compare_planners("pip-installed", edge, [("forward", [tokens])],
                             reference=[[model(tokens)]], algorithm=algorithm)
    harness.check(algorithm.records and all(
        arena.optimal for record in algorithm.records
        for arena in record.arenas), "no proven plan came back")


def main():
    if len(sys.argv) == 2:
        parent(os.path.abspath(sys.argv[1]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--plan":
        sys.path.insert(0, HERE)
        import harness
        harness.main(lambda: plan(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--expect-missing":
        expect_missing(sys.argv[2])
    else:
        sys.exit("usage: pip_install.py ROOT")


if __name__ == "__main__":
    main()

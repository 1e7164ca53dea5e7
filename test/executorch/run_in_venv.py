#!/usr/bin/env python3
"""Runs an ExecuTorch test in the virtual environment that scripts/dev makes,
or skips it (exit 77, ctest's SKIP_RETURN_CODE) saying why.

    run_in_venv.py VENV SCRIPT [ARGS...]

$COREAI_EXECUTORCH_SKIP, when set, is a reason to skip (the sanitizer build:
these tests run once, in the gcc build).
"""
import os
import sys

SKIP = 77


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: run_in_venv.py VENV SCRIPT [ARGS...]")
    venv, script = sys.argv[1], sys.argv[2]
    reason = os.environ.get("COREAI_EXECUTORCH_SKIP")
    python = os.path.join(venv, "bin", "python")
    if not reason and not os.access(python, os.X_OK):
        reason = (f"no ExecuTorch virtual environment at {venv} "
                  "(scripts/dev venv makes it; scripts/dev test always does)")
    if reason:
        print(f"SKIPPED: {reason}")
        sys.exit(SKIP)
    sys.stdout.flush()
    os.execv(python, [python, script] + sys.argv[3:])


if __name__ == "__main__":
    main()

# lit configuration for coreai-plan's FileCheck tests.
import os
import sys

sys.path.insert(0, os.path.join(config.coreai_src_root, "test"))
from litsuite import configure_suite

configure_suite(config, "coreai-plan", "lit")
config.substitutions.append(("%shared", config.shared_dir))
config.substitutions.append(("%objroot", config.coreai_obj_root))
# Tests over ../shared data are marked `REQUIRES: shared-data`; lit reports
# them as UNSUPPORTED (with this reason) where the folder is absent.
if os.path.isdir(os.path.join(config.shared_dir, "graphs")):
    config.available_features.add("shared-data")
else:
    lit_config.note("shared data not found at %s: tests that need it are skipped" % config.shared_dir)
# torch.export archives (`.pt2`) came later than the graphs.
if os.path.isdir(os.path.join(config.shared_dir, "exports")):
    config.available_features.add("shared-exports")

# The executor of planned graphs (tools/coreai-exec) runs on Debian's
# python3-torch; that python is called by path, since a python3 earlier on
# PATH may lack torch.
config.substitutions.append(("%coreai-exec", "env PYTHONPATH=%s /usr/bin/python3 -m coreai_exec"
                             % os.path.join(config.coreai_src_root, "tools", "coreai-exec")))

# The ATen op facts' regeneration test (lit/aten) needs Debian's
# python3-torch, the torch the checked-in table was generated from.
if os.path.exists("/usr/bin/python3") and os.system(
        "/usr/bin/python3 -c 'import torch' > /dev/null 2>&1") == 0:
    config.available_features.add("torch")
    config.substitutions.append(("%torch-python", "/usr/bin/python3"))
else:
    lit_config.note("torch not found for /usr/bin/python3: the ATen op facts are not regenerated "
                    "(apt-get install python3-torch)")

# The browser test needs Debian's chromium (scripts/dev test installs it).
import shutil
chromium = shutil.which("chromium")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))
else:
    lit_config.note("chromium not found: the browser test is skipped (apt-get install chromium)")

# Sanitizer builds run 3-10x slower: searches with a time budget may not
# finish there, so tests that need a search to succeed in time say
# `UNSUPPORTED: sanitizer`.
if getattr(config, "sanitized", False):
    config.available_features.add("sanitizer")

# ExecuTorch's runtime (the `executorch` pip package) runs the programs of
# lit/pte, before and after `coreai-plan plan`: a python that has it is
# named by COREAI_EXECUTORCH_PYTHON (docs/PTE.md), else the test-only
# environment `scripts/dev test` makes (COREAI_EXECUTORCH_VENV).
et_python = os.environ.get("COREAI_EXECUTORCH_PYTHON")
venv = getattr(config, "executorch_venv", "")
if not et_python and venv and os.path.exists(os.path.join(venv, "bin", "python")):
    et_python = os.path.join(venv, "bin", "python")
if et_python and os.system(
        "%s -c 'import executorch.runtime' > /dev/null 2>&1" % et_python) == 0:
    config.available_features.add("executorch")
    config.substitutions.append(("%et-python", et_python))
else:
    lit_config.note("COREAI_EXECUTORCH_PYTHON names no python with executorch: "
                    "the runs of re-planned .pte programs are skipped")

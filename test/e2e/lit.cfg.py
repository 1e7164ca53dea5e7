# lit configuration of the end-to-end suite: each model runs on the CPU
# without and with the arena (run_e2e.py) and the outputs must match.
import os
import sys

sys.path.insert(0, os.path.join(config.coreai_src_root, "test"))
from litsuite import configure_suite

configure_suite(config, "coreai-plan-e2e", "e2e")
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%llvmlib", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))

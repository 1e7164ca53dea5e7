# lit configuration of the end-to-end suite: each model runs on the CPU
# without and with the arena (run_e2e.py) and the outputs must match.
import os
import sys
import lit.formats

config.name = "coreai-plan-e2e"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.coreai_obj_root, "test", "e2e")

config.environment["PATH"] = os.pathsep.join(
    [config.coreai_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")]
)
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%srcroot", config.coreai_src_root))
config.substitutions.append(
    ("%llvmlib", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))

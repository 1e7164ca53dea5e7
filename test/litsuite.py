"""What the lit suites (test/lit, test/e2e) configure alike: the shell test
format, the files that are tests, where they run, and the tools on PATH
(the build's, then LLVM's)."""
import os

import lit.formats


def configure_suite(config, name, subdir):
    config.name = name
    config.test_format = lit.formats.ShTest(execute_external=False)
    config.suffixes = [".mlir", ".test"]
    config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
    config.test_source_root = os.path.join(config.coreai_src_root, "test", subdir)
    config.test_exec_root = os.path.join(config.coreai_obj_root, "test", subdir)
    config.environment["PATH"] = os.pathsep.join(
        [config.coreai_tools_dir, config.llvm_tools_dir,
         config.environment.get("PATH", "")])
    config.substitutions.append(("%srcroot", config.coreai_src_root))

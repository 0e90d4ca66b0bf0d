"""The layering of architecture.md holds: the runtime stands alone, the CLI is on top."""

import subprocess
import sys

ISOLATED_RUNTIME = """
import sys
# Make the compiler and the front-end libraries unimportable, then use the runtime.
for name in ("bidcompiler", "yaml", "lark", "jsonschema", "click"):
    sys.modules[name] = None
import runtime, runtime.hand, runtime.game, runtime.records, runtime.simulate, runtime.bots
print("ok")
"""


def test_runtime_imports_without_the_compiler():
    done = subprocess.run([sys.executable, "-c", ISOLATED_RUNTIME], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


ISOLATED_COMPILER = """
import importlib, pkgutil, sys
# The compiler's modules stand below the command line: none of them needs click,
# and each imports on its own (no import cycle through the CLI).
sys.modules["click"] = None
import bidcompiler
for info in pkgutil.iter_modules(bidcompiler.__path__):
    if not info.ispkg and info.name not in ("render", "table"):  # the terminal's own modules
        importlib.import_module("bidcompiler." + info.name)
print("ok")
"""


def test_compiler_modules_import_without_the_command_line():
    done = subprocess.run([sys.executable, "-c", ISOLATED_COMPILER], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"

"""The layering of architecture.md holds: the runtime stands alone, the CLI is on top."""

import pkgutil
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
# The compiler's modules stand below the command line and its presentation: none of
# them needs click or rich (the table, plots, report wording and the terminal program
# live in bidcompiler/cli/), and each imports on its own (no import cycle through the CLI).
for name in ("click", "rich"):
    sys.modules[name] = None
import bidcompiler
names = [info.name for info in pkgutil.iter_modules(bidcompiler.__path__) if not info.ispkg]
# The compiler's own packages (the formula language) too: all but the command line.
for pkg in [info.name for info in pkgutil.iter_modules(bidcompiler.__path__) if info.ispkg and info.name != "cli"]:
    sub = importlib.import_module("bidcompiler." + pkg)
    names += [pkg + "." + info.name for info in pkgutil.iter_modules(sub.__path__)]
for name in names:
    importlib.import_module("bidcompiler." + name)
print(len(names))
"""


def test_compiler_modules_import_without_the_command_line_or_rich():
    done = subprocess.run([sys.executable, "-c", ISOLATED_COMPILER], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.strip()) > 10  # the compiler's modules were found and imported


PRESENTATION = ("table", "plots", "render", "hand_rules", "terminal", "report")


def test_presentation_lives_in_the_command_line_package():
    """The terminal table, plots, report wording and the terminal program are CLI modules."""
    import bidcompiler
    import bidcompiler.cli

    top = {info.name for info in pkgutil.iter_modules(bidcompiler.__path__)}
    cli = {info.name for info in pkgutil.iter_modules(bidcompiler.cli.__path__)}
    assert top.isdisjoint(PRESENTATION + ("handrules",))
    assert set(PRESENTATION) <= cli


ISOLATED_RUNTIME_WORDS = """
import sys
# The runtime produces data; it needs no console library to do so.
for name in ("bidcompiler", "rich", "click"):
    sys.modules[name] = None
import runtime.simulate, runtime.metrics, runtime.backends
print("ok")
"""


def test_runtime_simulation_needs_no_presentation():
    done = subprocess.run([sys.executable, "-c", ISOLATED_RUNTIME_WORDS], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"

"""Test-wide settings: in CI (CI=true), hypothesis draws the same examples on every run.

A red CI must mean a real regression, not an unlucky draw; locally, tests keep
drawing fresh examples, which is how new bugs are found.
"""

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import settings

# clirun's asserts are checks of the tests: rewritten like theirs, a failure shows
# its values (this must happen before any test module imports clirun).
pytest.register_assert_rewrite("clirun")

# The rule cache (bidcompiler.rulecache) of every test and every command a test runs
# (subprocesses inherit the environment) lives in a folder of this run's own, never in
# the user's real cache; tests of the cache itself point it elsewhere again.
_CACHE = tempfile.mkdtemp(prefix="bidwhist-test-cache-")
os.environ["BIDWHIST_CACHE_DIR"] = _CACHE
os.environ.pop("BIDWHIST_NO_CACHE", None)
atexit.register(shutil.rmtree, _CACHE, True)

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_collection_finish(session):
    """Note how many cases the fuzz tests to be run ask for (printed at the end of the run)."""
    from fuzzing import planned_cases

    session.config._fuzz_planned = planned_cases(session.items)
    # Under pytest-xdist each worker collects every test (and runs its share), while only the
    # controller, which collects nothing, prints the summary: the worker hands the count over.
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["fuzz_planned"] = session.config._fuzz_planned


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """On the xdist controller: take the fuzz case count from a worker (every worker's is the same)."""
    planned = getattr(node, "workeroutput", {}).get("fuzz_planned")
    if planned and not getattr(node.config, "_fuzz_planned", None):
        node.config._fuzz_planned = planned


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The fuzz case count, so a scaled run (BIDWHIST_FUZZ_SCALE) says how many cases it was."""
    planned = getattr(config, "_fuzz_planned", None)
    if planned:
        from fuzzing import SCALE

        parts = ", ".join(f"{name} {n:,}" for name, n in sorted(planned.items()))
        terminalreporter.write_line(f"fuzz cases (BIDWHIST_FUZZ_SCALE={SCALE:g}): {sum(planned.values()):,} "
                                    f"({parts})")

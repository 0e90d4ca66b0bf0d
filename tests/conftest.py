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


# The files that take longest, run first, longest first: the 24 files of 45 s or more in the
# last measured whole run (two xdist workers, `--junitxml=J.xml`, each file's test times summed;
# nineteenth session, 4,844 tests in 2,274 s of wall time on a loaded 2-core machine; in the
# order below: 249, 245, 207, 204, 207 (≈ 10% less since the twentieth session), 172, 151, 141,
# 139, 129, 128, 127, 127, 123, 114, 103, 93, 82, 81, 74, 69, 57, 57, 46 s of test time, 3,125 s
# of the suite's 3,976 s of test time summed over both workers).  pytest-xdist hands whole files to its
# two workers (--dist loadfile) in the order they come; by default it reorders them by their
# number of tests (pyproject.toml turns that off), which left long files for last, so that one
# worker ran the last of them while the other sat idle.  With every file of 45 s or more first,
# the files left for the end are short ones (a model of the two workers taking the next file in
# turn, each file's time drawn from 0.6-1.5x the figures above: the workers' mean gap at the end
# 17 s with the fourteen files first before, 13 s now; 1 in 10 runs above 34, now 23).  Only the
# order changes; every test still runs.
LONGEST_FIRST = ("test_readme.py", "test_spec_oracle.py", "test_solver.py", "test_hardening_hostile.py",
                 "test_simulate_all.py", "test_corpus.py", "test_fuzz_variants.py", "test_play.py",
                 "test_sampler_deals.py", "test_playout_fast.py", "test_rulecache.py", "test_simulate.py",
                 "test_spec_game_records.py", "test_fuzz_records.py", "test_properties.py", "test_bots.py",
                 "test_hardening_variants.py", "test_hardening_records.py", "test_bot_tables.py",
                 "test_compare.py", "test_tutorial.py", "test_hardening_cli.py", "test_legal_fast_path.py",
                 "test_record_paths.py")


def pytest_collection_modifyitems(session, config, items):
    """Run the longest files first (:data:`LONGEST_FIRST`), the rest in their usual order."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: order within a file kept


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

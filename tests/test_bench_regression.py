"""bench/regression.py runs end to end with tiny counts: every row measured, old and current agree.

Speed itself is never asserted here (the machine is shared); what is tested is that
the bench exports the old revision, drives both engines through their API, finds
(or says it cannot find) the reference, prints every row and ratio, and that the
same seeds give identical hands in the old and the current engine.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "regression.py"
OLD = "df1e856"


def run_bench(*args: str) -> subprocess.CompletedProcess:
    """The bench with tiny counts and ``args``, from outside the checkout."""
    return subprocess.run([sys.executable, str(BENCH), "--hands", "4", "--heuristic-hands", "2", "--rounds", "2",
                           *args], capture_output=True, text=True, cwd=ROOT.parent)


def old_revision_available() -> bool:
    """Whether this checkout is a git repository that holds the default old revision."""
    try:
        found = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{OLD}^{{commit}}"], capture_output=True)
    except OSError:
        return False
    return found.returncode == 0


def test_the_bench_measures_every_row_and_old_and_current_agree(tmp_path):
    missing = tmp_path / "bidwhist_v2.py"
    done = run_bench("--reference", str(missing))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"reference: skipped, {missing} is missing" in out
    assert "current engine (working tree" in out
    assert "plain tests/plain_standard.py" in out
    assert "random play, current / plain" in out
    if old_revision_available():
        assert f"old engine ({OLD}" in out
        for line in ("random play, current / old", "heuristic bots, current / old"):
            assert line in out
        verdicts = [line for line in out.splitlines() if line.startswith("same seeds")]
        assert len(verdicts) == 2 and all(line.endswith(": identical") for line in verdicts), out
    else:  # a checkout without that history (an unpacked archive): the bench says so and goes on
        assert f"old engine: skipped, revision '{OLD}' cannot be exported" in out


def test_the_reference_is_measured_when_given_and_an_unknown_old_revision_is_not_fatal(tmp_path):
    reference = tmp_path / "bidwhist_v2.py"
    # A stand-in with the reference's interface: the bench drives it as it drives bidwhist_v2.py.
    reference.write_text("def play_hand(rng, dealer=0):\n    return [rng.randrange(5), 0], 60\n")
    done = run_bench("--reference", str(reference), "--old", "no-such-revision-anywhere")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "old engine: skipped, revision 'no-such-revision-anywhere' cannot be exported" in out
    assert "reference bidwhist_v2.py" in out
    assert "random play, current / reference" in out
    assert "current / old" not in out and "same seeds" not in out

"""bench/instructions.py's child processes play what they say: the counted jobs run, and the engine loop,
the random playout and the loop with layers taken away play the same hands.

Instructions themselves are never counted here (valgrind is slow and may be missing);
what is tested is the part of the bench that runs under it, and how it reads the count.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import instructions  # noqa: E402


def run_child(job: str, hands: int, reference: Path) -> subprocess.CompletedProcess:
    """The child of ``job`` run without valgrind, from outside the checkout."""
    return subprocess.run(instructions.child_argv(job, hands, reference, digest=True), capture_output=True,
                          text=True, cwd=ROOT.parent)


def test_the_engine_jobs_play_the_same_hands(tmp_path):
    digests = {}
    for job in ("engine loop", "random playout", *instructions.LAYERS):
        done = run_child(job, 7, tmp_path / "unused.py")
        assert done.returncode == 0, done.stderr
        digests[job] = done.stdout.strip()
    assert len(digests["engine loop"]) == 16
    assert len(set(digests.values())) == 1, digests
    other = run_child("random playout", 8, tmp_path / "unused.py")
    assert other.stdout.strip() != digests["random playout"]  # the digest is of the hands played


def test_the_reference_job_drives_the_file_given(tmp_path):
    reference = tmp_path / "bidwhist_v2.py"
    # A stand-in with the reference's interface (bench/engine.py drives it as it drives bidwhist_v2.py).
    reference.write_text("def play_hand(rng, dealer=0):\n    return [rng.randrange(5), 0], 60\n")
    done = run_child("reference", 5, reference)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip()) == 16


def test_a_counted_child_prints_nothing(tmp_path):
    done = subprocess.run(instructions.child_argv("random playout", 3, tmp_path / "unused.py"), capture_output=True,
                          text=True, cwd=ROOT.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_the_count_is_read_from_callgrind_s_summary():
    stderr = "==12== Events    : Ir\n==12== Collected : 1450262713\n==12==\n==12== I   refs:      1,450,262,713\n"
    assert instructions.collected(stderr) == 1450262713
    assert instructions.collected("==12== no summary\n") is None

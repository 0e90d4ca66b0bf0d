"""bench/overbids_paired.py: its usage as docs/measurements.md quotes it, and `--help` answers.

The bench compares two ``bench/realism.py --dump`` files hand by hand; these tests hold
that it reads its two files as documented and that asking it for help is no traceback.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "overbids_paired.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, cwd=ROOT)


def test_help_prints_its_usage():
    proc = _run("--help")
    assert proc.returncode == 0, proc.stderr
    assert "BEFORE" in proc.stdout and "AFTER" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_two_dumps_are_compared_hand_by_hand(tmp_path):
    rows = [{"hand": h, "makeable": h % 2 == 0, "books": 7, "dd": 8, "made": True, "bid": 4, "declarer": 1}
            for h in range(4)]
    before, after = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    before.write_text("".join(json.dumps(r) + "\n" for r in rows))
    after.write_text("".join(json.dumps({**r, "makeable": True}) + "\n" for r in rows[:3]))
    proc = _run(str(before), str(after))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("3 common hands; overbids 33.3% -> 0.0%")
    assert "contracts changed 0" in proc.stdout

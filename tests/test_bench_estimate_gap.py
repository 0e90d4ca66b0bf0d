"""bench/estimate_gap.py: its rows add up, and it runs end to end with tiny counts.

The bench measures how far the heuristic's declaring estimate is from the books its
side takes (docs/measurements.md's row "hawaii's bid values, ninth session"); these tests hold
that its parts are a true split of that gap, not what the gap is.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from runtime.bots.heuristic import HeuristicBot
from runtime.bots.knowledge import rules_info

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "estimate_gap.py"


def _bench():
    spec = importlib.util.spec_from_file_location("estimate_gap", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("variant", ["hawaii", "standard"])
def test_the_gap_is_the_sum_of_its_parts(variant):
    bench = _bench()
    rules = load_ruleset(variant)
    info = rules_info(rules)
    bot = HeuristicBot()
    rows = [r for i in range(40) if (r := bench.one(rules, info, bot, i, 1)) is not None]
    assert len(rows) >= 30  # every shipped 4-seat variant here declares nearly every hand
    lowest = min(b.level for b in rules.bids)
    for r in rows:
        assert 0 <= r["took"] <= info.total_books
        assert r["who"] in ("forced", "alone", "contest")
        if r["who"] == "forced":
            assert r["level"] == lowest  # a dealer nobody bid against must bid the lowest rung
        # took - est = the declarer's own tricks against its kept hand's estimate, the kitty
        # seen against its credit, the partner's tricks against its share, and the discards'
        # book (taken with the contract in both variants) against its credit.
        parts = ((r["own_took"] - r["kept"]) + (r["kitty_seen"] - r["kitty_est"])
                 + (r["partner_took"] - r["partner_est"]) + (1.0 - info.declarer_book))
        assert r["took"] - r["est"] == pytest.approx(parts)
        assert 0.0 <= r["made_p"] <= 1.0


def test_the_bench_runs_end_to_end():
    done = subprocess.run([sys.executable, str(BENCH), "--variants", "hawaii", "--hands", "30", "--split", "3"],
                          capture_output=True, text=True, cwd=ROOT.parent)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "== hawaii: " in out
    assert "suit: took = " in out
    assert "paired vs baseline, 3 deals:" in out

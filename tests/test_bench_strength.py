"""bench/strength.py --set: bot A's settings travel in each job, so a worker process sees them
whichever way it was started (forked, or spawned as on macOS and Windows)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import strength  # noqa: E402

from runtime.bots import heuristic  # noqa: E402


def test_a_deals_job_plays_bot_a_with_the_settings_it_carries():
    # Was: the settings were a module global set in the parent; a spawned worker had none,
    # so `--set ... --workers 2` measured the bot as shipped (0.00, 0 deals changed) on macOS.
    job = ("standard", "heuristic", "heuristic", 1, 8, None)
    assert strength.paired_deal((*job, ())) == 0.0  # the same bot on both sides of a paired deal
    assert strength.paired_deal((*job, ("heuristic._BID_CREDIT=2.0",))) != 0.0
    assert heuristic._BID_CREDIT == 0.0  # put back after each decision

"""bench/decision_points.py and bench/auctions.py --top: what docs/measurements.md quotes them for.

decision_points replays each deal with one call of an auction changed; these tests hold
that the bots' own calls replayed give the bots' own result (so a gain of 0 means no
change), that the call the bot made is never counted as an alternative, and that the
bot's own margin is read from its reasons.  auctions' ``--top`` lists each auction's
share with an interval that holds it.  The heuristic's overcall credit (a measurement
knob, 0 as shipped) is tested to bid more, never less.
"""

import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import auctions  # noqa: E402
import decision_points as dp  # noqa: E402
from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots import heuristic  # noqa: E402
from runtime.bots.heuristic import HeuristicBot  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import HandState  # noqa: E402


def test_own_margin_reads_pass_and_bid_reasons():
    assert dp.own_margin("pass: the best bid, 4, is worth -0.3 against +0.4 defending the opponents' contract") \
        == pytest.approx(-0.7)
    assert dp.own_margin("bid 3: about 10.9 books expected with hearts trump, worth +0.7 against -0.1 for "
                         "passing (if their dealer is forced to bid or the opponents bid)") == pytest.approx(-0.8)
    assert dp.own_margin("bid 3 (must bid): about 7.9 books expected with hearts trump, worth -0.9") is None


@pytest.mark.parametrize("variant", ["hawaii", "oregon"])
def test_the_bots_own_calls_replayed_give_the_bots_own_result(variant):
    rules = load_ruleset(variant)
    for index in range(3):
        hands, kitty = deal(rules, random.Random(f"decision_points:1:{index}"))
        base = dp.playout(rules, "heuristic", 1, index, hands, kitty, [])
        calls = [a for _, a in base.calls]
        again = dp.playout(rules, "heuristic", 1, index, hands, kitty, calls)
        assert again.score == base.score and again.calls == base.calls


def test_a_deal_tries_only_calls_the_bot_did_not_make():
    rules = load_ruleset("hawaii")
    target = [rules.action_names.index(n) for n in ("pass", "3", "pass", "pass")]
    seen = 0
    for index in range(8):
        full, out = dp.one_deal(("hawaii", "heuristic", 1, index, target, 2))
        hands, kitty = deal(rules, random.Random(f"decision_points:1:{index}"))
        calls = [a for _, a in dp.playout(rules, "heuristic", 1, index, hands, kitty, []).calls]
        assert full == (calls == target)
        for k, alt, _gain, _margin in out:
            assert calls[:k] == target[:k] and calls[k] == target[k] and alt != calls[k]
            seen += 1
    assert seen  # some deals reached the auction's first call


def test_the_command_prints_a_row_per_call_and_refuses_an_unknown_call():
    run = [sys.executable, str(ROOT / "bench" / "decision_points.py"), "--variant", "hawaii", "--deals", "6"]
    ok = subprocess.run(run + ["--auction", "3,pass,pass,pass"], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("hawaii: 6 deals, seed 1, bots heuristic; the auction '3 / pass / pass / pass'")
    bad = subprocess.run(run + ["--auction", "3,double"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "--auction" in bad.stderr and "Traceback" not in bad.stderr


def test_auctions_top_lists_shares_with_intervals_that_hold_them():
    r = auctions.measure("hawaii", 40, 1, "heuristic")
    assert sum(n for _, n in r["auctions"]) == 40
    assert r["auctions"][0] == (r["top_auction"], round(r["top_share"] * 40))
    for _, n in r["auctions"]:
        lo, hi = auctions.wilson(n, 40)
        assert 0.0 <= lo <= n / 40 <= hi <= 1.0
    assert auctions.wilson(0, 0) == (0.0, 1.0)


def test_the_overcall_credit_bids_more_never_less(monkeypatch):
    rules = load_ruleset("hawaii")
    more = fewer = 0
    for i in range(120):
        hands, kitty = deal(rules, random.Random(f"knob:{i}"))
        state = HandState(rules, 0, [list(h) for h in hands], list(kitty))
        opening = HeuristicBot().choose(state)
        if opening == rules.pass_action:
            continue
        state.apply_action(opening)  # the first caller opens; the next seat is an opponent
        monkeypatch.setattr(heuristic, "_OVERCALL_SHORT_SHARE", 0.0)
        before = HeuristicBot().choose(state)
        monkeypatch.setattr(heuristic, "_OVERCALL_SHORT_SHARE", 1.0)
        after = HeuristicBot().choose(state)
        more += before == rules.pass_action and after != rules.pass_action
        fewer += after == rules.pass_action and before != rules.pass_action
    assert more > 0 and fewer == 0

"""The baseline bot is today's heuristic, frozen: both decide alike, for now.

TEMPORARY: this file proves that ``baseline`` (runtime/bots/baseline) is an exact copy
of the heuristic as it stood when the copy was made.  It is to be DELETED in the
commit that first changes the heuristic's decisions (issue 14): from then on the two
bots differ on purpose, and the baseline's own guard is the behaviour corpus
(tests/test_corpus.py), which re-simulates its records with the baseline.
"""

import random

import pytest

from bidcompiler.pipeline import load_ruleset, shipped_variants
from runtime.bots import BOTS, BaselineBot, HeuristicBot, make_bot
from runtime.game import deal
from runtime.hand import HandState


def both_decide(rules, hands: int, seed: int) -> int:
    """Play ``hands`` hands with the heuristic in every seat, asking the baseline at every
    decision too: every action and its reason in words must be the same.  Returns the
    number of decisions compared."""
    rng = random.Random(seed)
    heuristic, baseline = HeuristicBot(), BaselineBot()
    compared = 0
    for i in range(hands):
        dealt, kitty = deal(rules, rng)
        state = HandState(rules, i % rules.players, dealt, kitty)
        while not state.is_terminal():
            action = heuristic.choose(state)
            assert baseline.choose(state) == action, f"hand {i}, {state.phase}, {state.seat}"
            if compared % 7 == 0:  # the reasons too, now and then (explain is slower)
                assert baseline.explain(state) == heuristic.explain(state), f"hand {i}"
            compared += 1
            state.apply_action(action)
    return compared


def test_baseline_is_registered_apart_from_the_heuristic():
    assert BOTS["baseline"] is BaselineBot
    assert make_bot("baseline", random.Random(0)).name == "baseline"
    assert BaselineBot is not HeuristicBot
    # Its own modules: the heuristic's tables and play may change without moving it.
    assert BaselineBot.__module__ == "runtime.bots.baseline.heuristic"


def test_baseline_and_heuristic_decide_alike_in_standard():
    assert both_decide(load_ruleset("standard"), 300, 14) > 300 * 50


@pytest.mark.parametrize("variant", sorted(v for v in shipped_variants() if v != "standard"))
def test_baseline_and_heuristic_decide_alike_in_every_variant(variant):
    assert both_decide(load_ruleset(variant), 25, 14) > 25 * 10

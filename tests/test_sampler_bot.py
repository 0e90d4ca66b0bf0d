"""The sampler bot's choices: it bids from sampled deals, and samples only decisions that matter.

* with ``bidding=True``, a hand strong in one suit bids; one of middling cards (no use
  up or down) passes — both from playouts of deals
  consistent with the auction, scored by the variant's own scoring;
* where nothing is to gain (a card that follows suit and cannot win, a forced card)
  it plays the heuristic's card without drawing a single deal;
* candidates race: equal candidates stop the race after ``min_samples`` deals.
"""

from __future__ import annotations

import random

from runtime.bots import HeuristicBot, SamplerBot
from tests.test_bots import _no_kitty_deal, act, hand_state, name_of, rules_of


def test_a_strong_hand_bids_and_a_hopeless_one_passes():
    rules = rules_of("standard")
    strong = hand_state(rules, 0, {1: "AS KS QS JS TS 9S 8S AH KH AD KD AC"})
    action, reason = SamplerBot(random.Random(2), bidding=True).explain(strong)
    assert name_of(strong, action) != "pass", reason
    assert "sampled deals" in reason
    # A hopeless hand does not jump.  Whether it passes or opens at the lowest level is
    # for the playouts' noise to say: with heuristic bots playing the rest the two are
    # worth the same (``bench/fixed_hand.py --hand "7S 8S 9S 6H 8H 9H 7D 8D 9D 7C 8C 6C"
    # --calls "pass,3 downtown"``, 300 deals: 3 downtown -0.14 +-0.58 points against pass).
    weak = hand_state(rules, 0, {1: "7S 8S 9S 6H 8H 9H 7D 8D 9D 7C 8C 6C"})
    call = name_of(weak, SamplerBot(random.Random(2), bidding=True).choose(weak))
    assert call == "pass" or call.split()[0] == "3", call


def test_nothing_to_gain_draws_no_deal():
    # Seat 2 holds KS 5S under the AS: it cannot win the trick, so it plays the
    # heuristic's low card (keeping the KS) without sampling.
    state = act(_no_kitty_deal(), "AS", "4S")
    rng = random.Random(5)
    before = rng.getstate()
    bot = SamplerBot(rng)
    card = bot.choose(state)
    assert name_of(state, card) == "5S"
    assert card == HeuristicBot(random.Random(0)).choose(state)
    assert rng.getstate() == before


def test_equal_candidates_stop_the_race_early():
    # The declarer leads with every trump and every side winner: whatever it leads,
    # it takes every trick, so the race stops after min_samples deals.
    rules = rules_of("standard+no-kitty")
    state = hand_state(rules, 3, {
        0: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    })
    act(state, "1 uptown", "pass", "pass", "pass", "trump H")
    bot = SamplerBot(random.Random(3), samples=8, min_samples=2)
    _, reason = bot.explain(state)
    assert "nothing to sample" in reason or "over 2 sampled deals" in reason, reason


def test_the_heuristic_card_stands_unless_beaten_beyond_doubt():
    # With an impossible margin to beat, every decision is the heuristic's.
    state = _no_kitty_deal()
    bot = SamplerBot(random.Random(4), samples=4, keep_z=1e9)
    assert bot.choose(state) == HeuristicBot(random.Random(0)).choose(state)

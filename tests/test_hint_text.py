"""The heuristic bot's reason for a bid (``bidwhist play``'s hint) says what passing is worth.

A hint "bid 3 downtown: ..., worth -1.8" reads as a mistake unless it also says that
passing is worth less still; the reason now gives passing's value, from the bot's own
comparison, wherever passing is allowed, and a forced bid still says it is forced.
"""

from __future__ import annotations

import random
import re

from bidcompiler.pipeline import load_ruleset
from runtime.bots import HeuristicBot
from runtime.game import deal
from runtime.hand import AUCTION, HandState

WORTH = re.compile(r"worth ([+-]\d+\.\d) against ([+-]\d+\.\d) for passing \((.+)\)$")


def _bid_reasons(variant: str, deals: int, seed: int):
    """(reason, whether passing was legal) of every bid or take the heuristic bot makes
    in the auctions of ``deals`` deals."""
    rules = load_ruleset(variant)
    rng = random.Random(seed)
    found = []
    for d in range(deals):
        hands, kitty = deal(rules, rng)
        state = HandState(rules, d % rules.players, hands, kitty)
        while state.phase == AUCTION:
            action, reason = HeuristicBot(random.Random(0)).explain(state)
            if reason.startswith(("bid ", "take ")):
                found.append((reason, rules.pass_action in state.legal_actions()))
            state.apply_action(action)
    return found


def test_a_bid_says_what_passing_is_worth_and_beats_it():
    reasons = _bid_reasons("standard", 6, 3)
    optional = [r for r, can_pass in reasons if can_pass]
    assert optional
    negative = 0
    for reason in optional:
        match = WORTH.search(reason)
        assert match, reason
        bid, passing = float(match[1]), float(match[2])
        assert bid > passing, reason  # the bot bids only over a pass it values lower
        assert match[3], reason  # and says what passing means here
        negative += bid < 0
    assert negative  # the case a player questioned: a bid worth less than nothing, over a worse pass


def test_a_forced_bid_says_it_is_forced_not_what_passing_is_worth():
    rules = load_ruleset("standard")
    rng = random.Random(5)
    for _ in range(50):
        hands, kitty = deal(rules, rng)
        state = HandState(rules, 0, hands, kitty)
        for _ in range(rules.players - 1):
            state.apply_action(rules.pass_action)
        if rules.pass_action in state.legal_actions():
            continue  # the variant lets the dealer pass: nothing forced to show here
        _, reason = HeuristicBot(random.Random(0)).explain(state)
        assert "(must bid)" in reason and "for passing" not in reason, reason
        return
    raise AssertionError("no auction reached a forced dealer")

"""The simulation driver: play many hands with bots and gather statistics.

Each hand ``i`` of a run draws its deal and its bots' choices from its own generator,
seeded from the run's seed and ``i``, so any hand of a run can be replayed alone and
the result does not depend on how hands are grouped or ordered.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from .bots import make_bot
from .game import deal
from .hand import HandState
from .ruleset import Ruleset


def hand_rng(seed: int, index: int) -> random.Random:
    """The generator of hand ``index`` of a run seeded with ``seed``."""
    return random.Random(f"bidwhist:{seed}:{index}")


def play_hand(rules: Ruleset, seed: int, index: int, bot: str = "random") -> HandState:
    """Deal and play hand ``index`` of a run: the dealer rotates from a seeded first dealer."""
    first_dealer = random.Random(f"bidwhist:{seed}:dealer").randrange(rules.players)
    dealer = (first_dealer + index * rules.rotation) % rules.players
    rng = hand_rng(seed, index)
    hands, kitty = deal(rules, rng)
    state = HandState(rules, dealer, hands, kitty)
    player = make_bot(bot, rng)
    while not state.is_terminal():
        state.apply_action(player.choose(state))
    return state


@dataclass
class HandStats:
    """Totals over simulated hands, enough for every figure of the report."""

    sides: int
    hands: int = 0
    no_contract: int = 0
    contracts: Counter = field(default_factory=Counter)
    made: Counter = field(default_factory=Counter)
    score_sum: list = field(default_factory=list)
    declarer_score_sum: int = 0

    def __post_init__(self):
        if not self.score_sum:
            self.score_sum = [0] * self.sides

    def add(self, state: HandState) -> None:
        """Count one finished hand."""
        self.hands += 1
        for side, points in enumerate(state.score):
            self.score_sum[side] += points
        if state.declarer < 0:
            self.no_contract += 1
            return
        rules = state.rules
        name = rules.bids[state.bid].text
        self.contracts[name] += 1
        if state.made:
            self.made[name] += 1
        self.declarer_score_sum += state.score[rules.side_of[state.declarer]]

    def as_json(self, rules: Ruleset) -> dict:
        """The numbers for programs: per-contract counts and make rates, mean scores."""
        order = {b.text: i for i, b in enumerate(rules.bids)}
        contracted = self.hands - self.no_contract
        return {
            "variant": rules.name,
            "hands": self.hands,
            "no_contract": self.no_contract,
            "contracts": [
                {"contract": name, "count": n, "share": n / self.hands,
                 "made": self.made[name], "make_rate": self.made[name] / n}
                for name, n in sorted(self.contracts.items(), key=lambda kv: order[kv[0]])
            ],
            "make_rate": (sum(self.made.values()) / contracted) if contracted else None,
            "mean_score": [s / self.hands for s in self.score_sum] if self.hands else None,
            "mean_declarer_score": (self.declarer_score_sum / contracted) if contracted else None,
        }


def simulate_hands(rules: Ruleset, hands: int, seed: int, bot: str = "random",
                   on_hand: Callable[[int, HandState], None] | None = None) -> HandStats:
    """Play ``hands`` hands and return their statistics; ``on_hand`` sees each one."""
    stats = HandStats(rules.sides)
    for i in range(hands):
        state = play_hand(rules, seed, i, bot)
        stats.add(state)
        if on_hand is not None:
            on_hand(i, state)
    return stats

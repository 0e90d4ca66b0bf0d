"""Bots: players that choose an action from a state's legal actions.

A bot is any object with ``choose(state) -> action`` (plus a generator it owns), so
the simulation driver and terminal play can seat any mix of them.
"""

from __future__ import annotations

import random


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state) -> int:
        """A uniformly random legal action of ``state``."""
        return self.rng.choice(state.legal_actions())


BOTS = {"random": RandomBot}


def make_bot(name: str, rng: random.Random):
    """A bot by name; KeyError for an unknown name."""
    return BOTS[name](rng)

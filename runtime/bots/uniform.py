"""The uniform bot: any legal action, each as likely as the others."""

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

    def play_to_end(self, state) -> None:
        """Play ``state`` to its end with this bot at every seat: the same actions as calling
        :meth:`choose` for each, drawn in the engine's fused loop (:meth:`HandState.play_random`)."""
        state.play_random(self.rng)

"""Bots: players that choose an action from a state's legal actions.

A bot is any object with a ``name`` and ``choose(state) -> action`` (plus a generator
it owns), so the simulation driver, the terminal and the benchmarks can seat any mix
of them.  ``make_bot(name, rng)`` builds one from the registry ``BOTS``:

``random``
    uniform over the legal actions (:mod:`.uniform`).
``heuristic``
    estimates the tricks its hand takes under every contract the ladder offers
    (from the variant's play tables alone), values each bid with the variant's own
    scoring formulas, and plays by rules of thumb that track the cards played
    (:mod:`.heuristic`, :mod:`.cardplay`).
``baseline``
    the heuristic as it was before issue 14 began to improve it, frozen: the fixed
    opponent of the strength bench and the bot the behaviour corpus was recorded
    with (:mod:`.baseline`).
``sampler``
    determinised Monte Carlo for the calls, the declaration and the play: deals the
    unseen cards in ways consistent with what the seat has seen and the calls made
    (:mod:`.dealing`), plays the candidate actions out in each deal with the
    heuristic, scored by the variant's own scoring, and takes the best on average,
    racing the candidates so that clear decisions cost few deals (:mod:`.sampler`).

What the bots precompute per ruleset is in :mod:`.knowledge`, what the play so far
has shown in :mod:`.track`.

No bot knows a variant by name; everything comes from the :class:`Ruleset`.  Bots
only use what their seat may know (the information of ``state.observation(seat)``):
their own hand, the calls, the contract, the cards played, the kitty when it was
shown, their own discards when they declared, and cards out of play.  They never
read another seat's hand.
"""

from __future__ import annotations

import random

from .baseline import BaselineBot
from .dealing import sample_deal
from .heuristic import HeuristicBot
from .sampler import SamplerBot
from .uniform import RandomBot

__all__ = ["BOTS", "BaselineBot", "HeuristicBot", "RandomBot", "SamplerBot", "make_bot", "sample_deal"]

BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "baseline": BaselineBot, "sampler": SamplerBot}


def make_bot(name: str, rng: random.Random | None):
    """A bot by name (a key of ``BOTS``); KeyError for an unknown name.  ``rng`` may be
    None for a kind whose class says it never draws (``draws = False``)."""
    return BOTS[name](rng)

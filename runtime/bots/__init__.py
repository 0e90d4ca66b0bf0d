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

import importlib
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .baseline import BaselineBot
    from .dealing import sample_deal
    from .heuristic import HeuristicBot
    from .sampler import SamplerBot
    from .uniform import RandomBot

__all__ = ["BOTS", "BaselineBot", "HeuristicBot", "RandomBot", "SamplerBot", "make_bot", "sample_deal"]

# The module of each name the package offers, imported when the name is first used (PEP 562's
# module __getattr__): a run of random bots then never loads the heuristic's modules (its auction
# model, card play and disk cache: ~50M instructions, ~10 ms, of every `simulate --bots random`).
_LAZY = {"RandomBot": ".uniform", "HeuristicBot": ".heuristic", "BaselineBot": ".baseline",
         "SamplerBot": ".sampler", "sample_deal": ".dealing"}


def __getattr__(name: str) -> Any:
    """A bot class (or ``sample_deal``), its module imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # asked once: the next look-up finds it without this function
    return value


class _Registry(dict):
    """Bot kind -> class, as a dict; a class (and its module) is loaded when it is first read."""

    def __getitem__(self, kind: str) -> Any:
        value = dict.__getitem__(self, kind)
        if isinstance(value, str):  # still the class's name: load it now, once
            value = __getattr__(value)
            dict.__setitem__(self, kind, value)
        return value

    def get(self, kind: str, default: Any = None) -> Any:
        """The class of ``kind``, or ``default``."""
        return self[kind] if kind in self else default

    def values(self) -> list:  # type: ignore[override]
        """Every kind's class, loaded."""
        return [self[kind] for kind in self]

    def items(self) -> list:  # type: ignore[override]
        """(kind, class) of every kind, loaded."""
        return [(kind, self[kind]) for kind in self]

    def __iter__(self):
        # Defined here so that dict(BOTS) and {**BOTS} read through __getitem__ (CPython copies a
        # dict subclass's storage directly, class names and all, unless it defines __iter__).
        return dict.__iter__(self)

    def copy(self) -> dict:
        """A plain dict of every kind's class, loaded."""
        return dict(self.items())


BOTS: dict[str, Any] = _Registry(random="RandomBot", heuristic="HeuristicBot", baseline="BaselineBot",
                                 sampler="SamplerBot")


def make_bot(name: str, rng: random.Random | None):
    """A bot by name (a key of ``BOTS``); KeyError for an unknown name.  ``rng`` may be
    None for a kind whose class says it never draws (``draws = False``)."""
    return BOTS[name](rng)

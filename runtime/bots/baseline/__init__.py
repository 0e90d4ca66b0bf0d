"""The baseline bot: today's heuristic, frozen (issue 14), as the fixed opponent of every bench.

A copy of :mod:`runtime.bots.heuristic` with its card play, its precomputed tables
and its record of the play (:mod:`.heuristic`, :mod:`.cardplay`, :mod:`.knowledge`,
:mod:`.track`) as they were before the heuristic began to change, so that
``bench/strength.py`` measures every improvement against the same opponent and the
behaviour corpus (``tests/test_corpus.py``) re-simulates its records with the bot
that made them.  It asks the engine (``HandState``, the rule modules) as the
heuristic does; only its decisions are frozen.  Change nothing here but what the
engine's interface requires.
"""

from .heuristic import BaselineBot

__all__ = ["BaselineBot"]

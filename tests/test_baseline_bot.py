"""The baseline bot: registered apart from the heuristic, in its own modules.

(The test that baseline and heuristic decided alike was deleted when the heuristic
first changed its decisions, as it said it would be; the baseline's own guard is the
behaviour corpus, tests/test_corpus.py, which re-simulates its records with it.)
"""

import random

from runtime.bots import BOTS, BaselineBot, HeuristicBot, make_bot


def test_baseline_is_registered_apart_from_the_heuristic():
    assert BOTS["baseline"] is BaselineBot
    assert make_bot("baseline", random.Random(0)).name == "baseline"
    assert BaselineBot is not HeuristicBot
    # Its own modules: the heuristic's tables and play may change without moving it.
    assert BaselineBot.__module__ == "runtime.bots.baseline.heuristic"

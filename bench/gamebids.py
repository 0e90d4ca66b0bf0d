"""Do game-level rules change the bots' bids?  Calls made with and without the game in view.

Run from the repository root::

    python bench/gamebids.py [--variants standard,standard+to-5,...] [--games G] [--seed S]

Plays ``G`` whole games of each variant (``runtime.simulate.play_game``: heuristic bots,
every hand a ``HandState`` with its ``GameView``).  At every call of every auction the
same bot is also asked what it would call in the same position with the game hidden
(``state.game = None``: the hand alone, as before the bots saw the game).  Reported:
the share of calls that differ, and of those how many are a higher or lower bid or a
pass instead of a bid (and the reverse).  A measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.game import GameTally, GameView, deal, first_dealer  # noqa: E402
from runtime.hand import AUCTION, HandState  # noqa: E402
from runtime.simulate import bot_rng, deal_rng  # noqa: E402


def _is_bid(rules, action: int) -> bool:
    """Whether ``action`` is a bid of the ladder."""
    return rules.first_bid_action <= action < rules.first_bid_action + len(rules.bids)


def measure(variant: str, games: int, seed: int) -> dict:
    """Play the games and count the calls the game view changed."""
    rules = load_ruleset(variant)
    calls = differ = higher = lower = bid_not_pass = pass_not_bid = hands = 0
    for g in range(games):
        dealer = first_dealer(rules, random.Random(f"bidwhist:{seed}:game:{g}:dealer"))
        tally = GameTally(rules)
        h = 0
        while tally.winner is None and h < 300:
            cards, kitty = deal(rules, deal_rng(seed, g, h))
            state = HandState(rules, dealer, cards, kitty)
            state.game = GameView(tally)
            players = [make_bot("heuristic", bot_rng(seed, g, h, s)) for s in range(rules.players)]
            blind = make_bot("heuristic", random.Random(0))
            while not state.is_terminal():
                action = players[state.current_player()].choose(state)
                if state.phase == AUCTION:
                    alone = state.clone()
                    alone.game = None
                    other = blind.choose(alone)
                    calls += 1
                    if other != action:
                        differ += 1
                        if _is_bid(rules, action) and _is_bid(rules, other):
                            higher += action > other
                            lower += action < other
                        elif _is_bid(rules, action) or action == rules.take_action:
                            bid_not_pass += 1
                        else:
                            pass_not_bid += 1
                state.apply_action(action)
            tally.add_hand(state)
            dealer = tally.next_dealer(state)
            h += 1
            hands += 1
    return {"calls": calls, "differ": differ, "higher": higher, "lower": lower,
            "bid_not_pass": bid_not_pass, "pass_not_bid": pass_not_bid, "hands": hands}


def main(argv=None) -> None:
    """Parse the options and print one line per variant."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variants", default="standard,standard+to-5,standard+boston-x4,standard+seven-set-loses,"
                                         "standard+two-sets,standard+boston-wins")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    print(f"gamebids: {a.games} games per variant, seed {a.seed}, heuristic bots; "
          "calls that differ with the game hidden")
    for name in a.variants.split(","):
        r = measure(name, a.games, a.seed)
        share = r["differ"] / max(1, r["calls"])
        print(f"{name:28s} {r['differ']:5d} of {r['calls']:6d} calls ({100 * share:.1f}%) in {r['hands']} hands: "
              f"higher bid {r['higher']}, lower bid {r['lower']}, bid instead of pass {r['bid_not_pass']}, "
              f"pass instead of bid {r['pass_not_bid']}")


if __name__ == "__main__":
    main()

"""What one hand's opening call is worth in play: the hand fixed, the others dealt at random.

Run from the repository root::

    python bench/fixed_hand.py [--variant standard] [--hand "AS QS 9S ..."] [--deals 300]
        [--calls "pass,3 uptown,4 uptown"] [--seat 1] [--dealer 0] [--before "3 uptown"]

For each deal of the other cards (seeded), the seat holding ``--hand`` makes each of
``--calls`` as its first call and heuristic bots play the rest of the hand (auction,
kitty, play).  Printed per call: our side's mean score minus the opponents' (with a
95% interval, paired over the same deals), how often our side declared, and how often
the contract was made when it did.  ``--before``: calls made first, in turn, by the
seats that speak before the fixed hand (e.g. an opponent's opening).  A measurement:
it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots.heuristic import HeuristicBot  # noqa: E402
from runtime.hand import HandState  # noqa: E402


def play(rules, seat: int, dealer: int, hand: list[int], deal_no: int, call: str, before=()):
    """(our score minus the others' mean, we declared, made) for one deal and first call."""
    rng = random.Random(f"fixed:{deal_no}")
    rest = [c for c in range(rules.n_cards) if c not in hand]
    rng.shuffle(rest)
    hands = []
    for s in range(rules.players):
        if s == seat:
            hands.append(sorted(hand))
        else:
            hands.append(sorted(rest[:rules.hand_size]))
            rest = rest[rules.hand_size:]
    kitty = rest[:rules.kitty_size]
    state = HandState(rules, dealer, hands, kitty)
    bots = [HeuristicBot(random.Random(s)) for s in range(rules.players)]
    for name in before:
        state.apply_action(rules.action_names.index(name))
    first = True
    while not state.is_terminal():
        if first and state.current_player() == seat:
            state.apply_action(rules.action_names.index(call))
            first = False
            continue
        state.apply_action(bots[state.current_player()].choose(state))
    side = rules.side_of[seat]
    score = state.score or [0] * rules.sides
    others = [score[s] for s in range(rules.sides) if s != side]
    diff = score[side] - (sum(others) / len(others) if others else 0)
    ours = state.declarer >= 0 and rules.side_of[state.declarer] == side
    return diff, ours, bool(state.made) if ours else None


def main() -> None:
    """Print the value of each opening call for the fixed hand."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="standard")
    p.add_argument("--hand", default="AS QS 9S 7S 5S AH 8H 4H 6D 3D 7C 4C")
    p.add_argument("--calls", default="pass,3 uptown,4 uptown")
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--seat", type=int, default=1)
    p.add_argument("--dealer", type=int, default=0)
    p.add_argument("--before", default="", help="calls before the fixed hand's, comma-separated")
    a = p.parse_args()
    rules = load_ruleset(a.variant)
    ids = {n: i for i, n in enumerate(rules.cards)}
    hand = [ids[c] for c in a.hand.split()]
    calls = a.calls.split(",")
    before = a.before.split(",") if a.before else []
    base = None
    for call in calls:
        rows = [play(rules, a.seat, a.dealer, hand, i, call, before) for i in range(a.deals)]
        diffs = [r[0] for r in rows]
        ours = [r for r in rows if r[1]]
        made = sum(1 for r in ours if r[2]) / len(ours) if ours else float("nan")
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
        line = f"{call:12s} {mean:+.2f} (+-{half:.2f})  we declare {len(ours)}/{a.deals}  made {made:.0%}"
        if base is not None:
            d = [x - y for x, y in zip(diffs, base)]
            line += f"  vs {calls[0]}: {statistics.fmean(d):+.2f} (+-{1.96 * statistics.stdev(d) / len(d) ** 0.5:.2f})"
        else:
            base = diffs
        print(line, flush=True)


if __name__ == "__main__":
    main()

"""Where card play loses books against double dummy, decision by decision.

Run from the repository root::

    python bench/playloss.py [--variant standard+no-jokers] [--hands N] [--bot heuristic]
                             [--seed S] [--from-trick K]

Each hand is dealt as bench/cardplay.py deals it, driven by the heuristic to its first
card, and played out by ``--bot`` in every seat.  At each decision (from trick
``--from-trick`` on) every legal card is solved double dummy
(:meth:`runtime.solver.DoubleDummy.solve_actions`, the ``dds`` backend where DDS plays
the position exactly) and the decision's *loss* is what the card chosen gives away to
the best card for the side that plays it, in books (0 when it is one of the best).

The losses are summed per hand and split by who decides (the declaring side or the
defenders), the strain (notrump or trumps) and the kind of decision: ``lead trump``,
``lead side``, ``follow`` (a card of the suit led), ``ruff`` (a trump on a side suit
led), ``discard`` (neither).  A side's total loss per hand is the double-dummy books
its card play gives away; the declaring side's gap in bench/cardplay.py is roughly its
loss less the defenders'.  This is a measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.cardplay import mean_ci, to_first_card  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.ruleset import NO_SUIT, NO_TRUMP  # noqa: E402
from runtime.solver import DoubleDummy  # noqa: E402


def kind_of(state, card: int) -> str:
    """The kind of a play decision: lead trump/side, follow, ruff or discard."""
    table = state.table
    suit = table.suit_of[card]
    if not state.trick or state.led == NO_SUIT:
        return "lead trump" if state.trump != NO_TRUMP and suit == state.trump else "lead side"
    if suit == state.led:
        return "follow"
    if state.trump != NO_TRUMP and suit == state.trump:
        return "ruff"
    return "discard"


def one_hand(variant: str, seed: int, index: int, bot: str, from_trick: int, solver: DoubleDummy):
    """[(role, strain, kind, trick, loss)] of one hand's decisions; None if it was not played."""
    state = to_first_card(variant, seed, index, "heuristic")
    if state is None:
        return None
    rules = state.rules
    side = rules.side_of[state.declarer]
    strain = "notrump" if state.trump == NO_TRUMP else "trump"
    bots = [make_bot(bot, random.Random(f"{seed}:{index}:p{s}")) for s in range(rules.players)]
    rows = []
    while not state.is_terminal():
        seat = state.current_player()
        card = bots[seat].choose(state)
        legal = state.legal_actions()
        if len(legal) > 1 and len(state.tricks) >= from_trick:
            values = solver.solve_actions(state)
            declaring = rules.side_of[seat] == side
            best = max(values.values()) if declaring else min(values.values())
            loss = (best - values[card]) if declaring else (values[card] - best)
            rows.append(("declaring" if declaring else "defence", strain, kind_of(state, card),
                         len(state.tricks), loss, seat == state.declarer))
        state.apply_action(card)
    return rows


def main() -> None:
    """Play the hands, solve every decision, print the losses by kind."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard+no-jokers", help="variant (default standard+no-jokers)")
    parser.add_argument("--hands", type=int, default=100, help="hands dealt (default 100)")
    parser.add_argument("--bot", default="heuristic", help="the bot in every seat (default heuristic)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--from-trick", type=int, default=0,
                        help="solve decisions from this trick on (0: all; 1 skips the slow first trick)")
    args = parser.parse_args()
    print(f"command: python bench/playloss.py {' '.join(sys.argv[1:])}")
    solver = DoubleDummy(backend="dds")
    start = time.perf_counter()
    per_hand: dict[tuple, list[float]] = defaultdict(list)  # (role, strain, kind) -> loss per hand
    tricks: dict[tuple, float] = defaultdict(float)  # (role, trick) -> total loss
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])  # decisions, decisions that lost
    hands = {"notrump": 0, "trump": 0}
    for i in range(args.hands):
        rows = one_hand(args.variant, args.seed, i, args.bot, args.from_trick, solver)
        if rows is None:
            continue
        strain = rows[0][1] if rows else "trump"
        hands[strain] += 1
        acc: dict[tuple, float] = defaultdict(float)
        for role, s, kind, t, loss, _ in rows:
            for key in ((role, "all", "all"), (role, s, "all"), (role, s, kind)):
                acc[key] += loss
                c = counts[key]
                c[0] += 1
                c[1] += loss > 0
            tricks[(role, t)] += loss
        for key in set(per_hand) | set(acc):
            if key[1] in ("all", strain):
                per_hand[key].append(acc.get(key, 0.0))
        # keys seen first in a later hand get the earlier hands' zeros
        for key, values in per_hand.items():
            n = hands["notrump"] + hands["trump"] if key[1] == "all" else hands[key[1]]
            if len(values) < n:
                values[:0] = [0.0] * (n - len(values))
    n = hands["notrump"] + hands["trump"]
    print(f"{args.variant}: {args.bot} in every seat, {n} played hands ({hands['notrump']} notrump), "
          f"{time.perf_counter() - start:.0f} s; books lost a hand against double dummy:")
    for key in sorted(per_hand):
        m, h = mean_ci(per_hand[key])
        c = counts[key]
        print(f"  {key[0]:<10} {key[1]:<8} {key[2]:<11} {m:5.2f} (+-{h:.2f})   "
              f"{c[1]} of {c[0]} decisions lose")
    for role in ("declaring", "defence"):
        line = " ".join(f"{tricks[(role, t)] / max(n, 1):.2f}" for t in range(13))
        print(f"  {role} by trick: {line}")


if __name__ == "__main__":
    main()

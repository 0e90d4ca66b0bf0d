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
loss less the defenders'.  The declaring side's losses are also split by seat (the
declarer or its partner), by trick and by a finer kind (:func:`detail_of`: drawing
trumps, cashing the top card, a small lead, a follow by its place in the trick and
whether it heads the trick), a lead that loses by where a best card was (the same
suit, or the kind of the best card in another), and each lead where the side could draw
trumps by whether it drew (its top trump or a smaller one) against double dummy
(:func:`draw_split`).  This is a measurement, not a test: it asserts nothing.
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


def _top_left(state, card: int) -> bool:
    """Whether ``card`` is the highest card of its suit still in anyone's hand."""
    table = state.table
    suit = table.suit_of[card]
    return all(table.power[c] <= table.power[card] for h in state.hands for c in h if table.suit_of[c] == suit)


def _winning(state, card: int) -> bool:
    """Whether ``card`` would head the trick as it stands (a lead always does)."""
    table = state.table
    if not state.trick:
        return True
    led, trump = state.led, state.trump
    def beats(a: int, b: int) -> bool:
        sa, sb = table.suit_of[a], table.suit_of[b]
        if sa == sb:
            return table.power[a] > table.power[b]
        return trump != NO_TRUMP and sa == trump or (sb != led and sa == led and sb != trump)
    best = state.trick[0]
    for c in state.trick[1:]:
        if beats(c, best):
            best = c
    return beats(card, best)


def detail_of(state, card: int, side: int) -> str:
    """A finer kind of a declaring-side decision (the whole deal known, as the analyst sees it).

    Leads: ``draw trumps`` (a trump while an opponent holds one), ``trump, opps out``,
    ``cash top`` (the highest card of its suit left), ``lead low`` (any other side card).
    Follows by seat in the trick (2nd/3rd/4th) and whether the card would head the trick
    (``high``) or not (``low``); ``ruff``, ``discard`` as :func:`kind_of`.
    """
    rules, table = state.rules, state.table
    kind = kind_of(state, card)
    if kind == "lead trump":
        opps_trumps = any(table.suit_of[c] == state.trump for s, h in enumerate(state.hands)
                          if rules.side_of[s] != side for c in h)
        return "draw trumps" if opps_trumps else "trump, opps out"
    if kind == "lead side":
        return "cash top" if _top_left(state, card) else "lead low"
    if kind == "follow":
        pos = ("2nd", "3rd", "4th", "5th")[min(len(state.trick) - 1, 3)]
        return f"follow {pos} {'high' if _winning(state, card) else 'low'}"
    return kind


def _best_kind(state, values: dict[int, int], card: int, side: int) -> str:
    """For a losing lead: whether a best card was in the same suit, else the kind of one."""
    best = max(values.values())
    bests = [c for c, v in values.items() if v == best]
    suit = state.table.suit_of[card]
    if any(state.table.suit_of[c] == suit for c in bests):
        return "same suit"
    return "other suit: " + detail_of(state, bests[0], side)


def draw_split(state, values: dict[int, int], card: int, side: int) -> str:
    """For a declaring-side lead while the leader and an opponent both hold trumps: how
    the choice to draw stands against double dummy (the whole deal known).

    ``drew top/small: <where the best cards are>`` for a trump led (the leader's highest
    trump or another), the best cards ``side only`` (double dummy would not draw),
    ``other trump`` (it would, with another trump) or ``this one`` (the card is among
    them); ``kept: trumps only`` where a side card was led and every best card is a
    trump (double dummy would draw), else ``kept: ok``.  Empty for any other decision."""
    table, trump = state.table, state.trump
    if state.trick and state.led != NO_SUIT or trump == NO_TRUMP:
        return ""
    mine = [c for c in state.hands[state.current_player()] if table.suit_of[c] == trump]
    theirs = any(table.suit_of[c] == trump for s, h in enumerate(state.hands)
                 if state.rules.side_of[s] != side for c in h)
    if not mine or not theirs:
        return ""
    best = max(values.values())
    bests = [c for c, v in values.items() if v == best]
    trumps = [c for c in bests if table.suit_of[c] == trump]
    if table.suit_of[card] != trump:
        return "kept: trumps only" if len(trumps) == len(bests) else "kept: ok"
    top = max(mine, key=table.power.__getitem__)
    where = "this one" if card in bests else ("other trump" if trumps else "side only")
    return f"drew {'top' if card == top else 'small'}: {where}"


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
            detail = detail_of(state, card, side) if declaring else ""
            instead = _best_kind(state, values, card, side) if declaring and loss and not state.trick else ""
            drawn = draw_split(state, values, card, side) if declaring else ""
            rows.append(("declaring" if declaring else "defence", strain, kind_of(state, card),
                         len(state.tricks), loss, seat == state.declarer, detail, instead, drawn))
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
    fine: dict[tuple, float] = defaultdict(float)  # (seat or "side", detail) -> total loss
    fine_counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for i in range(args.hands):
        rows = one_hand(args.variant, args.seed, i, args.bot, args.from_trick, solver)
        if rows is None:
            continue
        strain = rows[0][1] if rows else "trump"
        hands[strain] += 1
        acc: dict[tuple, float] = defaultdict(float)
        for role, s, kind, t, loss, is_decl, detail, instead, drawn in rows:
            if role == "declaring":
                who = "declarer" if is_decl else "partner"
                if drawn:
                    key = ("drawing", drawn)
                    fine[key] += loss
                    fine_counts[key][0] += 1
                    fine_counts[key][1] += loss > 0
                for key in ((who, "all"), (who, detail), ("side", detail)):
                    fine[key] += loss
                    fc = fine_counts[key]
                    fc[0] += 1
                    fc[1] += loss > 0
                fine[(who, f"trick {t:2d}")] += loss
                if instead:
                    fine[("lead lost", instead)] += loss
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
    print("  the declaring side by seat and finer kind (books a hand; decisions that lose / all):")
    for key in sorted(fine):
        c = fine_counts.get(key)
        tail = f"   {c[1]} of {c[0]}" if c else ""
        print(f"    {key[0]:<9} {key[1]:<34} {fine[key] / max(n, 1):5.3f}{tail}")
    for role in ("declaring", "defence"):
        line = " ".join(f"{tricks[(role, t)] / max(n, 1):.2f}" for t in range(13))
        print(f"  {role} by trick: {line}")


if __name__ == "__main__":
    main()

"""Fit the heuristic bot's bidding estimates to the books its side really takes.

Run from the repository root::

    python bench/fit_bidding.py [--variant standard] [--hands 6000] [--seed 1]

1. *Forced contracts*: deal ``i``'s seat ``i % players`` declares its best suit contract
   (even ``i``) or its best notrump one (odd ``i``) by its own hand estimate
   (``RulesInfo.estimate_all``), the others pass; the heuristic discards and plays it
   out.  A least-squares line ``books = a + b * own`` per kind (suit, notrump), with the
   residual spread, is what a declaring side takes with an unknown partner and the
   kitty still to come (the kitty and discards' book are inside ``a``).
2. *Self-play*: the heuristic bids too.  The declarer's residual against that line,
   averaged by what its partner called before it (bid the declared strain, bid another,
   passed, had not called) and by how many opponents bid: what the calls are worth.
   And the defenders' side: the declaring side's books against the opponents' bid, by
   the mean own estimate of the defenders (``books = a + b * own``), and by one
   defender's own estimate, each defender a point: what a bidder, who knows only its
   own hand, can use (standard, 2000 hands: slope -0.44 a trick, against -1.05 for
   the mean of both defenders).

3. *Parts*: the forced suit contracts' books regressed on the suit estimate's parts
   (side tricks, trump top tricks, trump length, short side suits): ``_TRUMP_TOP`` and
   ``_TRUMP_LONG`` are the trump's worth in side tricks.

The figures printed are the constants of runtime/bots/knowledge.py (``_FIT_*``).
This is a measurement: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots.heuristic import HeuristicBot  # noqa: E402
from runtime.bots.knowledge import _SIDE, _TRUMP, _canonical, rules_info, suit_parts  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, HandState  # noqa: E402
from runtime.ruleset import NO_TRUMP  # noqa: E402


def line(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """(a, b, residual sd) of the least-squares line ``y = a + b x``."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    sd = statistics.pstdev([y - a - b * x for x, y in zip(xs, ys)])
    return a, b, sd


def forced(rules, info, i: int):
    """Deal ``i`` declared by seat ``i % players`` in its best contract of one kind: (kind, own, books)."""
    hands, kitty = deal(rules, random.Random(f"fit:{i}"))
    seat = i % rules.players
    nt = i % 2
    est = info.estimate_all(hands[seat])
    keys = [k for k in info.table_keys if (k[0] == NO_TRUMP) == bool(nt)]
    if not keys:
        return None
    key = max(keys, key=lambda k: est[info.table_index[k]])
    strain = next(s for s, ks in enumerate(info.strain_keys) if key in ks)
    state = HandState(rules, (seat - 1) % rules.players, hands, kitty)
    bot = HeuristicBot()
    while state.phase == AUCTION:
        if state.seat == seat and state.high_bid < 0:
            bid = min(info.strain_bids[strain], key=lambda b: info.bid_rank[b])
            state.apply_action(info.first_bid + bid)
        else:
            state.apply_action(info.pass_action)
    if state.declarer != seat:
        return None
    while not state.is_terminal():
        if state.phase == DECLARE_TRUMP:
            state.apply_action(rules.no_trump_action if key[0] == NO_TRUMP else rules.first_trump_action + key[0])
        elif state.phase == DECLARE_DIRECTION:
            state.apply_action(rules.first_direction_action + key[1])
        else:
            state.apply_action(bot.choose(state))
    if (state.trump, state.direction) != key:
        return None
    return nt, est[info.table_index[key]], state.books[rules.side_of[seat]]


def solve(rows: list[list[float]], ys: list[float]) -> list[float]:
    """Least-squares coefficients of ``y = sum(c_j x_j)`` (normal equations, Gauss-Jordan)."""
    k = len(rows[0])
    m = [[sum(r[i] * r[j] for r in rows) for j in range(k)] + [sum(r[i] * y for r, y in zip(rows, ys))]
         for i in range(k)]
    for i in range(k):
        piv = max(range(i, k), key=lambda r: abs(m[r][i]))
        m[i], m[piv] = m[piv], m[i]
        for r in range(k):
            if r != i and m[i][i]:
                f = m[r][i] / m[i][i]
                m[r] = [a - f * b for a, b in zip(m[r], m[i])]
    return [m[i][k] / m[i][i] if m[i][i] else 0.0 for i in range(k)]


def parts(info, hand, key) -> list[float]:
    """The suit estimate's parts of ``hand`` under contract ``key``: [1, side tricks,
    trump top tricks, trump length, short side suits (voids 2, singletons 1)]."""
    ti = info.tables[key]
    masks = [0] * len(ti.suits)
    for c in hand:
        if ti.sidx[c] >= 0:
            masks[ti.sidx[c]] |= ti.bit[c]
    t = ti.trump_idx
    side = sum(sum(suit_parts(ti.size[j], _canonical(m), _SIDE, info.inplay))
               for j, m in enumerate(masks) if j != t)
    top = suit_parts(ti.size[t], _canonical(masks[t]), _TRUMP, info.inplay)[0]
    short = sum(max(0, 2 - m.bit_count()) for j, m in enumerate(masks) if j != t)
    return [1.0, side, top, float(masks[t].bit_count()), float(short)]


def self_play(rules, info, i: int, fits):
    """Deal ``i`` bid and played by the heuristic: the declarer's residual by calls, and the defence's."""
    hands, kitty = deal(rules, random.Random(f"selfplay:{i}"))
    state = HandState(rules, i % rules.players, hands, kitty)
    bot = HeuristicBot()
    while not state.is_terminal():
        state.apply_action(bot.choose(state))
    d = state.declarer
    if d < 0 or state.books is None:
        return None
    key = (state.trump, state.direction)
    nt = 1 if state.trump == NO_TRUMP else 0
    strain = rules.bids[state.bid].strain
    own = info.estimate_all(state.dealt[d])[info.table_index[key]]
    a, b, _ = fits[nt]
    books = state.books[rules.side_of[d]]
    residual = books - (a + b * own)
    # What the declarer had heard when it made its last bid.
    last = max(j for j, (s, _) in enumerate(state.calls) if s == d)
    heard = state.calls[:last]
    partner = "none"
    opp_bids = 0
    for s, act in heard:
        is_bid = info.first_bid <= act < info.first_bid + info.n_bids
        if s in info.partners[d]:
            if is_bid:
                partner = "same" if info.bid_strain[act - info.first_bid] == strain else "other"
            elif act == info.pass_action and partner == "none":
                partner = "passed"
        elif is_bid:
            opp_bids += 1
    # The defence: a defender's mean own estimate over the strain's contracts of this kind.
    suit_idx, nt_idx = info.strain_tables[strain]
    idx = nt_idx if nt else suit_idx
    defenders = info.opponents[d]
    own_def = [sum(info.estimate_all(state.dealt[s])[j] for j in idx) / len(idx) for s in defenders]
    return nt, partner, min(opp_bids, 2), residual, own_def, books


def main() -> None:
    """Run both fits and print the constants."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--hands", type=int, default=6000)
    args = parser.parse_args()
    rules = load_ruleset(args.variant)
    info = rules_info(rules)
    data = defaultdict(lambda: ([], []))
    for i in range(args.hands):
        got = forced(rules, info, i)
        if got:
            data[got[0]][0].append(got[1])
            data[got[0]][1].append(got[2])
    # The suit estimate's parts against the books taken (forced suit contracts): the
    # worth of a trump and of trump top tricks against a side suit's top tricks.
    rows, ys = [], []
    for i in range(0, args.hands, 2):
        hands, _ = deal(rules, random.Random(f"fit:{i}"))
        got = forced(rules, info, i)
        if got and got[0] == 0:
            hand = hands[i % rules.players]
            est = info.estimate_all(hand)
            key = max((k for k in info.table_keys if k[0] != NO_TRUMP), key=lambda k: est[info.table_index[k]])
            rows.append(parts(info, hand, key))
            ys.append(got[2])
    if len(rows) > 10:
        c = solve(rows, ys)
        print(f"parts (suit): n={len(rows)} books = {c[0]:.2f} + {c[1]:.3f} side + {c[2]:.3f} trump top "
              f"+ {c[3]:.3f} a trump + {c[4]:.3f} short; a trump = {c[3] / c[1]:.2f} side tricks, "
              f"trump top = {c[2] / c[1]:.2f}")
    fits = {}
    for nt in sorted(data):
        xs, ys = data[nt]
        fits[nt] = line(xs, ys)
        a, b, sd = fits[nt]
        print(f"forced {'notrump' if nt else 'suit'}: n={len(xs)} books = {a:.3f} + {b:.3f} * own, sd {sd:.2f}; "
              f"mean own {statistics.fmean(xs):.2f}, mean books {statistics.fmean(ys):.2f}")
    by_call = defaultdict(list)
    by_opp = defaultdict(list)
    defence = defaultdict(lambda: ([], []))
    single = defaultdict(lambda: ([], []))
    for i in range(args.hands):
        got = self_play(rules, info, i, fits)
        if got is None:
            continue
        nt, partner, opp, residual, own_def, books = got
        by_call[partner].append(residual)
        by_opp[opp].append(residual)
        defence[nt][0].append(statistics.fmean(own_def))
        defence[nt][1].append(books)
        for x in own_def:  # one defender's own estimate: what a bot bidding knows
            single[nt][0].append(x)
            single[nt][1].append(books)
    for k, v in sorted(by_call.items()):
        print(f"partner {k:<7} n={len(v):5d} residual {statistics.fmean(v):+.2f}")
    for k, v in sorted(by_opp.items()):
        print(f"opponent bids {k} n={len(v):5d} residual {statistics.fmean(v):+.2f}")
    for nt in sorted(defence):
        xs, ys = defence[nt]
        a, b, sd = line(xs, ys)
        print(f"defence {'notrump' if nt else 'suit'}: n={len(xs)} their books = {a:.3f} + {b:.3f} * mean own, "
              f"sd {sd:.2f}")
        xs, ys = single[nt]
        a, b, sd = line(xs, ys)
        print(f"defence {'notrump' if nt else 'suit'}: n={len(xs)} their books = {a:.3f} + {b:.3f} * one "
              f"defender's own, sd {sd:.2f}; mean own {statistics.fmean(xs):.2f}")


if __name__ == "__main__":
    main()

"""Where the heuristic's declaring estimate parts from the books its side really takes.

Run from the repository root::

    python bench/estimate_gap.py [--variants hawaii,standard] [--hands 2000] [--seed 1]

The heuristic bids, declares and plays every seat (self-play, lone hands).  For each
declared hand it prints, by kind of contract (suit, notrump) and level, and by who
won the contract (``forced``: a dealer every other seat passed to; ``alone``: an
uncontested bidder; ``contest``: over another bid):

* ``est``: the declaring side's books as the bot values its own bids before any
  call is read (``HeuristicBot._declare_values``: its best contract of the kind, the
  kitty still to come, an average partner), read at the contract really played;
* ``took``: the books its side took; ``gap``: took - est (95% half-width);
* the parts: the declarer's own tricks against its own estimate of the cards it
  played (after the kitty), the kitty's worth in the estimate (the hand kept against
  the hand dealt) against ``RulesInfo.kitty_bonus``, and the partner's tricks against
  the estimate's share for an average partner.

Then the least-squares line ``took = a + b * est`` of the suit contracts (its residual
spread, and the estimate where the line crosses it), and by bands of the estimate the
share of level-3.. contracts made against the chance the bot's own spread of books
(``RulesInfo.made_row``) gives them.

``--split N``: also N deals of ``bench/strength.py``'s paired play (the heuristic
against the frozen baseline, sides swapped), its points a hand split into the deals
where both plays reached the same contract (declarer, bid, trump: card play alone) and
those where they did not (the auction), with who declared and how often it was made.

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
for _path in (ROOT, ROOT / "bench"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots.heuristic import HeuristicBot  # noqa: E402
from runtime.bots.knowledge import rules_info  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import HandState  # noqa: E402
from runtime.ruleset import NO_TRUMP  # noqa: E402


def one(rules, info, bot: HeuristicBot, i: int, seed: int):
    """Deal ``i`` played by the heuristic: a row of figures about its declarer, or None."""
    hands, kitty = deal(rules, random.Random(f"gap:{seed}:{i}"))
    state = HandState(rules, i % rules.players, hands, kitty)
    while not state.is_terminal():
        state.apply_action(bot.choose(state))
    d = state.declarer
    if d < 0 or state.books is None:
        return None
    info.ensure_util(state)
    key = (state.trump, state.direction)
    t = info.table_index[key]
    nt = 1 if state.trump == NO_TRUMP else 0
    npart = len(info.partners[d])
    plain = info.estimate_all(state.dealt[d])
    own = plain[t]
    share = max(0.0, info.tricks - own - info.kitty_bonus) / (rules.players - 1)
    est = own + info.kitty_bonus + npart * 0.85 * share + info.declarer_book
    # The cards the declarer played: what it was dealt, with the kitty, less its discards.
    played = sorted((set(state.dealt[d]) | set(kitty)) - set(state.discards)) if state.discards else state.dealt[d]
    kept = info.estimate_all(played)[t] if len(played) == rules.hand_size else own
    alone = all(a == info.pass_action for s, a in state.calls if s != d)
    # A forced dealer: the dealer's only call, after every other seat passed once.
    forced = alone and d == state.dealer and len(state.calls) == rules.players
    books = state.books[rules.side_of[d]]
    partner = sum(state.won[p] for p in info.partners[d])
    level = rules.bids[state.bid].level
    made_p = info.made_row(nt, est)[state.bid]
    who = "forced" if forced else "alone" if alone else "contest"
    return dict(nt=nt, level=level, who=who, made_p=made_p, est=est, took=books, own=own, kept=kept,
                own_took=state.won[d], partner_est=npart * 0.85 * share, partner_took=partner,
                kitty_est=info.kitty_bonus, kitty_seen=kept - own, made=bool(state.made))


def split(rules, deals: int) -> None:
    """Print the paired heuristic-vs-baseline points split by same or different contract."""
    from strength import make, margin  # bench/strength.py, beside this file

    same, other = [], []
    declared = {True: [0, 0], False: [0, 0]}  # heuristic's side declared: [hands, made]
    for index in range(deals):
        hands, kitty = deal(rules, random.Random(f"paired:1:{index}"))
        plays = []
        for side in range(rules.sides):
            state = HandState(rules, index % rules.players, [list(h) for h in hands], list(kitty))
            bots = [make("heuristic" if rules.side_of[s] == side else "baseline",
                         random.Random(f"1:{index}:{side}:{s}"), None) for s in range(rules.players)]
            while not state.is_terminal():
                state.apply_action(bots[state.current_player()].choose(state))
            plays.append((margin(state.score, side), (state.declarer, state.bid, state.trump)))
            if state.declarer >= 0:
                row = declared[rules.side_of[state.declarer] == side]
                row[0] += 1
                row[1] += bool(state.made)
        m = statistics.fmean(p[0] for p in plays)
        (same if len({p[1] for p in plays}) == 1 else other).append(m)
    print(f"  paired vs baseline, {deals} deals: {sum(same + other) / deals:+.3f} a hand = same contract "
          f"{sum(same) / deals:+.3f} ({len(same)} deals) + different contract {sum(other) / deals:+.3f} "
          f"({len(other)} deals)")
    for who, (n, made) in (("heuristic", declared[True]), ("baseline", declared[False])):
        print(f"  {who} declared {n} plays of {deals * rules.sides}, made {made / max(1, n):.1%}")


def mean_ci(xs: list[float]) -> str:
    """Mean and 95% half-width."""
    if len(xs) < 2:
        return f"{xs[0]:+.2f}" if xs else "-"
    return f"{statistics.fmean(xs):+.2f} ±{1.96 * statistics.stdev(xs) / len(xs) ** 0.5:.2f}"


def main() -> None:
    """Play the hands and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="hawaii,standard")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--split", type=int, default=0, help="paired deals for the split (default 0: none)")
    args = parser.parse_args()
    for name in args.variants.split(","):
        rules = load_ruleset(name)
        info = rules_info(rules)
        bot = HeuristicBot()
        rows = [r for i in range(args.hands) if (r := one(rules, info, bot, i, args.seed)) is not None]
        print(f"== {name}: {len(rows)} declared hands; kitty_bonus {info.kitty_bonus:.2f}, "
              f"declarer_book {info.declarer_book:.1f}")
        groups = defaultdict(list)
        for r in rows:
            kind = "nt" if r["nt"] else "suit"
            groups[(kind, "all", "all")].append(r)
            groups[(kind, r["level"], r["who"])].append(r)
        print(f"{'kind':5} {'lvl':>3} {'who':6} {'n':>5} {'made':>5} {'est':>6} {'took':>6} {'gap':>12} "
              f"{'own gap (kept)':>15} {'kitty est/seen':>15} {'partner gap':>12}")
        for k in sorted(groups, key=str):
            g = groups[k]
            print(f"{k[0]:5} {k[1]!s:>3} {k[2]:6} {len(g):5d} {statistics.fmean(r['made'] for r in g):5.2f} "
                  f"{statistics.fmean(r['est'] for r in g):6.2f} {statistics.fmean(r['took'] for r in g):6.2f} "
                  f"{mean_ci([r['took'] - r['est'] for r in g]):>12} "
                  f"{mean_ci([r['own_took'] + info.declarer_book - r['kept'] for r in g]):>15} "
                  f"{statistics.fmean(r['kitty_est'] for r in g):6.2f}/"
                  f"{statistics.fmean(r['kitty_seen'] for r in g):5.2f}   "
                  f"{mean_ci([r['partner_took'] - r['partner_est'] for r in g]):>12}")
        suit = [r for r in rows if not r["nt"]]
        xs, ys = [r["est"] for r in suit], [r["took"] for r in suit]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        a = my - b * mx
        sd = statistics.pstdev([y - a - b * x for x, y in zip(xs, ys)])
        spread = statistics.pstdev([y - x for x, y in zip(xs, ys)])
        print(f"  suit: took = {a:.2f} + {b:.3f} est (residual sd {sd:.2f}; the line meets est at "
              f"{a / (1 - b) if b != 1 else float('nan'):.2f}); sd of took - est {spread:.2f}")
        for lo in range(5, 15):
            g = [r for r in suit if lo <= r["est"] < lo + 1]
            if len(g) >= 15:
                print(f"  est {lo:2d}-{lo + 1:<2d}: {len(g):5d} contracts, "
                      f"took {statistics.fmean(r['took'] for r in g):5.2f}, "
                      f"made {statistics.fmean(r['made'] for r in g):.2f} against the bot's "
                      f"{statistics.fmean(r['made_p'] for r in g):.2f}")
        if args.split:
            split(rules, args.split)


if __name__ == "__main__":
    main()

"""Is passing right?  The value of each call against passing, by hand strength, with the bots' play.

Run from the repository root::

    python bench/open_value.py --variant hawaii [--before "pass,pass"] [--deals 2000] [--calls "pass,3,4"]

For each seeded deal (dealer seat 0) the heuristic bots make the first calls; deals
where they do not call ``--before`` are skipped (the hands left are the ones that
reach this point of the auction).  The next seat then makes
each of ``--calls`` in turn and heuristic bots play the rest of the hand (auction,
kitty, play) from the same position: paired over the same deal.  Printed per band of
the acting hand's high-card points (A 4, K 3, Q 2, J 1): how many hands, how often the
bot itself passes, and each call's mean score for the acting side minus the other
side's, less passing's (95% interval).  Also the same over the hands the bot passes,
and the best call per hand (a call chosen with hindsight of the deal: an upper bound).
Last, the hands the bot passes in quarters by its own margin ``m`` (its best bid's
value less passing's, from its explanation): the borderline hands are the last rows.
For the hands the bot passes, ``bot says`` gives its own mean values of its best bid
(with an opener's credit) and of passing, to set against the measured ones.  A
measurement: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots.heuristic import HeuristicBot  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import HandState  # noqa: E402

_HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
BANDS = ((0, 8), (9, 11), (12, 14), (15, 17), (18, 40))


def hcp(rules, hand) -> int:
    """High-card points of a hand (jokers count as aces)."""
    return sum(4 if rules.cards[c][1] == "J" and rules.cards[c][0] in "BL" else _HCP.get(rules.cards[c][0], 0)
               for c in hand)


def play_out(rules, hands, kitty, before: list[int], call: int | None):
    """The state after the bots' first calls, or None if they are not ``before``; and,
    given ``call``, the acting side's score minus the other's after the hand is played out
    (without it, the bot's own call and reason)."""
    state = HandState(rules, 0, [list(h) for h in hands], list(kitty))
    bots = [HeuristicBot(random.Random(s)) for s in range(rules.players)]
    for want in before:
        if bots[state.current_player()].choose(state) != want:
            return None, None
        state.apply_action(want)
    seat = state.current_player()
    if call is None:
        return state, bots[seat].explain(state)
    state.apply_action(call)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state))
    side = rules.side_of[seat]
    score = state.score or [0] * rules.sides
    return state, score[side] - max(score[s] for s in range(rules.sides) if s != side)


def ci(xs) -> str:
    """Mean and 95% half-interval."""
    if len(xs) < 2:
        return "   n/a        "
    return f"{statistics.fmean(xs):+.2f} (+-{1.96 * statistics.stdev(xs) / len(xs) ** 0.5:.2f})"


def main(argv=None) -> None:
    """Measure and print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="hawaii")
    p.add_argument("--before", default="", help="the bots' calls before the acting seat's, comma-separated "
                   "(deals where the bots call otherwise are skipped); default none")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--calls", default="", help="calls, pass first (default: pass and the two lowest legal bids)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    rules = load_ruleset(a.variant)
    before = [rules.action_names.index(n) for n in a.before.split(",")] if a.before else []
    names = a.calls.split(",") if a.calls else []
    rows = []
    for i in range(a.deals):
        rng = random.Random(f"open_value:{a.seed}:{i}")
        hands, kitty = deal(rules, rng)
        state, own = play_out(rules, hands, kitty, before, None)
        if state is None:
            continue
        if not names:  # pass and the two lowest bids legal at the first deal that gets here
            legal = [x for x in state.legal_actions() if x != rules.pass_action]
            names = ["pass"] + [rules.action_names[x] for x in legal[:2]]
        ids = [rules.action_names.index(n) for n in names]
        vals = [play_out(rules, hands, kitty, before, c)[1] for c in ids]
        m = re.search(r"is worth ([-+][0-9.]+) against ([-+][0-9.]+)", own[1])
        said = (float(m.group(1)), float(m.group(2))) if m and own[0] == rules.pass_action else None
        rows.append((hcp(rules, state.hands[state.current_player()]), own[0] == rules.pass_action, vals,
                     said[0] - said[1] if said else None, said))
    print(f"{a.variant}: {len(rows)} of {a.deals} deals reach the calls {before and a.before or 'none'} "
          f"(dealer seat 0); calls {names}; value = acting side minus the other, less pass")
    head = f"{'hcp':>7s} {'n':>5s} {'bot passes':>10s} {'pass':>16s}"
    head += "".join(f" {n + ' - pass':>18s}" for n in names[1:])
    print(head + f" {'best - pass':>18s}")

    def line(label, sel):
        if not sel:
            return
        passed = sum(1 for r in sel if r[1]) / len(sel)
        out = f"{label:>7s} {len(sel):5d} {passed:10.0%} {ci([r[2][0] for r in sel]):>16s}"
        for k in range(1, len(names)):
            out += f" {ci([r[2][k] - r[2][0] for r in sel]):>18s}"
        out += f" {ci([max(r[2]) - r[2][0] for r in sel]):>18s}"
        said = [r[4] for r in sel if r[4] is not None]
        if said and len(said) == len(sel):  # the bot's own values of its best bid and of passing
            bid, stay = statistics.fmean(x for x, _ in said), statistics.fmean(y for _, y in said)
            out += f"  bot says: best bid {bid:+.2f} pass {stay:+.2f}"
        print(out)

    for lo, hi in BANDS:
        line(f"{lo}-{hi}" if hi < 40 else f"{lo}+", [r for r in rows if lo <= r[0] <= hi])
    line("all", rows)
    line("passed", [r for r in rows if r[1]])
    line("opened", [r for r in rows if not r[1]])
    # The hands the bot passes, by how far (in its own valuation) its best bid fell short of passing.
    cuts = sorted(r[3] for r in rows if r[3] is not None)
    if len(cuts) >= 8:
        q = [cuts[len(cuts) * k // 4] for k in range(1, 4)]
        edges = [float("-inf")] + q + [float("inf")]
        for lo, hi in zip(edges, edges[1:]):
            line(f"m<{hi:+.2f}" if hi < float("inf") else f"m>{lo:+.2f}",
                 [r for r in rows if r[3] is not None and lo <= r[3] < hi])


if __name__ == "__main__":
    main()

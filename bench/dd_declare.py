"""Declare or pass, double dummy: one seat's side declaring against another auction's contract.

Run from the repository root::

    python bench/dd_declare.py [--variant oregon] [--seat 1] [--declare "1,pass,pass,pass"]
                               [--other "pass,pass,pass,1"] [--deals 60] [--seed dd_declare]

For each seeded deal (``random.Random(f"{seed}:{i}")``, ``--seed dd_declare``; dealer seat 0) the
auction ``--declare`` (calls from the dealer's left) and the auction ``--other`` are
played, and each contract is solved double dummy (``runtime.solver.DoubleDummy``,
backend ``fast``; a declarer who names trump by its first lead picks its best lead,
notrump included), then scored by the variant's own scoring.  Printed per deal and
per band of the seat's high-card points (A 4, K 3, Q 2, J 1): the seat's side's score
minus the other side's under ``--declare`` less the same under ``--other``, with a 95%
interval, and in how many deals declaring was better.  Two sides, no kitty: the
auctions must end before the play with the first lead to come.  A measurement: it
asserts nothing.
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
from runtime.bots.knowledge import rules_info  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import HandState  # noqa: E402
from runtime.solver import DoubleDummy  # noqa: E402

_HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
BANDS = ((0, 8), (9, 11), (12, 14), (15, 40))


def value(rules, dd: DoubleDummy, hands, calls: list[str], side: int) -> int:
    """``side``'s score minus the other side's when ``calls`` are made and the hand is
    played double dummy."""
    state = HandState(rules, 0, [list(h) for h in hands], [])
    for name in calls:
        state.apply_action(rules.action_names.index(name))
    books = dd.solve(state)
    decl = rules.side_of[state.declarer]
    split = [0] * rules.sides
    split[decl] = books
    split[1 - decl] = rules_info(rules).total_books - books
    scored = state.clone()
    if scored.table is None:  # trump named by the first lead: scoring does not depend on which
        scored.apply_action(scored.legal_actions()[0])
    score = scored.score_books(split)
    return score[side] - score[1 - side]


def main(argv=None) -> None:
    """Solve and print."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="oregon")
    p.add_argument("--seat", type=int, default=1)
    p.add_argument("--declare", default="1,pass,pass,pass")
    p.add_argument("--other", default="pass,pass,pass,1")
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--seed", default="dd_declare", help="deal i is dealt from random.Random(f'{seed}:{i}')")
    a = p.parse_args(argv)
    rules = load_ruleset(a.variant)
    dd = DoubleDummy(backend="fast")
    side = rules.side_of[a.seat]
    rows = []
    for i in range(a.deals):
        hands, _ = deal(rules, random.Random(f"{a.seed}:{i}"))
        d = value(rules, dd, hands, a.declare.split(","), side) - value(rules, dd, hands, a.other.split(","), side)
        points = sum(_HCP.get(rules.cards[c][0], 0) for c in hands[a.seat])
        rows.append((points, d))
        print(f"deal {i}: {points} points, declare minus other {d:+d}", flush=True)

    def line(label, sel):
        if len(sel) > 1:
            ds = [d for _, d in sel]
            half = 1.96 * statistics.stdev(ds) / len(ds) ** 0.5
            print(f"{label:>6s}: {len(ds)} deals, declare minus other {statistics.fmean(ds):+.2f} (+-{half:.2f}), "
                  f"declaring better in {sum(d > 0 for d in ds)}")
    for lo, hi in BANDS:
        line(f"{lo}-{hi}" if hi < 40 else f"{lo}+", [r for r in rows if lo <= r[0] <= hi])
    line("all", rows)


if __name__ == "__main__":
    main()

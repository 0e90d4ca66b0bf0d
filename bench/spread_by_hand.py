"""Does the spread of a declaring side's books depend on the hand?  (issue 14, overbids)

Run from the repository root::

    python bench/spread_by_hand.py [--variant standard] [--hands 12000]

The bots value a bid over a normal curve of books with one spread per kind (suit,
notrump: ``_FIT_SD`` in runtime/bots/knowledge.py).  This asks whether a per-hand spread
would fit better.  It plays the forced contracts of bench/fit_bidding.py (the declarer's
best contract of a kind by its own estimate, the heuristic's discards and play), fits
``books = a + b * own`` per kind, and prints the residuals' mean and spread:

- by the *sure share* of the estimate: the tricks of a holding that hardly depend on
  where the other cards lie (an unbroken run from the top, a side suit's as cashed
  before it is ruffed; trumps beyond the others' expected longest holding; a notrump
  suit whose run outlasts the others' longest holding, in full) over the estimate;
- by the estimate itself (quintiles);
- among the strongest third of hands (the hands that bid), by the sure share.

Measured (standard, 12000 hands): the sure share hardly moves the spread (suits 1.97,
1.79, 1.71, 1.89 by quartile; notrump 2.17 .. 1.99); the estimate does for suits (2.02 in
the weakest fifth, 1.47 in the strongest); among strong notrump hands the sure share
moves the mean (-0.38, +0.12, +0.24 books by tercile) more than the spread (2.24 .. 1.93).
Tried in the bidding (2026-12-02; a spread scaled per hand by 1 + k (0.5 - sure share)):
overbids (``bench/realism.py --hands 400 --dd 400 --seed 1``) 15.0% before, 15.8%
(k = 1), 15.2% (k = 0.3, notrump only); a narrower or wider spread for every hand did not
lower them either (wider: more notrump and more overbids).  Not kept.
This is a measurement: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from fit_bidding import forced, line  # noqa: E402

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots.knowledge import _SIDE, _SIDE_ROUND, _TRUMP, _TRUMP_OTHERS, rules_info  # noqa: E402
from runtime.game import deal  # noqa: E402


def sure_value(size: int, mask: int, kind: int, inplay: float) -> float:
    """The sure tricks of one holding (bit ``r`` of ``mask``: the card ranked ``r`` is held)."""
    length = mask.bit_count()
    run = 0
    while run < length and mask >> run & 1:
        run += 1
    if kind == _SIDE:
        return sum(_SIDE_ROUND[i] for i in range(min(run, len(_SIDE_ROUND))))
    out = (size - length) * inplay
    if kind == _TRUMP:
        return max(float(run), length - out * _TRUMP_OTHERS)
    return float(length) if run and run >= out * 0.45 else float(run)


def sure_tricks(info, hand, table: int) -> float:
    """The sure tricks of ``hand`` under ``info.table_list[table]``."""
    ti = info.table_list[table]
    masks = [0] * len(ti.suits)
    for c in hand:
        if ti.sidx[c] >= 0:
            masks[ti.sidx[c]] |= ti.bit[c]
    return sum(sure_value(ti.size[i], m, ti.kinds[i], info.inplay) for i, m in enumerate(masks))


def groups(rows, a: float, b: float, key, n: int) -> str:
    """Residual mean/spread of ``rows`` in ``n`` equal groups ordered by ``key``."""
    rows = sorted(rows, key=key)
    q = len(rows) // n
    out = []
    for k in range(n):
        part = rows[k * q:(k + 1) * q] if k < n - 1 else rows[k * q:]
        res = [books - a - b * own for _, own, _, books in part]
        mean, sd = statistics.fmean(res), statistics.pstdev(res)
        out.append(f"{key(part[0]):.2f}..{key(part[-1]):.2f}: {mean:+.2f}/{sd:.2f}")
    return " | ".join(out)


def main() -> None:
    """Play the forced contracts and print the residuals by group."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard", help="variant (default standard)")
    parser.add_argument("--hands", type=int, default=12000, help="forced contracts (default 12000)")
    args = parser.parse_args()
    rules = load_ruleset(args.variant)
    info = rules_info(rules)
    rows = []
    for i in range(args.hands):
        found = forced(rules, info, i)
        if found is None:
            continue
        nt, own, books = found
        hands, _ = deal(rules, random.Random(f"fit:{i}"))  # the deal forced() played
        hand = hands[i % rules.players]
        est = info.estimate_all(hand)
        table = next(j for j, e in enumerate(est) if abs(e - own) < 1e-9)
        rows.append((nt, own, sure_tricks(info, hand, table) / own if own > 0 else 0.0, books))
    print(f"command: python bench/spread_by_hand.py {' '.join(sys.argv[1:])}")
    print("residual mean/spread (books) of the declaring side against a + b * own, by group")
    for nt, name in ((0, "suit"), (1, "notrump")):
        kind = [r for r in rows if r[0] == nt]
        if len(kind) < 30:
            continue
        a, b, sd = line([r[1] for r in kind], [r[3] for r in kind])
        print(f"{name}: {len(kind)} contracts, books = {a:.2f} + {b:.3f} own, spread {sd:.2f}")
        print(f"  by sure share: {groups(kind, a, b, lambda r: r[2], 4)}")
        print(f"  by estimate:   {groups(kind, a, b, lambda r: r[1], 5)}")
        strong = sorted(kind, key=lambda r: r[1])[-len(kind) // 3:]
        print(f"  strongest third, by sure share: {groups(strong, a, b, lambda r: r[2], 3)}")


if __name__ == "__main__":
    main()

"""The declarer's choices after the auction (kitty, discards, declaration), hand by hand.

Run from the repository root::

    python bench/declaring.py [--variants standard] [--hands N] [--seed S]
                              [--save FILE] [--compare FILE]

Each hand is dealt from its own seed and played to the end by the heuristic bot in
every seat.  Per hand it records the declaring side's books, whether the contract was
made and the declaring side's score less the others' mean.  ``--save`` writes them;
``--compare`` reads a file saved by another revision of the code and prints the paired
differences (95% normal intervals): the auctions are the same wherever the bidding code
is, so the difference is what the declarer's later choices (and the play from the
positions they leave) change.  This is a measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import HandState  # noqa: E402

Z95 = 1.959964


def mean_ci(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval."""
    if len(values) < 2:
        return (statistics.fmean(values) if values else float("nan")), float("inf")
    return statistics.fmean(values), Z95 * statistics.stdev(values) / math.sqrt(len(values))


def one_hand(rules, variant: str, seed: int, index: int):
    """[bid, books, made, score margin] of the declaring side of one hand, or None if nobody declared."""
    hands, kitty = deal(rules, random.Random(f"declaring:{variant}:{seed}:{index}"))
    state = HandState(rules, index % rules.players, [list(h) for h in hands], list(kitty))
    bots = [make_bot("heuristic", random.Random(f"{seed}:{index}:{s}")) for s in range(rules.players)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state))
    if state.declarer < 0 or state.score is None:
        return None
    side = rules.side_of[state.declarer]
    others = [s for s in range(rules.sides) if s != side]
    margin = state.score[side] - (sum(state.score[o] for o in others) / len(others) if others else 0.0)
    return [state.bid, state.books[side], bool(state.made), margin]


def main() -> None:
    """Play the hands, print the figures, save or compare."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="standard", help="comma list of variants (default standard)")
    parser.add_argument("--hands", type=int, default=2000, help="hands per variant (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--save", default="", help="write the per-hand results to this JSON file")
    parser.add_argument("--compare", default="", help="a file saved by --save: print paired differences")
    args = parser.parse_args()
    print(f"command: python bench/declaring.py {' '.join(sys.argv[1:])}")
    results = {}
    for variant in args.variants.split(","):
        rules = load_ruleset(variant)
        start = time.perf_counter()
        rows = [one_hand(rules, variant, args.seed, i) for i in range(args.hands)]
        results[variant] = rows
        played = [r for r in rows if r is not None]
        made = sum(r[2] for r in played) / max(1, len(played))
        m, h = mean_ci([r[3] for r in played])
        print(f"{variant}: {len(played)} declared hands, {time.perf_counter() - start:.0f} s; "
              f"made {made:.1%}, declaring margin {m:+.2f} (+-{h:.2f})")
    if args.compare:
        old = json.loads(Path(args.compare).read_text())
        for variant, rows in results.items():
            if variant not in old:
                continue
            pairs = [(a, b) for a, b in zip(rows, old[variant]) if a is not None and b is not None]
            same_bid = sum(a[0] == b[0] for a, b in pairs)
            for name, i in (("books", 1), ("made", 2), ("points", 3)):
                m, h = mean_ci([float(a[i]) - float(b[i]) for a, b in pairs])
                print(f"  {variant} {name} now - saved: {m:+.3f}  (95% CI {m - h:+.3f} .. {m + h:+.3f}; "
                      f"{len(pairs)} hands, {same_bid} with the same contract)")
    if args.save:
        Path(args.save).write_text(json.dumps(results))


if __name__ == "__main__":
    main()

"""Random-legal hands per second: the compiled `standard` against the hand-coded one.

Run from the repository root: ``python bench/throughput.py [--hands N] [--rounds R]``.
Both implementations are measured in the same run, interleaved round by round, and
the ratio of their best rounds is printed, so load on a shared machine affects both
alike.  This is a measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the plain implementation lives with the tests

import plain_standard  # noqa: E402

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import HandState  # noqa: E402


def compiled_hands(rules, n: int, seed: int) -> None:
    """Play ``n`` random-legal hands through the compiled engine."""
    rng = random.Random(seed)
    for _ in range(n):
        hands, kitty = deal(rules, rng)
        state = HandState(rules, rng.randrange(rules.players), hands, kitty)
        while state.phase != 5:
            state.apply_action(rng.choice(state.legal_actions()))


def plain_hands(n: int, seed: int) -> None:
    """Play ``n`` random-legal hands through the hand-coded implementation."""
    rng = random.Random(seed)
    for _ in range(n):
        plain_standard.play_random_hand(rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per round (default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each (default 5)")
    args = parser.parse_args()
    rules = load_ruleset("standard")
    best = {"compiled": 0.0, "plain": 0.0}
    for r in range(args.rounds):
        for name, run in (("compiled", lambda r=r: compiled_hands(rules, args.hands, r)),
                          ("plain", lambda r=r: plain_hands(args.hands, r))):
            start = time.perf_counter()
            run()
            rate = args.hands / (time.perf_counter() - start)
            best[name] = max(best[name], rate)
    print(f"compiled standard : {best['compiled']:8.0f} hands/s")
    print(f"hand-coded plain  : {best['plain']:8.0f} hands/s")
    print(f"ratio             : {best['compiled'] / best['plain']:.2f}x  "
          f"(compiled / hand-coded, best of {args.rounds} rounds of {args.hands})")


if __name__ == "__main__":
    main()

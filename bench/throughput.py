"""Random-legal hands per second: the compiled `standard` against the hand-coded ones.

Run from the repository root: ``python bench/throughput.py [--hands N] [--rounds R] [--reference FILE]``.
The engine (through its per-action API, and through its fused random playout, the
same hands), the plain string implementation of tests/plain_standard.py and, where
it is found, the hand-coded reference ``../shared/perf/bidwhist_v2.py`` (int cards,
precomputed tables: the stronger reference issue 16 asks to report beside the plain
one) are measured in the same run, interleaved round by round, in CPU time, and the
ratios of their best rounds are printed, so load on a shared machine affects all
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
sys.path.insert(0, str(ROOT / "bench"))

import engine  # noqa: E402  (bench/engine.py: where the reference is found, and how it is loaded)
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


def playout_hands(rules, n: int, seed: int) -> None:
    """The same hands as :func:`compiled_hands`, played by the engine's fused random playout."""
    rng = random.Random(seed)
    for _ in range(n):
        hands, kitty = deal(rules, rng)
        HandState(rules, rng.randrange(rules.players), hands, kitty).play_random(rng)


def reference_hands(reference, n: int, seed: int) -> None:
    """Play ``n`` random-legal hands through bidwhist_v2.py (the dealer rotating)."""
    rng = random.Random(seed)
    for i in range(n):
        reference.play_hand(rng, i & 3)


def plain_hands(n: int, seed: int) -> None:
    """Play ``n`` random-legal hands through the hand-coded implementation."""
    rng = random.Random(seed)
    for _ in range(n):
        plain_standard.play_random_hand(rng)


def main() -> None:
    """Measure each implementation round by round and print the best rates and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per round (default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each (default 5)")
    parser.add_argument("--reference", default=None, metavar="FILE", help="the hand-coded reference bidwhist_v2.py")
    args = parser.parse_args()
    rules = load_ruleset("standard")
    runs = {"compiled": lambda r: compiled_hands(rules, args.hands, r),
            "fused playout": lambda r: playout_hands(rules, args.hands, r),
            "plain": lambda r: plain_hands(args.hands, r)}
    ref_path = engine.find_reference(args.reference)
    if ref_path is not None:
        reference = engine._load_reference(ref_path)
        runs["bidwhist_v2"] = lambda r: reference_hands(reference, args.hands, r)
    best = dict.fromkeys(runs, 0.0)
    for r in range(args.rounds):
        for name in (list(runs) if r % 2 == 0 else list(runs)[::-1]):
            start = time.process_time()
            runs[name](r)
            rate = args.hands / max(time.process_time() - start, 1e-9)
            best[name] = max(best[name], rate)
    print(f"compiled standard, per-action API : {best['compiled']:8.0f} hands/s")
    print(f"compiled standard, fused playout  : {best['fused playout']:8.0f} hands/s")
    print(f"hand-coded plain (strings)        : {best['plain']:8.0f} hands/s")
    if ref_path is None:
        print("hand-coded bidwhist_v2.py         : not found (give --reference FILE)")
    else:
        print(f"hand-coded bidwhist_v2.py         : {best['bidwhist_v2']:8.0f} hands/s")
    print(f"ratio             : {best['compiled'] / best['plain']:.2f}x  "
          f"(compiled / hand-coded plain, best of {args.rounds} rounds of {args.hands}, CPU time)")
    if ref_path is not None:
        for name in ("compiled", "fused playout"):
            print(f"ratio             : {best[name] / best['bidwhist_v2']:.2f}x  ({name} / bidwhist_v2.py)")


if __name__ == "__main__":
    main()

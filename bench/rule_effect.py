"""Does a rule's measured effect depend on the bot that measures it?

Run from the repository root::

    python bench/rule_effect.py [--base standard] [--rules min-bid-4,low-beats-high]
                                [--bots heuristic,sampler] [--hands N] [--seed S] [--workers W]

For every bot and every house rule: ``--hands`` hands are dealt from one seed and each
is played twice, under the base variant and under the base with the rule, the bot in
every seat (the same cards, dealer and bot seeds both times).  Reported: the change
the rule makes to the contracts made (share of contracts) and to the notrump share
(share of contracts declared in notrump), each with a 95% bootstrap interval over the
paired hands; then, per rule, whether the bots' changes agree within their intervals
(their difference's interval, the two runs being independent, contains zero).
This is a measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import HandState  # noqa: E402
from runtime.ruleset import NO_TRUMP  # noqa: E402

Z95 = 1.959964


def play(job: tuple) -> tuple:
    """One hand: (has a contract, in notrump, made) under the variant."""
    variant, bot, seed, index = job
    rules = load_ruleset(variant)
    hands, kitty = deal(rules, random.Random(f"effect:{seed}:{index}"))
    state = HandState(rules, index % rules.players, [list(h) for h in hands], list(kitty))
    bots = [make_bot(bot, random.Random(f"{seed}:{index}:{s}")) for s in range(rules.players)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state))
    has = state.declarer >= 0 and not state.redealt
    return (has, has and state.trump == NO_TRUMP, has and bool(state.made))


def rates(rows: list[tuple]) -> tuple[float, float]:
    """(contracts made, notrump share), as shares of the hands with a contract."""
    n = sum(r[0] for r in rows) or 1
    return sum(r[2] for r in rows) / n, sum(r[1] for r in rows) / n


def effect(a: list[tuple], b: list[tuple], seed: int, rounds: int = 1000) -> list[tuple[float, float, float]]:
    """Per figure: the change B - A and its 95% bootstrap interval over the paired hands."""
    ra, rb = rates(a), rates(b)
    rng = random.Random(seed)
    n = len(a)
    boot = []
    for _ in range(rounds):
        idx = [rng.randrange(n) for _ in range(n)]
        xa, xb = rates([a[i] for i in idx]), rates([b[i] for i in idx])
        boot.append((xb[0] - xa[0], xb[1] - xa[1]))
    out = []
    for k in range(2):
        d = sorted(x[k] for x in boot)
        out.append((rb[k] - ra[k], d[int(0.025 * rounds)], d[int(0.975 * rounds) - 1]))
    return out


def main() -> None:
    """Parse the options, play every bot and rule, print the changes and whether they agree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="standard")
    parser.add_argument("--rules", default="min-bid-4,low-beats-high")
    parser.add_argument("--bots", default="heuristic,sampler")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    bots = args.bots.split(",")
    print(f"{args.base}, {args.hands} hands per bot and rule, seed {args.seed}")
    pool = Pool(args.workers) if args.workers > 1 else None
    run = pool.map if pool else lambda f, jobs: list(map(f, jobs))
    base = {bot: run(play, [(args.base, bot, args.seed, i) for i in range(args.hands)]) for bot in bots}
    names = ("contracts made", "notrump share")
    for rule in args.rules.split(","):
        variant = f"{args.base}+{rule}"
        got = {}
        for bot in bots:
            other = run(play, [(variant, bot, args.seed, i) for i in range(args.hands)])
            got[bot] = effect(base[bot], other, args.seed)
            for name, (d, lo, hi) in zip(names, got[bot]):
                print(f"  +{rule}, {bot}: {name} {100 * d:+.1f} pts (95% CI {100 * lo:+.1f} .. {100 * hi:+.1f})")
        if len(bots) == 2:
            for k, name in enumerate(names):
                (d1, lo1, hi1), (d2, lo2, hi2) = got[bots[0]][k], got[bots[1]][k]
                # Independent runs: the difference's half-width from the two half-widths.
                half = (((hi1 - lo1) / 2) ** 2 + ((hi2 - lo2) / 2) ** 2) ** 0.5
                diff = d2 - d1
                verdict = "agree" if abs(diff) <= half else "DIFFER"
                print(f"  +{rule}: {name}, {bots[1]} - {bots[0]} {100 * diff:+.1f} pts "
                      f"(95% CI {100 * (diff - half):+.1f} .. {100 * (diff + half):+.1f}): {verdict}")
    if pool:
        pool.close()


if __name__ == "__main__":
    main()

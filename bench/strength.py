"""How strong and how fast the bots are, measured: full games of a variant (``standard``).

Run from the repository root::

    python bench/strength.py --games 1000 [--sampler-games N] [--samples S] [--workers W]

Two matches of whole games (``runtime.game.GameState``, one bot per seat):

* ``heuristic`` against ``random`` for ``--games`` games;
* ``sampler`` against ``heuristic`` for ``--sampler-games`` games (fewer: the sampler
  plays every candidate card out in each sampled deal; the count is printed);

and, because games of few hands say little about play, the same two on the same
deals: each of ``--paired-deals`` deals is played by four heuristic bots and again
with the sampler on one side (the auction is the same: the sampler bids as the
heuristic), and the difference the sampler made to that side's score is reported.

The first bot ("A") holds the side of seats 0 and 2 in even games and the side of
seats 1 and 3 in odd ones, so position effects (who deals first) cancel.  Game ``g``
is dealt from its own seed and each bot draws from its own generator, so a run is
reproducible and does not depend on ``--workers``.

Reported: A's points per hand minus B's (the mean of each hand's score difference,
with a 95% normal confidence interval over hands), each side's points per hand, and
A's game win rate with a 95% Wilson interval.  Then the speed of the random and the
heuristic bots, measured side by side in one process (interleaved rounds of whole
hands, CPU time, so load on a shared machine affects both alike) — the heuristic
must keep at least a quarter of the random bot's rate.

This is a measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots import SamplerBot, make_bot  # noqa: E402
from runtime.game import GameState, deal  # noqa: E402
from runtime.hand import HandState  # noqa: E402

Z95 = 1.959964


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def mean_ci(values: list[float], z: float = Z95) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its normal 95% confidence interval."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("inf")
    return m, z * statistics.stdev(values) / math.sqrt(len(values))


def make(name: str, rng: random.Random, samples: int):
    """A bot by name; the sampler with the requested number of sampled deals."""
    if name == "sampler":
        return SamplerBot(rng, samples=samples)
    return make_bot(name, rng)


def play_game(job: tuple) -> dict:
    """One game of ``a`` against ``b``: who won, and every hand's scores from A's side."""
    variant, a, b, seed, index, samples = job
    rules = load_ruleset(variant)
    a_side = index % 2
    game = GameState(rules, seed * 1_000_003 + index)
    bots = [make(a if rules.side_of[s] == a_side else b,
                 random.Random(f"{seed}:{index}:{s}"), samples) for s in range(rules.players)]
    while not game.is_terminal():
        game.apply_action(bots[game.current_player()].choose(game.hand))
    b_side = 1 - a_side
    hands = [(h.score[a_side], h.score[b_side]) for h in game.history]
    return {"won": game.winner == a_side, "hands": hands}


def match(variant: str, a: str, b: str, games: int, seed: int, samples: int, workers: int) -> dict:
    """Play ``games`` games and gather the figures of the report."""
    jobs = [(variant, a, b, seed, g, samples) for g in range(games)]
    start = time.perf_counter()
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(play_game, jobs, chunksize=1)
    else:
        results = [play_game(j) for j in jobs]
    elapsed = time.perf_counter() - start
    diffs = [pa - pb for r in results for pa, pb in r["hands"]]
    return {
        "a": a, "b": b, "games": games, "hands": len(diffs),
        "wins": sum(r["won"] for r in results),
        "diff": mean_ci(diffs),
        "a_points": statistics.fmean(pa for r in results for pa, _ in r["hands"]),
        "b_points": statistics.fmean(pb for r in results for _, pb in r["hands"]),
        "seconds": elapsed,
    }


def report(m: dict) -> None:
    diff, half = m["diff"]
    lo, hi = wilson(m["wins"], m["games"])
    print(f"{m['a']} (A) vs {m['b']} (B): {m['games']} games, {m['hands']} hands, {m['seconds']:.0f} s")
    print(f"  points per hand, A - B : {diff:+.2f}  (95% CI {diff - half:+.2f} .. {diff + half:+.2f})")
    print(f"  points per hand, A / B : {m['a_points']:+.2f} / {m['b_points']:+.2f}")
    print(f"  A's win rate           : {m['wins'] / m['games']:.3f}  "
          f"({m['wins']}/{m['games']}; 95% Wilson CI {lo:.3f} .. {hi:.3f})")


def paired_deal(job: tuple) -> float:
    """One deal played twice: all heuristic, then with the sampler on one side.

    Returns how much more that side scored (its score minus the other side's) with
    the sampler.  The auction is the same both times (the sampler bids as the
    heuristic does), so the difference is the sampler's discards and play.
    """
    variant, seed, index, samples = job
    rules = load_ruleset(variant)
    side = index % 2
    hands, kitty = deal(rules, random.Random(f"paired:{seed}:{index}"))
    results = []
    for with_sampler in (False, True):
        state = HandState(rules, index % rules.players, [list(h) for h in hands], list(kitty))
        bots = [make("sampler" if with_sampler and rules.side_of[s] == side else "heuristic",
                     random.Random(f"{seed}:{index}:{s}"), samples) for s in range(rules.players)]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].choose(state))
        results.append(state.score[side] - state.score[1 - side])
    return results[1] - results[0]


def paired(variant: str, deals: int, seed: int, samples: int, workers: int) -> dict:
    """The sampler against the heuristic on the same deals (duplicate style)."""
    jobs = [(variant, seed, i, samples) for i in range(deals)]
    start = time.perf_counter()
    if workers > 1:
        with Pool(workers) as pool:
            diffs = pool.map(paired_deal, jobs, chunksize=1)
    else:
        diffs = [paired_deal(j) for j in jobs]
    return {"deals": deals, "diff": mean_ci(diffs), "changed": sum(1 for d in diffs if d),
            "seconds": time.perf_counter() - start}


def hands_per_second(rules, name: str, hands: int, seed: int) -> float:
    """CPU time of ``hands`` whole hands with bot ``name`` in every seat, as hands per second."""
    rng = random.Random(seed)
    start = time.process_time()
    for i in range(hands):
        h, kitty = deal(rules, rng)
        state = HandState(rules, i % rules.players, h, kitty)
        bot = make_bot(name, random.Random(f"{seed}:{i}"))
        while not state.is_terminal():
            state.apply_action(bot.choose(state))
    return hands / (time.process_time() - start)


def speed(variant: str, hands: int, rounds: int) -> tuple[float, float]:
    """Random and heuristic hands per second, interleaved in rounds; the totals of all rounds."""
    rules = load_ruleset(variant)
    hands_per_second(rules, "heuristic", 50, 0)  # warm the per-ruleset tables
    per = max(1, hands // rounds)
    cpu = {"random": 0.0, "heuristic": 0.0}
    for r in range(rounds):
        for name in ("random", "heuristic"):
            cpu[name] += per / hands_per_second(rules, name, per, r + 1)
    total = per * rounds
    return total / cpu["random"], total / cpu["heuristic"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard", help="variant to play (default standard)")
    parser.add_argument("--games", type=int, default=1000, help="heuristic-vs-random games (default 1000)")
    parser.add_argument("--sampler-games", type=int, default=None,
                        help="sampler-vs-heuristic games (default: a fifth of --games, at least 20)")
    parser.add_argument("--paired-deals", type=int, default=None,
                        help="deals played twice, sampler and heuristic (default: as --sampler-games)")
    parser.add_argument("--samples", type=int, default=16, help="deals the sampler draws per decision (default 16)")
    parser.add_argument("--speed-hands", type=int, default=2000, help="hands per bot for the speed figures")
    parser.add_argument("--speed-rounds", type=int, default=20,
                        help="interleaved rounds of the speed measurement (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="processes for the matches (default 1)")
    args = parser.parse_args()
    sampler_games = args.sampler_games if args.sampler_games is not None else max(20, args.games // 5)

    print(f"variant {args.variant}, seed {args.seed}, Python {sys.version.split()[0]}")
    rate_random, rate_heuristic = speed(args.variant, args.speed_hands, rounds=args.speed_rounds)
    print(f"speed: random {rate_random:,.0f} hands/s, heuristic {rate_heuristic:,.0f} hands/s, "
          f"ratio {rate_heuristic / rate_random:.2f} (CPU time, {args.speed_hands} hands each, interleaved)")
    print()
    report(match(args.variant, "heuristic", "random", args.games, args.seed, args.samples, args.workers))
    if sampler_games:  # 0: only the heuristic's figures
        print()
        print(f"sampler: {args.samples} sampled deals per decision, heuristic playouts; "
              f"{sampler_games} games")
        report(match(args.variant, "sampler", "heuristic", sampler_games, args.seed, args.samples, args.workers))
    deals = args.paired_deals if args.paired_deals is not None else sampler_games
    if deals:
        p = paired(args.variant, deals, args.seed, args.samples, args.workers)
        diff, half = p["diff"]
        print()
        print(f"sampler - heuristic on the same deals (each deal twice, sampler side alternating): "
              f"{deals} deals, {p['seconds']:.0f} s")
        print(f"  points per hand gained : {diff:+.2f}  (95% CI {diff - half:+.2f} .. {diff + half:+.2f}; "
              f"{p['changed']} deals scored differently)")


if __name__ == "__main__":
    main()

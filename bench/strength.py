"""How strong and how fast a bot is against another, measured on the same deals with sides swapped.

Run from the repository root::

    python bench/strength.py [--bots A,B] [--deals N] [--variants standard|all|V1,V2]
                             [--games G] [--samples S] [--workers W] [--seed S]
                             [--set MODULE.NAME=VALUE ...]

Default: the ``heuristic`` (A) against the frozen ``baseline`` (B) on 2,000 deals of
``standard``.  Each deal is played once for every side A can hold (twice where there
are two sides): A's bots in that side's seats, B's in the others, the same cards, the
same dealer.  A deal's figure is A's score minus the mean of the other sides', averaged
over those plays, so the luck of the cards cancels and what is left is the bots.
Reported per variant: A's points per hand over B with a 95% normal confidence
interval over deals, and how many deals scored differently at all.  ``--variants
all`` measures every shipped variant.

``--set heuristic.NAME=VALUE`` (repeatable, as in bench/gamerisk.py) measures bot A
with a setting changed, e.g. ``--bots heuristic,heuristic --set heuristic._BID_CREDIT=0.5``:
a change against the bot as shipped on the same deals.

``--games G`` adds a match of G whole games (``runtime.game.GameState``): A holds the
side of seat 0 in even games and of seat 1 in odd ones, with A's points per hand
over B (CI over hands) and A's game win rate (Wilson interval).

Then the speed of A and B (``--speed-hands``; 0 skips it), measured side by side in
one process on the first variant: interleaved rounds of whole hands, each bot in
every seat, CPU time, so load on a shared machine affects both alike.

Deal ``i`` comes from its own seed and each bot from its own generator, so a run is
reproducible and does not depend on ``--workers``.  This is a measurement, not a
test: it asserts nothing.
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

from bidcompiler.pipeline import load_ruleset, shipped_variants  # noqa: E402
from gamerisk import parse_settings, with_settings  # noqa: E402
from runtime.bots import BOTS, SamplerBot  # noqa: E402
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


def make(name: str, rng: random.Random, samples: int, settings: dict | None = None):
    """A bot by name; the sampler with the requested number of sampled deals (its default if None);
    with ``settings`` (``--set``, as gamerisk.parse_settings gives them), deciding with them in place."""
    if name == "sampler" and samples is not None:
        return with_settings(SamplerBot, settings or {})(rng, samples=samples)
    return with_settings(BOTS[name], settings or {})(rng)


def margin(score, side: int) -> float:
    """``side``'s score minus the mean of the other sides' scores."""
    others = [x for s, x in enumerate(score) if s != side]
    return score[side] - (sum(others) / len(others) if others else 0.0)


# ------------------------------------------------------------------ paired deals
def paired_deal(job: tuple) -> float:
    """One deal played once per side A can hold: A's mean margin over B's sides."""
    variant, a, b, seed, index, samples, a_set = job
    settings = parse_settings(a_set)  # in the worker: its module objects do not pickle
    rules = load_ruleset(variant)
    hands, kitty = deal(rules, random.Random(f"paired:{seed}:{index}"))
    dealer = index % rules.players
    margins = []
    for side in range(rules.sides):
        state = HandState(rules, dealer, [list(h) for h in hands], list(kitty))
        bots = [make(a, rng, samples, settings) if rules.side_of[s] == side else make(b, rng, samples)
                for s in range(rules.players) for rng in [random.Random(f"{seed}:{index}:{side}:{s}")]]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].choose(state))
        margins.append(margin(state.score, side))
    return statistics.fmean(margins)


def paired(variant: str, a: str, b: str, deals: int, seed: int, samples: int, workers: int,
           a_set: tuple[str, ...] = ()) -> dict:
    """A (with the ``--set`` items ``a_set``) against B on ``deals`` deals, sides swapped (duplicate style)."""
    jobs = [(variant, a, b, seed, i, samples, a_set) for i in range(deals)]
    start = time.perf_counter()
    if workers > 1:
        with Pool(workers) as pool:
            diffs = pool.map(paired_deal, jobs, chunksize=max(1, deals // (workers * 8)))
    else:
        diffs = [paired_deal(j) for j in jobs]
    return {"variant": variant, "a": a, "b": b, "deals": deals, "diff": mean_ci(diffs),
            "changed": sum(1 for d in diffs if d), "seconds": time.perf_counter() - start}


def report_paired(p: dict) -> None:
    """Print one variant's paired figure."""
    diff, half = p["diff"]
    print(f"{p['variant']}: {p['a']} (A) vs {p['b']} (B), {p['deals']} deals each played with sides swapped, "
          f"{p['seconds']:.0f} s")
    print(f"  points per hand, A - B : {diff:+.2f}  (95% CI {diff - half:+.2f} .. {diff + half:+.2f}; "
          f"{p['changed']} deals scored differently)")


# ------------------------------------------------------------------ whole games
def play_game(job: tuple) -> dict:
    """One game of ``a`` against ``b``: who won, and every hand's margins from A's side."""
    variant, a, b, seed, index, samples, a_set = job
    settings = parse_settings(a_set)  # in the worker: its module objects do not pickle
    rules = load_ruleset(variant)
    a_side = rules.side_of[index % rules.players]
    game = GameState(rules, seed * 1_000_003 + index)
    bots = [make(a, rng, samples, settings) if rules.side_of[s] == a_side else make(b, rng, samples)
            for s in range(rules.players) for rng in [random.Random(f"{seed}:{index}:{s}")]]
    while not game.is_terminal():
        game.apply_action(bots[game.current_player()].choose(game.hand))
    return {"won": game.winner == a_side, "hands": [margin(h.score, a_side) for h in game.history]}


def match(variant: str, a: str, b: str, games: int, seed: int, samples: int, workers: int,
          a_set: tuple[str, ...] = ()) -> dict:
    """Play ``games`` whole games (A with the ``--set`` items ``a_set``) and gather the figures of the report."""
    jobs = [(variant, a, b, seed, g, samples, a_set) for g in range(games)]
    start = time.perf_counter()
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(play_game, jobs, chunksize=1)
    else:
        results = [play_game(j) for j in jobs]
    diffs = [d for r in results for d in r["hands"]]
    return {"a": a, "b": b, "games": games, "hands": len(diffs), "wins": sum(r["won"] for r in results),
            "diff": mean_ci(diffs), "seconds": time.perf_counter() - start}


def report_match(m: dict) -> None:
    """Print a games match's figures."""
    diff, half = m["diff"]
    lo, hi = wilson(m["wins"], m["games"])
    print(f"  games: {m['games']} games, {m['hands']} hands, {m['seconds']:.0f} s; "
          f"points per hand A - B {diff:+.2f} (95% CI {diff - half:+.2f} .. {diff + half:+.2f}); "
          f"A wins {m['wins']}/{m['games']} (Wilson CI {lo:.3f} .. {hi:.3f})")


# ------------------------------------------------------------------ speed
def hands_per_second(rules, name: str, hands: int, seed: int, samples: int) -> float:
    """CPU time of ``hands`` whole hands with bot ``name`` in every seat, as hands per second."""
    rng = random.Random(seed)
    start = time.process_time()
    for i in range(hands):
        h, kitty = deal(rules, rng)
        state = HandState(rules, i % rules.players, h, kitty)
        bot = make(name, random.Random(f"{seed}:{i}"), samples)
        while not state.is_terminal():
            state.apply_action(bot.choose(state))
    return hands / (time.process_time() - start)


def speed(variant: str, names: tuple[str, ...], hands: int, rounds: int, samples: int) -> dict[str, float]:
    """Hands per second of each bot, interleaved in rounds; the totals of all rounds."""
    rules = load_ruleset(variant)
    for name in names:
        hands_per_second(rules, name, 20, 0, samples)  # warm the per-ruleset tables
    per = max(1, hands // rounds)
    cpu = dict.fromkeys(names, 0.0)
    for r in range(rounds):
        for name in names:
            cpu[name] += per / hands_per_second(rules, name, per, r + 1, samples)
    return {name: per * rounds / cpu[name] for name in names}


def main() -> None:
    """Parse the options, run the paired deals per variant, the games and the speed figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="heuristic,baseline",
                        help="A,B: the bot measured and its opponent (default heuristic,baseline)")
    parser.add_argument("--variants", default="standard",
                        help="a variant, a comma list, or 'all' for every shipped variant (default standard)")
    parser.add_argument("--deals", type=int, default=2000, help="paired deals per variant (default 2000)")
    parser.add_argument("--games", type=int, default=0, help="whole games per variant too (default 0)")
    parser.add_argument("--samples", type=int, default=None,
                        help="most deals the sampler draws per decision (default: the bot's own)")
    parser.add_argument("--speed-hands", type=int, default=2000,
                        help="hands per bot for the speed figures, 0 to skip (default 2000)")
    parser.add_argument("--speed-rounds", type=int, default=20,
                        help="interleaved rounds of the speed measurement (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="processes for the deals and games (default 1)")
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                        help="a setting of runtime.bots.MODULE for bot A (repeatable), e.g. "
                             "heuristic._BID_CREDIT=0.5 with --bots heuristic,heuristic")
    args = parser.parse_args()
    try:
        parse_settings(args.set)  # refused here, once; each job reads them again (see paired_deal)
    except ValueError as e:
        parser.error(str(e))
    names = tuple(args.bots.split(","))
    if len(names) != 2 or any(n not in BOTS for n in names):
        parser.error(f"--bots takes two of {', '.join(sorted(BOTS))}, e.g. heuristic,baseline")
    a, b = names
    variants = sorted(shipped_variants()) if args.variants == "all" else args.variants.split(",")

    print(f"seed {args.seed}, Python {sys.version.split()[0]}")
    for variant in variants:
        if args.deals:
            report_paired(paired(variant, a, b, args.deals, args.seed, args.samples, args.workers, tuple(args.set)))
        if args.games:
            if not args.deals:
                print(f"{variant}: {a} (A) vs {b} (B)")
            report_match(match(variant, a, b, args.games, args.seed, args.samples, args.workers, tuple(args.set)))
    if args.speed_hands:
        rates = speed(variants[0], (a, b) if a != b else (a,), args.speed_hands, args.speed_rounds, args.samples)
        print(f"speed ({variants[0]}, CPU time, {args.speed_hands} hands each, interleaved): "
              + ", ".join(f"{n} {r:,.0f} hands/s ({1000 / r:.1f} ms/hand)" for n, r in rates.items())
              + (f"; ratio A/B {rates[a] / rates[b]:.2f}" if a != b else ""))


if __name__ == "__main__":
    main()

"""Does seeing the game pay?  The heuristic against itself blind to the game score, whole games.

Run from the repository root::

    python bench/gamerisk.py [--variants standard,...] [--games G] [--seed S]
                             [--against blind|shipped] [--set MODULE.NAME=VALUE ...]

Each game ``g`` is played twice from the same deals (hand ``h`` of game ``g`` dealt
from ``runtime.simulate.deal_rng(seed, g, h)``, the same first dealer): once with the
game-aware heuristic (every hand's ``GameView`` in view, as ``bidwhist simulate --games``
plays) in the seats of side 0 and the same heuristic with the game hidden
(``state.game = None`` while it decides: the hand alone) in the others, once with the
sides swapped.  Reported per variant, with 95% normal intervals over the game pairs:
the aware side's game win rate (the pair's mean), its points per hand over the blind
side, and each kind's make rate as declarer with the share of its contracts at each
level.  Later hands of a game differ between the two plays once a result differs; the
pairs still share the first hand and the deals.

``--set heuristic.NAME=VALUE`` (repeatable) measures the bot with a setting changed;
``--against shipped`` plays it against the heuristic as shipped (game-aware, the code's
own settings) instead of itself blind: a change's effect on whole games, head to head.
Without ``--set`` that is the bot against itself: exactly 50%.  A measurement, not a test.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import math
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots.heuristic import HeuristicBot  # noqa: E402
from runtime.game import GameTally, GameView, deal, first_dealer  # noqa: E402
from runtime.hand import HandState  # noqa: E402
from runtime.simulate import bot_rng, deal_rng  # noqa: E402

Z95 = 1.959964


class BlindBot(HeuristicBot):
    """The heuristic with the game score hidden: it decides every call on the hand alone."""

    def choose(self, state: HandState) -> int:
        """As the heuristic, with ``state.game`` hidden while it decides."""
        view = state.game
        state.game = None
        try:
            return super().choose(state)
        finally:
            state.game = view


def parse_settings(items: list[str]) -> dict[tuple[object, str], object]:
    """``--set`` items, each ``module.NAME=VALUE`` (a module of ``runtime.bots``, a Python
    literal): {(module, name): value}.  ValueError for anything else."""
    out: dict[tuple[object, str], object] = {}
    for item in items:
        target, _, text = item.partition("=")
        module_name, _, name = target.rpartition(".")
        try:
            module = importlib.import_module(f"runtime.bots.{module_name}")
            value = ast.literal_eval(text)
        except (ImportError, ValueError, SyntaxError) as e:
            raise ValueError(f"--set {item!r}: {e}") from None
        if not name or not hasattr(module, name):
            raise ValueError(f"--set {item!r}: runtime.bots.{module_name} has no setting {name!r}")
        out[(module, name)] = value
    return out


def with_settings(kind: type, settings: dict[tuple[object, str], object]) -> type:
    """``kind`` deciding with ``settings`` in place (put back after each decision).  Only
    for settings read while deciding: models a module caches (the auction model) are
    built once, with whatever settings the first bot had."""
    if not settings:
        return kind

    class Set(kind):  # type: ignore[valid-type,misc]
        def choose(self, state: HandState) -> int:
            saved = {key: getattr(*key) for key in settings}
            for (module, name), value in settings.items():
                setattr(module, name, value)
            try:
                return super().choose(state)
            finally:
                for (module, name), value in saved.items():
                    setattr(module, name, value)

    Set.__name__ = f"{kind.__name__} with {', '.join(name for _, name in settings)} set"
    return Set


def play(rules, seed: int, g: int, aware_side: int, stats: dict, max_hands: int = 300,
         aware=HeuristicBot, other=BlindBot) -> tuple[int, int, int]:
    """Play game ``g``; (aware side won 0/1, aware side's points minus the blind side's, hands)."""
    dealer = first_dealer(rules, random.Random(f"bidwhist:{seed}:game:{g}:dealer"))
    tally = GameTally(rules)
    h = 0
    diff = 0
    while tally.winner is None and h < max_hands:
        cards, kitty = deal(rules, deal_rng(seed, g, h))
        state = HandState(rules, dealer, cards, kitty)
        state.game = GameView(tally)
        players = [(aware if rules.side_of[s] == aware_side else other)(bot_rng(seed, g, h, s))
                   for s in range(rules.players)]
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].choose(state))
        if state.declarer >= 0:
            kind = "aware" if rules.side_of[state.declarer] == aware_side else "other"
            level = rules.bids[state.bid].level
            s = stats.setdefault(kind, {"n": 0, "made": 0, "levels": {}})
            s["n"] += 1
            s["made"] += bool(state.made)
            s["levels"][level] = s["levels"].get(level, 0) + 1
        score = state.score or [0] * rules.sides
        diff += score[aware_side] - max(score[s] for s in range(rules.sides) if s != aware_side)
        tally.add_hand(state)
        dealer = tally.next_dealer(state)
        h += 1
    return int(tally.winner == aware_side), diff, h


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean and 95% normal interval."""
    m = statistics.fmean(xs)
    half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf")
    return m, m - half, m + half


def measure(variant: str, games: int, seed: int, aware=HeuristicBot, other=BlindBot) -> None:
    """Play the pairs and print one variant's figures (``aware`` against ``other``)."""
    rules = load_ruleset(variant)
    stats: dict = {}
    wins, points = [], []
    hands = 0
    for g in range(games):
        w0, d0, h0 = play(rules, seed, g, 0, stats, aware=aware, other=other)
        w1, d1, h1 = play(rules, seed, g, 1, stats, aware=aware, other=other)
        wins.append((w0 + w1) / 2)
        points.append((d0 + d1) / max(1, h0 + h1))
        hands += h0 + h1
    w, lo, hi = mean_ci(wins)
    p, plo, phi = mean_ci(points)
    print(f"{variant}: {games} game pairs ({hands} hands), seed {seed}: {aware.__name__} against {other.__name__}")
    print(f"  aware side wins {100 * w:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%); "
          f"points per hand over the other {p:+.2f} ({plo:+.2f} to {phi:+.2f})")
    for kind in ("aware", "other"):
        s = stats.get(kind, {"n": 0, "made": 0, "levels": {}})
        label = kind if kind == "aware" else other.__name__
        n = max(1, s["n"])
        levels = ", ".join(f"{lv}: {100 * c / n:.1f}%" for lv, c in sorted(s["levels"].items()))
        print(f"  {label} declares {s['n']} contracts, made {100 * s['made'] / n:.1f}%; levels {levels}")


def main(argv=None) -> None:
    """Parse the options and measure each variant."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variants", default="standard")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--against", choices=("blind", "shipped"), default="blind",
                   help="the other side: the same bot blind to the game (default), or the heuristic as shipped")
    p.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                   help="a setting of runtime.bots.MODULE for the bot measured (repeatable), e.g. "
                        "heuristic._OPPONENT_MARGIN=0.7")
    a = p.parse_args(argv)
    try:
        settings = parse_settings(a.set)
    except ValueError as e:
        p.error(str(e))
    aware = with_settings(HeuristicBot, settings)
    other = with_settings(BlindBot, settings) if a.against == "blind" else HeuristicBot
    for name in a.variants.split(","):
        measure(name, a.games, a.seed, aware, other)


if __name__ == "__main__":
    main()

"""Is the common auction right?  Each call of an auction against the other calls the seat had, on the same deals.

Run from the repository root::

    python bench/decision_points.py --variant hawaii --auction "pass,3,pass,pass" [--deals 3000]
                                    [--seed 1] [--bots heuristic] [--alternatives 2] [--workers 1]

For each seeded deal (``random.Random(f"decision_points:{seed}:{i}")``, the dealer
``i % players``) the bots bid.  At each call ``k`` of ``--auction`` (calls in order from
the dealer's left) that the bots reached and made, the seat's other calls (pass and the
``--alternatives`` lowest legal bids, and ``take`` where the dealer may match, whichever
the bot did not make) are tried in turn:
the calls before ``k`` as the bots made them, the other call, then the bots play the
rest of the hand (auction, kitty, discards, play).  The deal is also played out as the
bots bid it.  Printed per call of the auction and per other call: over the deals where
the bots made that call there (after the same calls before it), the acting side's score
minus the other side's with the other call, less the same with the bots' call: the
points a hand the other call gains (95% interval), and in how many deals it did
better / worse.  A positive, significant row means the bots leave points at that
decision point; the column ``closest quarter`` gives the same over the quarter of those
deals where the bot's own valuation (its one-line reason: the value of the best call it
did not make less the call it made) came nearest to the other choice, the hands a
better threshold would move first; ``whole auction`` over the deals whose whole
auction is ``--auction``.  Paired deals: the same cards, one call changed.  A
measurement: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime import stats  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import AUCTION, HandState  # noqa: E402

_PASSED = re.compile(r"is worth ([-+][0-9.]+) against ([-+][0-9.]+)")
_BID = re.compile(r"worth ([-+][0-9.]+) against ([-+][0-9.]+) for passing")


def own_margin(reason: str) -> float | None:
    """The bot's own value of the call it did not make less the one it made, from its
    one-line reason (at most 0; the nearer 0, the closer the call), or None if it gives none."""
    m = _PASSED.search(reason)
    if m:
        return float(m.group(1)) - float(m.group(2))
    m = _BID.search(reason)
    if m:
        return float(m.group(2)) - float(m.group(1))
    return None


def _fresh(rules, dealer: int, hands, kitty) -> HandState:
    return HandState(rules, dealer, [list(h) for h in hands], list(kitty))


def _bots(rules, bot: str, seed: int, index: int) -> list:
    """Fresh bots for one playout (the same seeds for every playout of a deal)."""
    return [make_bot(bot, random.Random(f"decision_points:{seed}:{index}:{s}")) for s in range(rules.players)]


def _margin(rules, state: HandState, seat: int) -> int:
    """``seat``'s side's score minus the best other side's."""
    side = rules.side_of[seat]
    score = state.score or [0] * rules.sides
    return score[side] - max(score[s] for s in range(rules.sides) if s != side)


def playout(rules, bot: str, seed: int, index: int, hands, kitty, calls: list[int]) -> HandState:
    """The hand after ``calls`` (from the dealer's left), the bots playing the rest."""
    state = _fresh(rules, index % rules.players, hands, kitty)
    bots = _bots(rules, bot, seed, index)
    for c in calls:
        bots[state.current_player()].choose(state)  # the bot sees the call it does not make, as in play
        state.apply_action(c)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state))
    return state


def one_deal(job: tuple) -> tuple[bool, list[tuple[int, int, int, float | None]]]:
    """One deal: whether the bots' auction is the target, and per reached call ``k`` of
    the target each other call's gain ``(k, call, gain, the bot's own margin)``."""
    variant, bot, seed, index, target, alternatives = job
    rules = load_ruleset(variant)
    hands, kitty = deal(rules, random.Random(f"decision_points:{seed}:{index}"))
    base = playout(rules, bot, seed, index, hands, kitty, [])
    calls = [a for _, a in base.calls]
    reached = 0
    while reached < min(len(calls), len(target)) and calls[reached] == target[reached]:
        reached += 1
    out = []
    for k in range(reached):
        state = _fresh(rules, index % rules.players, hands, kitty)
        bots = _bots(rules, bot, seed, index)
        for c in calls[:k]:
            bots[state.current_player()].choose(state)
            state.apply_action(c)
        assert state.phase == AUCTION
        seat = state.current_player()
        explain = getattr(bots[seat], "explain", None)
        margin = own_margin(explain(state)[1]) if explain else None
        legal = state.legal_actions()
        bids = [a for a in legal if a not in (rules.pass_action, rules.take_action)][:alternatives]
        others = [a for a in (rules.pass_action, rules.take_action) if a in legal] + bids
        own = _margin(rules, base, seat)
        for alt in others:
            if alt == calls[k]:
                continue
            alt_state = playout(rules, bot, seed, index, hands, kitty, calls[:k] + [alt])
            out.append((k, alt, _margin(rules, alt_state, seat) - own, margin))
    return calls == target, out


def _ci(xs: list[int]) -> str:
    """The mean of ``xs`` with its 95% interval (:func:`runtime.stats.mean_interval`), as a cell."""
    interval = stats.mean_interval(xs)
    if interval.low is None or interval.high is None:
        return f"{'n/a':>22s}"
    return f"{interval.value:+.3f} ({interval.low:+.3f} .. {interval.high:+.3f})"


def main(argv=None) -> None:
    """Measure and print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="hawaii")
    p.add_argument("--auction", required=True, help="the calls from the dealer's left, comma-separated")
    p.add_argument("--deals", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default="heuristic")
    p.add_argument("--alternatives", type=int, default=2, help="how many of the lowest legal bids to try")
    p.add_argument("--workers", type=int, default=1)
    a = p.parse_args(argv)
    rules = load_ruleset(a.variant)
    names = [n.strip() for n in a.auction.split(",")]
    unknown = [n for n in names if n not in rules.action_names]
    if unknown:
        p.error(f"--auction: {unknown[0]!r} is no call of {a.variant}")
    target = [rules.action_names.index(n) for n in names]
    jobs = [(a.variant, a.bots, a.seed, i, target, a.alternatives) for i in range(a.deals)]
    if a.workers > 1:
        with Pool(a.workers) as pool:
            results = pool.map(one_deal, jobs, chunksize=max(1, a.deals // (a.workers * 8)))
    else:
        results = [one_deal(j) for j in jobs]
    whole = sum(1 for full, _ in results if full)
    print(f"{a.variant}: {a.deals} deals, seed {a.seed}, bots {a.bots}; the auction "
          f"{' / '.join(rules.action_names[c] for c in target)!r} in {whole} ({100 * whole / a.deals:.1f}%)")
    print("gain = the acting side's score minus the other side's with the other call, less with the bots' call")
    print(f"{'call':>4s} {'bots call':>10s} {'instead':>8s} {'deals':>6s} {'gain a hand (95% CI)':>26s} "
          f"{'better':>7s} {'worse':>6s}  {'closest quarter: deals, gain':>33s}  "
          f"{'whole auction: deals, gain':>33s}")
    for k, call in enumerate(target):
        rows: dict[int, list[tuple[bool, int, float | None]]] = {}
        for full, out in results:
            for kk, alt, gain, margin in out:
                if kk == k:
                    rows.setdefault(alt, []).append((full, gain, margin))
        for alt, xs in sorted(rows.items()):
            gains = [g for _, g, _ in xs]
            full = [g for f, g, _ in xs if f]
            said = sorted((m, g) for _, g, m in xs if m is not None)
            close = [g for _, g in said[len(said) - len(said) // 4:]] if len(said) >= 8 else []
            print(f"{k + 1:>4d} {rules.action_names[call]:>10s} {rules.action_names[alt]:>8s} {len(gains):6d} "
                  f"{_ci(gains):>26s} {sum(g > 0 for g in gains):7d} {sum(g < 0 for g in gains):6d}  "
                  f"{len(close):6d} {_ci(close):>26s}  {len(full):6d} {_ci(full):>26s}")


if __name__ == "__main__":
    main()

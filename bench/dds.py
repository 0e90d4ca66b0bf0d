"""Double-dummy solve times: our solver (runtime/solver/) next to DDS on the same deals.

Run from the repository root: ``python bench/dds.py [--deals N] [--standard M] [--seed S] [--nodes K]``.

1. N random 52-card deals (13 cards each, no kitty, uptown), each with a random
   declarer and strain (notrump or a trump suit): one full 13-trick solve from the
   start of play by our solver and by DDS (the ``endplay`` package), deal by deal
   in the same run, so load on the machine affects both alike.  Their trick counts
   must agree; the median and worst CPU time of each and the ratios are printed,
   and the time of ``DoubleDummy(backend="dds")`` (DDS where it applies, see
   runtime/solver/double_dummy.py BACKENDS) on the same deal, reported apart (``--no-backend``
   skips it).
   With numba installed (the ``fast`` extra), ``DoubleDummy(backend="fast")`` (the same
   search compiled, runtime/solver_fast.py) is timed on the same deals too, and its
   ratio to DDS printed beside ours; its first use (import, and compilation on a
   machine that has not cached it yet) is timed apart, before the deals
   (``--no-fast`` skips it).
2. M whole hands of the 54-card game (12 tricks after the kitty, jokers in play),
   each with a random declarer, contract and trump, the declarer laying away its
   six weakest cards: our solver from the first card (DDS cannot play jokers), and
   backend "dds" (ours until the position fits DDS: rarely at the first card).

:func:`measure` returns every figure; :func:`rows` the issue's two double-dummy rows.

Each deal gets a fresh solver (no transposition table carried over).  This is a
measurement, not a test: it asserts nothing, but reports any disagreement.

With ``--nodes K``, the first K deals are solved once more to count nodes (cards
tried) on both sides, which splits the time ratio into "more nodes" and "dearer
nodes": DDS reports its own count; ours is counted by the profiler (calls of the
search's lead and follow functions), outside the timed runs.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import shlex
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from endplay.dds import solve_board  # noqa: E402
from endplay.dds.solve import SolveMode  # noqa: E402
from endplay.types import Deal, Denom, Player  # noqa: E402

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, DISCARD, PLAY, HandState  # noqa: E402
from runtime.notation import pbn_deal  # noqa: E402
from runtime.solver import DoubleDummy  # noqa: E402

NO_KITTY_52 = "cincinnati"  # 52 cards, 13 each, no kitty: the deals DDS can play
WITH_JOKERS = "standard"    # 54 cards, 12 each and a kitty of 6


def to_play(rules, hands, kitty, dealer: int, declarer: int, strain: str, trump, direction: str) -> HandState:
    """A hand driven through the public API to its first card (declarer bids ``strain``, the others pass)."""
    state = HandState(rules, dealer, hands, kitty)
    while state.phase == AUCTION:
        if state.current_player() == declarer and state.high_bid < 0:
            state.apply_action(next(
                a for a in state.legal_actions() if rules.first_bid_action <= a < rules.first_trump_action
                and rules.strains[rules.bids[a - rules.first_bid_action].strain].name == strain))
        else:
            state.apply_action(rules.pass_action)
    while state.phase != PLAY:
        if state.phase == DECLARE_TRUMP:
            state.apply_action(rules.no_trump_action if trump is None else rules.first_trump_action + trump)
        elif state.phase == DECLARE_DIRECTION:
            state.apply_action(rules.first_direction_action + rules.order_aliases[direction])
        elif state.phase == DISCARD:
            state.apply_action(weakest(state))
    return state


def weakest(state: HandState) -> int:
    """The declarer's weakest card: a non-trump of least power (a plain discard policy)."""
    table = state.rules.tables[(state.trump, state.direction)]
    return min(state.hands[state.seat], key=lambda c: (table.suit_of[c] == table.trump, table.power[c]))


def dds_tricks(rules, state: HandState) -> int:
    """The tricks DDS gives the side on lead from ``state`` (a 52-card position)."""
    d = Deal(pbn_deal(rules, state.hands))
    d.first = Player(state.seat)
    d.trump = Denom.nt if state.trump < 0 else Denom(state.trump)
    return max(score for _, score in solve_board(d, SolveMode.OptimalOne))


def dds_nodes(rules, state: HandState) -> int:
    """DDS's node count for a full solve (endplay's low-level binding: solve_board does not report it)."""
    from endplay import _dds

    d = _dds.deal()
    d.trump = 4 if state.trump < 0 else state.trump  # DDS: 0-3 spades..clubs, 4 notrump
    d.first = state.seat
    for seat, hand in enumerate(state.hands):
        for card in hand:
            name = rules.cards[card]
            d.remainCards[seat]["SHDC".index(name[1])] |= 1 << ("23456789TJQKA".index(name[0]) + 2)
    result = _dds.futureTricks()
    # DDS keeps its table when the deal it is given is the one it solved last, and then
    # counts only a few nodes: another deal first (the hands passed round) makes it start afresh.
    other = _dds.deal()
    other.trump, other.first = d.trump, d.first
    for seat in range(4):
        for suit in range(4):
            other.remainCards[seat][suit] = d.remainCards[(seat + 1) % 4][suit]
    _dds.SolveBoard(other, -1, 1, 0, result, 0)
    _dds.SolveBoard(d, -1, 1, 0, result, 0)
    return result.nodes


def our_nodes(state: HandState) -> int:
    """Our solver's node count for a full solve: calls of its lead and follow functions."""
    profile = cProfile.Profile()
    profile.enable()
    DoubleDummy().solve(state)
    profile.disable()
    return sum(row[1] for (path, _, name), row in pstats.Stats(profile).stats.items()
               if path.replace("\\", "/").endswith("solver/search.py")
               and name in ("lead", "follow", "follow_last"))


def fast_nodes(state: HandState) -> int:
    """Backend "fast"'s node count for a full solve (the kernel counts its lead and follow calls)."""
    dd = DoubleDummy(backend="fast")
    dd.solve(state)
    return sum(e.kernel.nodes for e in dd._engines.values() if e.kernel is not None)


def load() -> str:
    """The machine's load averages, for the report."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"


def timed(fn):
    """``fn()`` and the CPU time it took (this process, all threads: DDS's too)."""
    start = time.process_time()
    value = fn()
    return value, time.process_time() - start


def summary(name: str, times: list[float]) -> str:
    """One report line: the median and worst of ``times``."""
    return f"{name:<28} median {statistics.median(times) * 1000:10.1f} ms   worst {max(times) * 1000:10.1f} ms"


def fast_warmup() -> float | None:
    """Seconds (wall clock) of the compiled search's first use: numba's import, and its
    compilation where the machine has no cached copy; None without numba."""
    from runtime import solver_fast

    if not solver_fast.available():
        return None
    rules = load_ruleset(NO_KITTY_52)
    rng = random.Random("warm-up")
    hands, kitty = deal(rules, rng)
    state = to_play(rules, hands, kitty, 0, 1, "uptown", 0, "uptown")
    start = time.perf_counter()
    DoubleDummy(backend="fast").solve(state)
    return time.perf_counter() - start


def measure(deals: int = 100, standard: int = 20, seed: int = 1, nodes: int = 0, backend: bool = True,
            log=None, fast: bool = True) -> dict:
    """Run the measurements and return their figures (times in seconds).

    Keys: ``ours``, ``dds``, ``ratios`` (per 52-card deal), ``dds_backend`` (our
    DoubleDummy with backend "dds" on the same deals, if ``backend``),
    ``disagreements`` (deal, ours, DDS's, PBN), ``median_ratio`` (median of per-deal
    ratios), ``nodes`` (ours, DDS's, their times) when ``nodes``; ``standard`` and
    ``standard_backend`` (whole 54-card hands from the first card); with ``fast``
    and numba installed ``fast_warmup`` (seconds of its first use), ``fast``,
    ``fast_ratios``, ``fast_median_ratio`` and ``standard_fast`` (backend "fast");
    each line of progress goes to ``log`` (a file) when given.
    """
    warm = fast_warmup() if fast else None
    rules = load_ruleset(NO_KITTY_52)
    rng = random.Random(seed)
    out: dict = {"ours": [], "dds": [], "ratios": [], "dds_backend": [], "disagreements": [],
                 "standard": [], "standard_backend": [], "fast": [], "fast_ratios": [], "standard_fast": [],
                 "fast_warmup": warm}
    counted = []
    for i in range(deals):
        hands, kitty = deal(rules, rng)
        declarer = rng.randrange(4)
        trump = rng.choice([None, 0, 1, 2, 3])
        state = to_play(rules, hands, kitty, (declarer + 3) % 4, declarer,
                        "notrump" if trump is None else "uptown", trump, "uptown")
        mine, t_ours = timed(lambda state=state: DoubleDummy().solve(state))
        ref, t_dds = timed(lambda state=state: dds_tricks(rules, state))
        out["ours"].append(t_ours)
        out["dds"].append(t_dds)
        out["ratios"].append(t_ours / t_dds)
        line = ""
        if backend:
            via, t_via = timed(lambda state=state: DoubleDummy(backend="dds").solve(state))
            out["dds_backend"].append(t_via)
            line = f"  backend dds {t_via * 1000:7.1f} ms"
            if via != ref:
                out["disagreements"].append((i, via, ref, "backend dds: " + pbn_deal(rules, state.hands)))
        if warm is not None:
            quick, t_fast = timed(lambda state=state: DoubleDummy(backend="fast").solve(state))
            out["fast"].append(t_fast)
            out["fast_ratios"].append(t_fast / t_dds)
            line += f"  fast {t_fast * 1000:7.1f} ms"
            if quick != ref:
                out["disagreements"].append((i, quick, ref, "backend fast: " + pbn_deal(rules, state.hands)))
        if i < nodes:
            counted.append((state, t_ours, t_dds))
        if mine != ref:
            out["disagreements"].append((i, mine, ref, pbn_deal(rules, state.hands)))
        if log:
            print(f"  deal {i:3d}: {'NT' if trump is None else 'SHDC'[trump]} by seat {declarer}: "
                  f"{mine:2d} tricks ({ref:2d} DDS)  ours {t_ours * 1000:9.1f} ms  DDS {t_dds * 1000:7.1f} ms"
                  + line, file=log, flush=True)
    if out["ratios"]:
        out["median_ratio"] = statistics.median(out["ratios"])
    if out["fast_ratios"]:
        out["fast_median_ratio"] = statistics.median(out["fast_ratios"])
    if counted and warm is not None:
        out["fast_nodes"] = sum(fast_nodes(state) for state, _, _ in counted)
    if counted:
        out["nodes"] = (sum(our_nodes(state) for state, _, _ in counted),
                        sum(dds_nodes(rules, state) for state, _, _ in counted),
                        sum(c[1] for c in counted), sum(c[2] for c in counted), len(counted))
    if standard:
        rules = load_ruleset(WITH_JOKERS)
        for i in range(standard):
            hands, kitty = deal(rules, rng)
            declarer = rng.randrange(4)
            strain = rng.choice(["uptown", "downtown", "notrump"])
            trump = None if strain == "notrump" else rng.randrange(4)
            state = to_play(rules, hands, kitty, (declarer + 3) % 4, declarer, strain, trump,
                            rng.choice(["uptown", "downtown"]))
            books, t = timed(lambda state=state: DoubleDummy().solve(state))
            out["standard"].append(t)
            line = ""
            if backend:
                via, t_via = timed(lambda state=state: DoubleDummy(backend="dds").solve(state))
                out["standard_backend"].append(t_via)
                line = f"  backend dds {t_via * 1000:9.1f} ms"
                if via != books:
                    out["disagreements"].append((f"standard {i}", via, books, "backend dds vs ours"))
            if warm is not None:
                quick, t_fast = timed(lambda state=state: DoubleDummy(backend="fast").solve(state))
                out["standard_fast"].append(t_fast)
                line += f"  fast {t_fast * 1000:9.1f} ms"
                if quick != books:
                    out["disagreements"].append((f"standard {i}", quick, books, "backend fast vs ours"))
            if log:
                print(f"  hand {i:3d}: {strain} by seat {declarer}: {books:2d} books  {t * 1000:9.1f} ms" + line,
                      file=log, flush=True)
    return out


def rows(deals: int = 30, standard: int = 10, seed: int = 1) -> dict:
    """The issue's double-dummy rows as numbers: the median of per-deal time ratios
    ours/DDS on 52-card deals, and the median and worst seconds of a whole standard
    hand from the first card (our own search, CPU time); the same for backend "fast"
    (keys ``dd_fast_...``, None without numba) and its first use (``dd_fast_warmup_s``)."""
    out = measure(deals, standard, seed, backend=False)
    return {"dd_ratio_vs_dds_median": out.get("median_ratio"),
            "dd_standard_median_s": statistics.median(out["standard"]) if out["standard"] else None,
            "dd_standard_worst_s": max(out["standard"]) if out["standard"] else None,
            "dd_fast_ratio_vs_dds_median": out.get("fast_median_ratio"),
            "dd_fast_standard_median_s": statistics.median(out["standard_fast"]) if out["standard_fast"] else None,
            "dd_fast_standard_worst_s": max(out["standard_fast"]) if out["standard_fast"] else None,
            "dd_fast_warmup_s": out["fast_warmup"]}


def main() -> None:
    """Measure and print (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="52-card deals solved by both (default 100)")
    parser.add_argument("--standard", type=int, default=20, help="whole 54-card hands solved by ours (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--nodes", type=int, default=0, metavar="K",
                        help="also count nodes on the first K deals, ours and DDS's (default 0)")
    parser.add_argument("--no-backend", action="store_true",
                        help="skip the runs of DoubleDummy(backend='dds') (DDS where it applies)")
    parser.add_argument("--no-fast", action="store_true",
                        help="skip the runs of DoubleDummy(backend='fast') (the search compiled by numba, "
                             "the 'fast' extra; skipped anyway without numba)")
    args = parser.parse_args()
    print("command: python " + " ".join(shlex.quote(a) for a in [sys.argv[0], *sys.argv[1:]]), flush=True)
    print(f"python {sys.version.split()[0]}, {args.deals} deals of {NO_KITTY_52!r} and "
          f"{args.standard} hands of {WITH_JOKERS!r}, seed {args.seed}", flush=True)
    print(f"load average at the start: {load()}  (on {os.cpu_count()} cores; timings are CPU time of "
          "this process, so load on the machine matters less; still compare the ratios)", flush=True)
    out = measure(args.deals, args.standard, args.seed, args.nodes, not args.no_backend, log=sys.stderr,
                  fast=not args.no_fast)
    if out["fast_warmup"] is not None:
        print(f"backend 'fast': first use (numba's import, compilation unless cached) {out['fast_warmup']:.1f} s "
              "wall clock")
    ours, theirs = out["ours"], out["dds"]
    if ours:
        print(f"\n52-card deals, one full 13-trick solve each ({len(ours)} deals)")
        print(summary("ours (pure Python)", ours))
        print(summary("DDS (endplay)", theirs))
        print(f"{'ratio ours/DDS':<28} median {statistics.median(ours) / statistics.median(theirs):10.1f} x"
              f"      worst {max(ours) / max(theirs):10.1f} x   (median of per-deal ratios "
              f"{out['median_ratio']:.1f} x)")
        if out["dds_backend"]:
            print(summary("backend 'dds' (DDS here)", out["dds_backend"]))
        if out["fast"]:
            print(summary("backend 'fast' (compiled)", out["fast"]))
            print(f"{'ratio fast/DDS':<28} median of per-deal ratios {out['fast_median_ratio']:.1f} x, "
                  f"worst {max(out['fast_ratios']):.1f} x")
    ndis = len(out["disagreements"])
    print(f"disagreements (ours or a backend vs DDS, a backend vs ours on standard hands): {ndis}")
    for i, mine, ref, text in out["disagreements"]:
        print(f"  DISAGREEMENT {i}: {mine} vs {ref}: {text}")
    if "nodes" in out:
        n_ours, n_dds, t_ours, t_dds, k = out["nodes"]
        print(f"nodes on the first {k} deals: ours {n_ours:,}, DDS {n_dds:,} "
              f"({n_ours / n_dds:.1f}x as many); time per node ours {t_ours / n_ours * 1e6:.2f} us, "
              f"DDS {t_dds / n_dds * 1e6:.3f} us ({t_ours / n_ours / (t_dds / n_dds):.0f}x dearer)")
        if "fast_nodes" in out:
            n_fast = out["fast_nodes"]
            t_fast = sum(out["fast"][:k])
            print(f"backend 'fast' on the same deals: {n_fast:,} nodes; time per node {t_fast / n_fast * 1e6:.3f} us "
                  f"({t_fast / n_fast / (t_dds / n_dds):.1f}x DDS's)")
    if out["standard"]:
        print(f"\nwhole {WITH_JOKERS} hands from the first card, 12 tricks with jokers ({len(out['standard'])} hands)")
        print(summary("ours (pure Python)", out["standard"]))
        if out["standard_backend"]:
            print(summary("backend 'dds' (ours + DDS)", out["standard_backend"]))
        if out["standard_fast"]:
            print(summary("backend 'fast' (compiled)", out["standard_fast"]))
    print(f"\nload average at the end: {load()}")


if __name__ == "__main__":
    main()

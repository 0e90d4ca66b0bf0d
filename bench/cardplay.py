"""How many books the declaring side's card play gives away against double dummy.

Run from the repository root::

    python bench/cardplay.py [--variants standard,standard+no-jokers] [--hands N]
                             [--decl BOT] [--defence BOT] [--bid-bot BOT] [--seed S] [--workers W]

Each hand is dealt from its own seed; ``--bid-bot`` (default ``heuristic``) makes every
call, the kitty and the discards in all seats, so every play bot starts from the same
position: the first card after the kitty.  From there the declaring side's seats play
with ``--decl`` and the others with ``--defence`` (both ``heuristic`` by default: the
issue's figure), and the declaring side's final books are compared with the double
dummy result of that position (runtime/solver/, from the first card, both sides
perfect).  The gap is books taken minus double-dummy books: negative when the play
gave books away on balance (the declaring side's mistakes less the defenders').
Mixing bots splits the two: ``--decl heuristic --defence baseline`` against
``--decl baseline --defence baseline`` shows what a new declarer play gains.

``--against BOT`` plays each hand a second time with BOT declaring (the same
defence) and reports the paired difference in books, far tighter than the two gaps;
with ``--no-dd`` nothing is solved, so it runs on thousands of hands.

Reported per variant: the mean gap with a 95% normal interval, split by the table's
strain (notrump or a trump suit), and the share of contracts made.

Double dummy is slow (about 1.6 s a hand from the first card), so results are kept
in a cache file (``--cache``, default ``bench/.cardplay-dd.json``) keyed by the
position itself: another run from the same positions (other play bots) solves
nothing again.  This is a measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
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
from runtime.bots import make_bot  # noqa: E402
from runtime.game import deal  # noqa: E402
from runtime.hand import PLAY, HandState  # noqa: E402
from runtime.ruleset import NO_TRUMP  # noqa: E402
from runtime.solver import DoubleDummy  # noqa: E402

Z95 = 1.959964


def mean_ci(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval."""
    if not values:
        return float("nan"), float("inf")
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("inf")
    return m, Z95 * statistics.stdev(values) / math.sqrt(len(values))


def position_key(variant: str, state: HandState) -> str:
    """A digest of the position at the first card: hands, leader, contract, discards' book."""
    text = repr((variant, [sorted(h) for h in state.hands], state.seat, state.declarer, state.trump,
                 state.direction, state.books_so_far(), state.discards_book_pending()))
    return hashlib.sha1(text.encode()).hexdigest()


def to_first_card(variant: str, seed: int, index: int, bid_bot: str):
    """The hand dealt for ``index`` driven by ``bid_bot`` to its first card, or None if it has no play."""
    rules = load_ruleset(variant)
    hands, kitty = deal(rules, random.Random(f"cardplay:{seed}:{index}"))
    state = HandState(rules, index % rules.players, [list(h) for h in hands], list(kitty))
    bots = [make_bot(bid_bot, random.Random(f"{seed}:{index}:{s}")) for s in range(rules.players)]
    while not state.is_terminal() and not (state.phase == PLAY and state.table is not None):
        state.apply_action(bots[state.current_player()].choose(state))
    return None if state.is_terminal() else state


def play_out(state: HandState, decl: str, defence: str, seed: int, index: int) -> HandState:
    """Play ``state`` to the end: ``decl`` bots for the declaring side, ``defence`` for the others."""
    rules = state.rules
    side = rules.side_of[state.declarer]
    bots = [make_bot(decl if rules.side_of[s] == side else defence, random.Random(f"{seed}:{index}:p{s}"))
            for s in range(rules.players)]
    state = state.clone()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].choose(state))
    return state


def one_hand(job: tuple):
    """(key, strain word, dd books or None, books taken, made) of one hand; None if it was not played."""
    variant, seed, index, bid_bot, decl, defence, against, solve, cached = job
    state = to_first_card(variant, seed, index, bid_bot)
    if state is None:
        return None
    key = position_key(variant, state)
    side = state.rules.side_of[state.declarer]
    dd = cached.get(key)
    if dd is None and solve:
        dd = state.books_so_far()[side] + DoubleDummy().solve(state)
    end = play_out(state, decl, defence, seed, index)
    strain = "notrump" if state.trump == NO_TRUMP else "trump"
    other = play_out(state, against, defence, seed, index).books[side] if against else None
    return key, strain, dd, end.books[side], bool(end.made), other


def run(variant: str, args, cache: dict) -> None:
    """Measure one variant and print its figures."""
    start = time.perf_counter()
    jobs = [(variant, args.seed, i, args.bid_bot, args.decl, args.defence, args.against, not args.no_dd, cache)
            for i in range(args.hands)]
    if args.workers > 1:
        with Pool(args.workers) as pool:
            results = pool.map(one_hand, jobs, chunksize=1)
    else:
        results = [one_hand(j) for j in jobs]
    gaps: dict[str, list[float]] = {"all": [], "trump": [], "notrump": []}
    made = 0
    paired: dict[str, list[float]] = {"all": [], "trump": [], "notrump": []}
    for r in results:
        if r is None:
            continue
        key, strain, dd, books, ok, other = r
        if other is not None:
            paired["all"].append(books - other)
            paired[strain].append(books - other)
        if dd is not None:
            cache[key] = dd
            gaps["all"].append(books - dd)
            gaps[strain].append(books - dd)
        made += ok
    n = sum(r is not None for r in results)
    print(f"{variant}: declaring side {args.decl}, defence {args.defence}, bidding {args.bid_bot}; "
          f"{n} played hands of {args.hands}, {time.perf_counter() - start:.0f} s")
    for name, values in gaps.items() if not args.no_dd else ():
        m, h = mean_ci(values)
        print(f"  {name:<8} books - double dummy: {m:+.2f}  (95% CI {m - h:+.2f} .. {m + h:+.2f}; "
              f"{len(values)} hands)")
    if n:
        print(f"  contracts made: {made / n:.1%}")
    if args.against:
        for name, values in paired.items():
            m, h = mean_ci(values)
            print(f"  {name:<8} books, {args.decl} - {args.against} declaring (same hands): {m:+.2f}  "
                  f"(95% CI {m - h:+.2f} .. {m + h:+.2f})")


def main() -> None:
    """Parse the options and measure each variant."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="standard,standard+no-jokers",
                        help="comma list of variants (default standard,standard+no-jokers)")
    parser.add_argument("--hands", type=int, default=150, help="hands dealt per variant (default 150)")
    parser.add_argument("--decl", default="heuristic", help="the declaring side's play bot (default heuristic)")
    parser.add_argument("--defence", default="heuristic", help="the defenders' play bot (default heuristic)")
    parser.add_argument("--against", default="",
                        help="also play each hand with this bot declaring: the paired difference in books")
    parser.add_argument("--no-dd", action="store_true",
                        help="skip double dummy (for --against on many hands: only the paired difference)")
    parser.add_argument("--bid-bot", default="heuristic",
                        help="the bot that bids, takes the kitty and discards in every seat (default heuristic)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--cache", default=str(ROOT / "bench" / ".cardplay-dd.json"),
                        help="file of double-dummy results by position ('' for none)")
    args = parser.parse_args()
    cache: dict = {}
    path = Path(args.cache) if args.cache else None
    if path and path.exists():
        cache = json.loads(path.read_text())
    print(f"command: python bench/cardplay.py {' '.join(sys.argv[1:])}")
    try:
        for variant in args.variants.split(","):
            run(variant, args, cache)
    finally:
        if path:
            path.write_text(json.dumps(cache))


if __name__ == "__main__":
    main()

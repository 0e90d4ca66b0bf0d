"""How realistic a bot's auctions are: contract shares, made rate, and overbids against double dummy.

Run from the repository root::

    python bench/realism.py [--variant standard] [--bots heuristic] [--hands 4000]
                            [--dd 150] [--seed 1] [--backend own|fast|dds] [--dump FILE]

Every seat plays ``--bots``.  Over ``--hands`` hands (dealt as ``bidwhist simulate``
deals them for the seed) it reports the notrump share of contracts, the made rate and
the share of each bid level.  The first ``--dd`` of those hands are also solved double
dummy (runtime/solver/) from the first card of the play, after the declarer's own
discards: an *overbid* is a contract the declaring side cannot make even with perfect
play by everyone, and "books minus double dummy" is what the bots' card play gives
away as declarer (negative: the declaring side took fewer books than double dummy).
The solver takes a second or two a hand, so ``--dd`` is kept small (``--backend fast``,
the same search compiled by numba where the ``fast`` extra is installed, gives the same
answers several times faster, after a minute of compiling on its first use); its answers are
kept in a cache file (``--cache``, default ``bench/.realism-dd.json``) keyed by the
position itself, so a run after a change of the card play (the same positions at the
first card) solves nothing again.

``--dump FILE`` writes one JSON line per solved contract (the auction with each call's
reason as the bot explains it, the contract, its needs, the books taken and double
dummy's), for classifying the overbids (bench/overbids.py reads it).

Proportions carry Wilson 95% intervals and means normal 95% intervals.  This is a
measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.bots.knowledge import rules_info  # noqa: E402
from runtime.game import deal, first_dealer, next_dealer  # noqa: E402
from runtime.hand import AUCTION, PLAY, HandState  # noqa: E402
from runtime.simulate import hand_rng  # noqa: E402
from runtime.solver import DoubleDummy  # noqa: E402

Z95 = 1.959964


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of the proportion ``k / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    z = Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def share(k: int, n: int) -> str:
    """``k / n`` as a percentage with its interval."""
    lo, hi = wilson(k, n)
    return f"{100 * k / max(n, 1):5.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%, {k}/{n})"


def play(rules, seed: int, index: int, bot: str, reasons: list | None = None):
    """Hand ``index`` as ``bidwhist simulate`` deals it, played by ``bot`` in every seat.

    Returns the finished hand and a copy of it at the first card of the play (None
    if the hand never reached the play).  ``reasons``: filled with (seat, call, the
    bot's reason) for every call of the auction (the bot's ``explain``, which decides
    as ``choose`` does).
    """
    first = first_dealer(rules, __import__("random").Random(f"bidwhist:{seed}:dealer"))
    rng = hand_rng(seed, index)
    hands, kitty = deal(rules, rng)
    state = HandState(rules, next_dealer(rules, first, index), hands, kitty)
    player = make_bot(bot, rng)
    at_play = None
    while not state.is_terminal():
        if at_play is None and state.phase == PLAY and state.table is not None and not state.tricks \
                and not state.trick:
            at_play = state.clone()
        if reasons is not None and state.phase == AUCTION and hasattr(player, "explain"):
            action, why = player.explain(state)
            reasons.append((state.seat, call_text(state.rules, action), why))
        else:
            action = player.choose(state)
        state.apply_action(action)
    return state, at_play


def call_text(rules, action: int) -> str:
    """A call in words: a bid's text, or pass, take, redeal."""
    b = action - rules.first_bid_action
    if 0 <= b < len(rules.bids):
        return rules.bids[b].text
    words = {rules.pass_action: "pass", rules.take_action: "take", rules.redeal_action: "redeal"}
    return words.get(action, str(action))


def position_key(variant: str, state: HandState) -> str:
    """A digest of the position at the first card: hands, leader, contract, discards' book."""
    text = repr((variant, [sorted(h) for h in state.hands], state.seat, state.declarer, state.trump,
                 state.direction, state.books_so_far(), state.discards_book_pending()))
    return hashlib.sha1(text.encode()).hexdigest()


def dd_books(solver: DoubleDummy, at_play: HandState, cache: dict | None = None,
             key: str = "") -> tuple[int, bool]:
    """(the declaring side's books with perfect play from ``at_play``, whether that makes the contract).

    ``cache``: position key -> books, read and filled (``key`` is the position's).
    """
    side = at_play.rules.side_of[at_play.declarer]
    books = cache.get(key) if cache is not None else None
    if books is None:
        books = at_play.books_so_far()[side] + solver.solve(at_play)
        if cache is not None:
            cache[key] = books
    scratch = at_play.clone()
    total = [0] * at_play.rules.sides
    total[side] = books
    scratch.score_books(total)  # the variant's own test of "made", through the engine
    return books, bool(scratch.made)


def main() -> None:
    """Play the hands, solve the first few double dummy, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard", help="variant (default standard)")
    parser.add_argument("--bots", default="heuristic", help="bot in every seat (default heuristic)")
    parser.add_argument("--hands", type=int, default=4000, help="hands for the shares (default 4000)")
    parser.add_argument("--dd", type=int, default=150, help="of those, hands solved double dummy (default 150)")
    parser.add_argument("--seed", type=int, default=1, help="seed, as simulate's (default 1)")
    parser.add_argument("--backend", default="own", help="double-dummy search: own (default), fast, dds")
    parser.add_argument("--dump", default="", help="write each solved contract as a JSON line to this file")
    parser.add_argument("--cache", default=str(ROOT / "bench" / ".realism-dd.json"),
                        help="file of double-dummy results by position ('' for none)")
    args = parser.parse_args()
    path = Path(args.cache) if args.cache else None
    cache: dict | None = json.loads(path.read_text()) if path and path.exists() else ({} if path else None)
    rules = load_ruleset(args.variant)
    solver = DoubleDummy(backend=args.backend)
    dump = open(args.dump, "w") if args.dump else None
    contracts = notrump = made = 0
    levels: Counter = Counter()
    over = solved = 0
    given: list[int] = []
    start = time.perf_counter()
    for i in range(args.hands):
        reasons: list | None = [] if dump is not None and i < args.dd else None
        state, at_play = play(rules, args.seed, i, args.bots, reasons)
        if state.declarer < 0 or state.made is None:
            continue
        contracts += 1
        notrump += state.trump < 0
        made += bool(state.made)
        levels[rules.bids[state.bid].text.split()[0]] += 1
        if i < args.dd and at_play is not None:
            books, makeable = dd_books(solver, at_play, cache, position_key(args.variant, at_play))
            if path and cache is not None and solved % 10 == 0:
                path.write_text(json.dumps(cache))
            solved += 1
            over += not makeable
            given.append(state.books[rules.side_of[state.declarer]] - books)
            if dump is not None:
                side = rules.side_of[state.declarer]
                dealt = state.dealt
                dump.write(json.dumps({
                    "hand": i, "declarer": state.declarer, "bid": rules.bids[state.bid].text,
                    "trump": state.trump, "dd": books,
                    "needed": rules_info(rules).needed[state.bid][int(state.trump < 0)], "books": state.books[side],
                    "made": bool(state.made), "makeable": makeable,
                    "calls": [[seat, call, why] for seat, call, why in reasons or []],
                    "hands": [[rules.cards[c] for c in sorted(h)] for h in dealt],
                    "side_of": list(rules.side_of), "dealer": state.dealer,
                    "kitty": [rules.cards[c] for c in sorted(deal(rules, hand_rng(args.seed, i))[1])],
                    "discards": [rules.cards[c] for c in sorted(state.discards)],
                }) + "\n")
    if path and cache is not None:
        path.write_text(json.dumps(cache))
    if dump is not None:
        dump.close()
    print(f"command: python bench/realism.py {' '.join(sys.argv[1:])}")
    print(f"{args.variant}: {args.bots} in every seat, {args.hands} hands (seed {args.seed}), "
          f"{time.perf_counter() - start:.0f} s")
    print(f"  contracts        {contracts}")
    print(f"  notrump          {share(notrump, contracts)}")
    print(f"  made             {share(made, contracts)}")
    for level in sorted(levels, key=lambda x: (len(x), x)):
        print(f"  level {level:<10} {share(levels[level], contracts)}")
    if solved:
        print(f"  double dummy, first {args.dd} hands ({solved} contracts):")
        print(f"  overbids         {share(over, solved)}  (not makeable double dummy)")
        m = statistics.fmean(given)
        half = Z95 * statistics.stdev(given) / math.sqrt(len(given)) if len(given) > 1 else float("inf")
        print(f"  declaring side's books minus double dummy {m:+.2f} (95% CI {m - half:+.2f} .. {m + half:+.2f})")


if __name__ == "__main__":
    main()

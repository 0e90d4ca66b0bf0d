"""Does every variant bid its cards?  The shape of the bots' auctions per variant.

Run from the repository root::

    python bench/auctions.py [--variants all|V1,V2] [--hands N] [--seed S] [--bots KIND] [--top K]

Default: every shipped variant and ``standard+min-bid-4``, 2,000 hands each, the
``heuristic`` bot in every seat.  Hands are dealt as ``bidwhist simulate --hands``
deals them (:func:`runtime.simulate.play_hand`: hand ``i`` from its own seed, the
dealer rotating).  Reported per variant:

* ``top auction``: the share of hands whose calls (in words, e.g. ``1 / 2 / 3 / take``)
  are the most common sequence, and that sequence — the issue's goal is at most 20%;
  with ``--top K``, the K most common auctions, each with its share's 95% (Wilson) interval;
* ``forced``: the share of hands won by a dealer who had to bid (every other seat had
  passed and the dealer could not) — the goal under ``min-bid-4`` is at most 25%;
* ``passed out``: the share of hands that ended without a contract (thrown in, redealt);
* ``notrump``: the share of contracts played without trumps; ``by seat``: the share of
  contracts won by the first, second, ... caller; and the contracts' levels.

A measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset, shipped_variants  # noqa: E402
from runtime.auction import auction_rules  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.game import deal, first_dealer, next_dealer  # noqa: E402
from runtime.hand import AUCTION, HandState  # noqa: E402
from runtime.ruleset import NO_TRUMP  # noqa: E402
from runtime import stats  # noqa: E402
from runtime.simulate import hand_rng  # noqa: E402

DEFAULT_EXTRA = ("standard+min-bid-4",)


def measure(variant: str, hands: int, seed: int, bot: str) -> dict:
    """Play ``hands`` hands of ``variant`` and count the auctions' shapes."""
    rules = load_ruleset(variant)
    first = first_dealer(rules, random.Random(f"bidwhist:{seed}:dealer"))
    auctions: Counter = Counter()
    forced = passed_out = contracts = notrump = 0
    by_caller: Counter = Counter()
    levels: Counter = Counter()
    strains: Counter = Counter()
    first_seat = auction_rules(rules).first_seat
    for i in range(hands):
        dealer = next_dealer(rules, first, i)
        rng = hand_rng(seed, i)
        cards, kitty = deal(rules, rng)
        state = HandState(rules, dealer, cards, kitty)
        player = make_bot(bot, rng)
        forced_bid = False
        while not state.is_terminal():
            action = player.choose(state)
            if state.phase == AUCTION and rules.pass_action not in state.legal_actions() \
                    and not any(s == state.seat for s, _ in state.calls) and all(
                        a == rules.pass_action for _, a in state.calls) and len(state.calls) == rules.players - 1:
                forced_bid = True  # everyone else passed and this seat may not
            state.apply_action(action)
        auctions[" / ".join(rules.action_names[a] for _, a in state.calls)] += 1
        if state.declarer < 0:
            passed_out += 1
            continue
        contracts += 1
        forced += forced_bid
        notrump += state.trump == NO_TRUMP
        by_caller[(state.declarer - first_seat(dealer)) % rules.players] += 1
        levels[rules.bids[state.bid].level] += 1
        strains[rules.strains[rules.bids[state.bid].strain].name] += 1
    top, top_n = auctions.most_common(1)[0]
    return {
        "variant": variant, "hands": hands, "top_auction": top, "top_share": top_n / hands,
        "auctions": auctions.most_common(),
        "distinct": len(auctions), "forced": forced / hands, "passed_out": passed_out / hands,
        "notrump": notrump / max(1, contracts),
        "by_caller": [by_caller[k] / max(1, contracts) for k in range(rules.players)],
        "levels": {k: levels[k] / max(1, contracts) for k in sorted(levels)},
        "strains": {k: v / max(1, contracts) for k, v in strains.most_common()},
    }


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``k`` of ``n`` (:func:`runtime.stats.wilson`'s
    bounds; 0 to 1 where there is no hand)."""
    interval = stats.wilson(k, n)
    if interval.low is None or interval.high is None:
        return 0.0, 1.0
    return interval.low, interval.high


def main(argv=None) -> None:
    """Parse the options, measure each variant and print one block per variant."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variants", default="all", help="all (shipped + standard+min-bid-4) or V1,V2,...")
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default="heuristic")
    p.add_argument("--top", type=int, default=0, help="also list the K most common auctions with intervals")
    a = p.parse_args(argv)
    names = (sorted(shipped_variants()) + list(DEFAULT_EXTRA)) if a.variants == "all" else a.variants.split(",")
    print(f"auctions: {a.hands} hands per variant, seed {a.seed}, bots {a.bots}")
    for name in names:
        r = measure(name, a.hands, a.seed, a.bots)
        pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
        print(f"{name:24s} top auction {pct(r['top_share']):>6s} ({r['top_auction']!r}; {r['distinct']} distinct)  "
              f"forced {pct(r['forced'])}  passed out {pct(r['passed_out'])}  notrump {pct(r['notrump'])}")
        print(f"{'':24s} won by caller " + " ".join(pct(x) for x in r["by_caller"])
              + "  levels " + " ".join(f"{k}:{pct(v)}" for k, v in r["levels"].items())
              + "  strains " + " ".join(f"{k}:{pct(v)}" for k, v in r["strains"].items()))
        for calls, n in r["auctions"][:a.top]:
            lo, hi = wilson(n, a.hands)
            print(f"{'':24s}   {pct(n / a.hands):>6s} ({pct(lo)}–{pct(hi)})  {calls}")


if __name__ == "__main__":
    main()

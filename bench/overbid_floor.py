"""How often would the bots' contracts fail double dummy given only the declarer's own cards?

Run from the repository root, on the file ``bench/realism.py --dump FILE`` writes::

    python bench/overbid_floor.py D.jsonl [--contracts 240] [--redeals 12] [--seed 5] [--tries 200] [--only KIND]

For ``--contracts`` contracts picked at random from the dump, the declarer keeps its
dealt hand and the other cards are dealt again at random ``--redeals`` times (the other
hands and the kitty); the same calls are replayed, the bot declares, takes the kitty
and discards as it would, and the position at the first card is solved double dummy
(the compiled search where the ``fast`` extra is installed).  A contract's *failure
chance* is the share of its redeals that cannot be made: what the declarer's cards
alone say of the contract (the calls' information about the other hands is not used:
the redeals ignore it).  With ``--tries N`` a redeal counts only where the bot, holding
each other seat's new cards, makes the calls that seat made (found by rejection, up to
N shuffles a redeal): what the declarer's cards and the auction say.  ``--only KIND``
keeps the contracts reached by one kind of call (``bench/overbids.py``'s classes:
open, over opponent, over partner, take, forced).  Printed: the mean failure chance against the overbids the
contracts really had, and, for a bidder that knew each failure chance exactly and
declared only the contracts at or under a threshold, the share kept and their overbids.

A measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.overbids import classify  # noqa: E402
from bench.realism import dd_books  # noqa: E402
from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.hand import PLAY, HandState  # noqa: E402
from runtime.solver import DoubleDummy  # noqa: E402


def failure_chance(rules, solver, row: dict, redeals: int, rng: random.Random, bot: str,
                   tries: int = 0) -> float | None:
    """The share of ``redeals`` deals keeping the declarer's hand whose contract fails double dummy.

    With ``tries`` > 0 a redeal counts only if the bot, holding each other seat's new
    cards, makes that seat's calls as they were made (deals consistent with the auction,
    by rejection: up to ``tries`` shuffles a redeal)."""
    cid = {rules.cards[c]: c for c in range(rules.n_cards)}
    actions = {b.text: rules.first_bid_action + i for i, b in enumerate(rules.bids)}
    actions.update({"pass": rules.pass_action, "take": rules.take_action, "redeal": rules.redeal_action})
    decl = row["declarer"]
    mine = [cid[c] for c in row["hands"][decl]]
    rest = [c for c in range(rules.n_cards) if c not in set(mine)]
    fails = solved = 0
    judge = make_bot(bot, random.Random(0))
    for _ in range(redeals):
        for _attempt in range(max(tries, 1)):
            rng.shuffle(rest)
            if not tries or _consistent(rules, row, decl, mine, rest, actions, judge):
                break
        else:
            continue  # no consistent deal found in the tries
        state = _redealt(rules, row, decl, mine, rest)
        try:
            for _seat, call, _why in row["calls"]:
                state.apply_action(actions[call])
        except (KeyError, ValueError):
            return None  # a call these cards do not allow (a redeal's condition, say)
        player = make_bot(bot, random.Random(0))
        while not state.is_terminal() and not (state.phase == PLAY and state.table is not None
                                               and not state.tricks and not state.trick):
            state.apply_action(player.choose(state))
        if state.is_terminal():
            continue
        _, makeable = dd_books(solver, state)
        fails += not makeable
        solved += 1
    return fails / solved if solved else None


def _redealt(rules, row: dict, decl: int, mine: list[int], rest: list[int]) -> HandState:
    """The hand before its auction: the declarer keeps ``mine``, the other seats and the kitty
    take ``rest`` in seat order."""
    hands, used = [], 0
    for seat in range(rules.players):
        if seat == decl:
            hands.append(list(mine))
        else:
            hands.append(rest[used:used + rules.hand_size])
            used += rules.hand_size
    return HandState(rules, row["dealer"], hands, rest[used:used + rules.kitty_size])


def _consistent(rules, row: dict, decl: int, mine: list[int], rest: list[int], actions: dict, judge) -> bool:
    """Whether the bot, given the other seats' cards of this redeal, calls as they called."""
    state = _redealt(rules, row, decl, mine, rest)
    try:
        for seat, call, _why in row["calls"]:
            action = actions[call]
            if seat != decl and judge.choose(state) != action:
                return False
            state.apply_action(action)
    except (KeyError, ValueError):
        return False
    return True


def main() -> None:
    """Pick the contracts, redeal, solve, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", help="the file bench/realism.py --dump wrote")
    parser.add_argument("--variant", default="standard", help="the dump's variant (default standard)")
    parser.add_argument("--bots", default="heuristic", help="the dump's bot (default heuristic)")
    parser.add_argument("--contracts", type=int, default=240, help="contracts to redeal (default 240)")
    parser.add_argument("--redeals", type=int, default=12, help="redeals a contract (default 12)")
    parser.add_argument("--tries", type=int, default=0,
                        help="keep only redeals where the other seats call as they did, up to this many "
                             "shuffles a redeal (default 0: any redeal)")
    parser.add_argument("--only", default="", help="only contracts reached by this kind of call (bench/overbids.py)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the pick and the redeals (default 5)")
    args = parser.parse_args()
    rows = [json.loads(line) for line in Path(args.dump).read_text().splitlines() if line.strip()]
    rules = load_ruleset(args.variant)
    solver = DoubleDummy(backend="fast")
    rng = random.Random(args.seed)
    out = []
    if args.only:
        rows = [r for r in rows if classify(r)[0] == args.only]
    for row in rng.sample(rows, min(args.contracts, len(rows))):
        p = failure_chance(rules, solver, row, args.redeals, rng, args.bots, args.tries)
        if p is not None:
            out.append((p, not row["makeable"], row["trump"] < 0))
    print(f"command: python bench/overbid_floor.py {' '.join(sys.argv[1:])}")
    print(f"{len(out)} contracts, {args.redeals} redeals each")
    for name, group in (("all", out), ("suit", [x for x in out if not x[2]]), ("notrump", [x for x in out if x[2]])):
        if group:
            chance = 100 * statistics.fmean(x[0] for x in group)
            print(f"  {name:<8} n={len(group):>4}  mean failure chance {chance:5.1f}%"
                  f"  overbids {100 * statistics.fmean(x[1] for x in group):5.1f}%")
    print("  declaring only the contracts whose failure chance is at most t:")
    for t in (0.0, 0.1, 0.2, 0.3, 0.5, 1.0):
        kept = [x for x in out if x[0] <= t + 1e-9]
        if kept:
            print(f"    t = {t:.1f}: kept {100 * len(kept) / len(out):5.1f}%, their overbids "
                  f"{100 * statistics.fmean(x[1] for x in kept):5.1f}%, mean failure chance "
                  f"{100 * statistics.fmean(x[0] for x in kept):5.1f}%")


if __name__ == "__main__":
    main()

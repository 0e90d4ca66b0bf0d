"""Where contracts fail in whole games: the make rate broken down by game position and call.

Run from the repository root::

    python bench/gamemade.py [--variant standard] [--games G] [--seed S] [--bots A] [--lone]
                             [--dump FILE] [--set MODULE.NAME=VALUE ...]

Plays ``G`` whole games as ``bidwhist simulate --games`` does (``runtime.simulate``'s
deals and first dealers; one bot of kind ``A`` in every seat, the game in view; with
``--lone`` the bots are blind to it and bid every hand as a hand alone).  For every
contract it notes the game position before the hand (each side's total, the declaring
side's lead), the contract (level, notrump or not), the auction (contested or not,
whether the declarer opened, overcalled, bid over partner or was forced), whether the
hand ended the game, and what decided the contract: the declaring side's last call is
asked again of the same kind of bot with the game hidden (``state.game = None``).
``hand`` when the blind bot calls the same, ``game`` when it would have passed (a bid
made for the game's sake: a sacrifice or a desperate bid), ``raised`` / ``lowered``
when it would have bid less or more, ``forced`` when the caller could not pass.
``expected``: the caller's own chance of making its contract, read from the books its
explanation names (``RulesInfo.made_row``).

For the ``game`` and ``raised`` calls the hand is also played on from that call with
the blind call instead (the rest of the hand and then the rest of the game by the same
game-aware bots, on the same later deals): whether the game would then have ended this
hand and for whom, and whether the declaring side wins the game in the end, as played
and with the blind call — a call made for the game is rational where it wins games
that passing loses, a flaw where it loses games that passing wins.

With the heuristic it also compares the auction model with play: for every bid, the
chance its model (``outbid.standing_values``) gives it of not being outbid by an
opponent still to speak, and how often it was not.

Printed: the make rate per group with 95% Wilson intervals, the games won over the
blind call with 95% normal intervals (paired per call).  ``--set`` changes a setting of
``runtime.bots`` for every bot, as gamerisk.py's.  A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import re
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.bots.heuristic import HeuristicBot  # noqa: E402
from runtime.bots.knowledge import rules_info  # noqa: E402
from runtime.game import GameTally, GameView, _copy_tally, deal, first_dealer  # noqa: E402
from runtime.hand import AUCTION, HandState  # noqa: E402
from runtime.ruleset import NO_TRUMP  # noqa: E402
from runtime import stats  # noqa: E402
from runtime.simulate import MAX_HANDS, deal_rng  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from gamerisk import parse_settings  # noqa: E402

def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion k/n (runtime.stats' own; 0..1 with no observations)."""
    interval = stats.wilson(k, n)
    return (0.0, 1.0) if interval.low is None else (interval.low, interval.high)


def is_bid(rules, action: int) -> bool:
    """Whether ``action`` is a bid of the ladder."""
    return rules.first_bid_action <= action < rules.first_bid_action + len(rules.bids)


def predicted(kind: str, before: HandState, action: int) -> float | None:
    """The caller's own chance of making the contract it calls (``action``, a bid or a take),
    from the books its explanation names (None where it names none)."""
    bot = make_bot(kind, None)
    if not hasattr(bot, "explain"):
        return None
    got, why = bot.explain(before)
    found = re.search(r"about (-?[0-9.]+) books expected (in notrump)?", why)
    if got != action or found is None:
        return None
    rules = before.rules
    info = rules_info(rules)
    info.ensure_util(before)
    bid = action - rules.first_bid_action if is_bid(rules, action) else before.high_bid
    return info.made_row(1 if found.group(2) else 0, float(found.group(1)))[bid]


def blind_call(kind: str, before: HandState) -> int:
    """What a bot of ``kind`` calls in ``before`` with the game hidden."""
    bot = make_bot(kind, None)
    view = before.game
    before.game = None
    try:
        return bot.choose(before)
    finally:
        before.game = view


def finish(kind: str, state: HandState) -> HandState:
    """Play ``state`` to its end with one game-aware bot of ``kind`` in every seat."""
    bot = make_bot(kind, None)
    while not state.is_terminal():
        state.apply_action(bot.choose(state))
    return state


def bucket(total: int, target: int) -> str:
    """A side's total before the hand, in words relative to the game's target."""
    if total <= -target // 2:
        return f"<={-target // 2}"
    if total <= 0:
        return f"{-target // 2 + 1}..0"
    if total < (target + 1) // 2:
        return f"1..{(target + 1) // 2 - 1}"
    return f"{(target + 1) // 2}..{target - 1}"


def describe(rules, kind: str, state: HandState, befores: list[HandState], tally: GameTally, rest) -> dict:
    """The groups one contract belongs to (and its counterfactual outcome, where asked)."""
    side = rules.side_of[state.declarer]
    other = 1 - side if rules.sides == 2 else None
    totals = tally.totals
    target = rules.game_end.target
    ours = totals[side]
    theirs = max(t for s, t in enumerate(totals) if s != side)
    calls = state.calls
    # The declaring side's last call that was not a pass: the one that decided the contract.
    last = max(i for i, (s, a) in enumerate(calls) if rules.side_of[s] == side and a != rules.pass_action)
    seat, action = calls[last]
    before = befores[last]
    opp_bid = any(rules.side_of[s] != side and (is_bid(rules, a) or a == rules.take_action) for s, a in calls)
    if rules.pass_action not in before.legal_actions():
        how = "forced"
    elif before.high_bid < 0:
        how = "opened"
    elif before.high_seat is not None and rules.side_of[before.high_seat] == side:
        how = "over partner"
    elif action == rules.take_action:
        how = "took"
    else:
        how = "overcalled"
    blind = blind_call(kind, before)
    if how == "forced" or blind == action:
        decided = "hand" if how != "forced" else "forced"
    elif blind == rules.pass_action:
        decided = "game"
    elif is_bid(rules, blind) and is_bid(rules, action):
        decided = "raised" if action > blind else "lowered"
    else:
        decided = "other"
    level = rules.bids[state.bid].level
    nt = state.trump == NO_TRUMP
    score = state.score or [0] * rules.sides
    # What a set of this contract does: ends the game (against the declarers) at once?
    after = tally.winner_if(state)
    row = {
        "made": bool(state.made),
        "decided": decided,
        "how": how,
        "contested": "contested" if opp_bid else "uncontested",
        "level": f"level {level}",
        "strain": "notrump" if nt else "suit",
        "ours": bucket(ours, target),
        "theirs": bucket(theirs, target),
        "lead": ("behind" if ours < theirs else "level" if ours == theirs else "ahead"),
        "first hand": tally.hands_played == 0,
        "ended": ("won" if after == side else "lost" if after is not None else "goes on"),
        "score": score[side] - (score[other] if other is not None else 0),
        "side": side,
        "p_made": predicted(kind, before, action),
        # The bid the deciding call outbid (its level, whose: "partner" or "opponents"), if any.
        "over": (None if before.high_bid < 0 else rules.bids[before.high_bid].level),
        "over_by": (None if before.high_seat is None or before.high_bid < 0
                    else "partner" if rules.side_of[before.high_seat] == side else "opponents"),
    }
    if decided in ("game", "raised"):
        cf = before.clone()
        cf.game = before.game
        cf.apply_action(blind)
        finish(kind, cf)
        cf_after = tally.winner_if(cf)
        row["cf"] = ("won" if cf_after == side else "lost" if cf_after is not None else "goes on")
        # The contract the blind call led to: its level, whose, whether it was made.
        if cf.declarer >= 0:
            row["cf_level"] = rules.bids[cf.bid].level
            row["cf_by"] = "us" if rules.side_of[cf.declarer] == side else "them"
            row["cf_made"] = bool(cf.made)
        # The game played on from the blind call's hand, on the same later deals.
        copy = _copy_tally(tally)
        copy.add_hand(cf)
        row["cf_final"] = rest(copy, copy.next_dealer(cf)) == side
    return row


def play_on(rules, kind: str, seed: int, g: int, tally: GameTally, dealer: int, h: int,
            max_hands: int = MAX_HANDS) -> int | None:
    """Play game ``g`` on from hand ``h`` (``tally`` and ``dealer`` as it stands) to its winner."""
    while tally.winner is None and h < max_hands:
        cards, kitty = deal(rules, deal_rng(seed, g, h))
        state = HandState(rules, dealer, cards, kitty)
        state.game = GameView(tally)
        finish(kind, state)
        tally.add_hand(state)
        dealer = tally.next_dealer(state)
        h += 1
    return tally.winner


def standing(rules, state: HandState, befores: list[HandState], out: list[tuple[int, float, bool]]) -> None:
    """For every bid of ``state``'s auction: (its level, the chance the heuristic's auction
    model gave it of standing against the opponents still to speak, whether one outbid it)."""
    info = rules_info(rules)
    bot = HeuristicBot(None)
    for i, (seat, action) in enumerate(state.calls):
        if not is_bid(rules, action):
            continue
        before = befores[i]
        info.ensure_util(before)
        plain = info.estimate_all(before.hands[seat])
        stands = bot._standing(before, info, plain, len(info.partners[seat]))
        b = action - rules.first_bid_action
        outbid = any(rules.side_of[s] != rules.side_of[seat] and (is_bid(rules, a) or a == rules.take_action)
                     for s, a in state.calls[i + 1:])
        out.append((rules.bids[b].level, stands[b][0], outbid))


def play(rules, kind: str, seed: int, g: int, rows: list[dict], max_hands: int = MAX_HANDS,
         stood: list | None = None, lone: bool = False) -> None:
    """Play game ``g`` as simulate does and describe every contract into ``rows`` (and, into
    ``stood``, every bid's modelled and real chance of standing; ``lone``: the bots blind
    to the game, every hand bid as a hand alone)."""
    dealer = first_dealer(rules, random.Random(f"bidwhist:{seed}:game:{g}:dealer"))
    tally = GameTally(rules)
    h = 0
    first = len(rows)
    while tally.winner is None and h < max_hands:
        cards, kitty = deal(rules, deal_rng(seed, g, h))
        state = HandState(rules, dealer, cards, kitty)
        state.game = None if lone else GameView(tally)
        bot = make_bot(kind, None)
        befores: list[HandState] = []
        while not state.is_terminal():
            if state.phase == AUCTION:
                snap = state.clone()
                snap.game = state.game
                befores.append(snap)
            state.apply_action(bot.choose(state))
        if stood is not None:
            standing(rules, state, befores, stood)
        if state.declarer >= 0:
            rows.append(describe(rules, kind, state, befores, tally,
                                 lambda t, d, h=h: play_on(rules, kind, seed, g, t, d, h + 1)))
        tally.add_hand(state)
        dealer = tally.next_dealer(state)
        h += 1
    for r in rows[first:]:
        r["final"] = tally.winner == r["side"]


def show(rows: list[dict], key: str, total: int) -> None:
    """Print the make rate per value of ``key`` (and, where the blind call was played on,
    the games won as played and with it, the difference with a 95% interval)."""
    groups: dict = defaultdict(list)
    for r in rows:
        groups[r[key]].append(r)
    all_sets = max(1, sum(not r["made"] for r in rows))
    print(f"  by {key}:")
    for value in sorted(groups, key=str):
        g = groups[value]
        k = sum(r["made"] for r in g)
        lo, hi = wilson(k, len(g))
        sets = len(g) - k
        line = (f"    {str(value):>14}: {len(g):5d} ({100 * len(g) / total:4.1f}%)  made {100 * k / len(g):5.1f}% "
                f"({100 * lo:.1f}-{100 * hi:.1f})  sets {sets:4d} ({100 * sets / all_sets:4.1f}% of sets)")
        guesses = [r["p_made"] for r in g if r.get("p_made") is not None]
        if guesses:
            line += f"  expected {100 * sum(guesses) / len(guesses):5.1f}%"
        if all("cf_final" in r for r in g):
            m, dlo, dhi = paired([int(r["final"]) - int(r["cf_final"]) for r in g])
            line += f"  games won {100 * m:+.1f} pts over the blind call ({100 * dlo:+.1f} to {100 * dhi:+.1f})"
        print(line)


def paired(diffs: list[int]) -> tuple[float, float, float]:
    """Mean of paired differences and its 95% interval (runtime.stats' t interval)."""
    interval = stats.mean_interval(diffs)
    if interval.low is None:
        return float(diffs[0]), -1.0, 1.0
    return interval.value, interval.low, interval.high


def main(argv=None) -> None:
    """Parse the options, play the games and print the breakdown."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="standard")
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--bots", default="heuristic")
    p.add_argument("--lone", action="store_true",
                   help="the bots blind to the game: every hand bid as a hand alone (the games still counted)")
    p.add_argument("--dump", help="also write the contracts' rows to this file (JSON lines)")
    p.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                   help="a setting of runtime.bots.MODULE for every bot (repeatable), as gamerisk.py's")
    a = p.parse_args(argv)
    try:
        settings = parse_settings(a.set)
    except ValueError as e:
        p.error(str(e))
    for (module, name), value in settings.items():
        setattr(module, name, value)
    rules = load_ruleset(a.variant)
    rows: list[dict] = []
    stood: list[tuple[int, float, bool]] | None = [] if a.bots == "heuristic" else None
    for g in range(a.games):
        play(rules, a.bots, a.seed, g, rows, stood=stood, lone=a.lone)
    if a.dump:
        with open(a.dump, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    n = len(rows)
    k = sum(r["made"] for r in rows)
    lo, hi = wilson(k, n)
    print(f"{a.variant}: {a.games} games, {n} contracts, bots {a.bots}{' blind to the game' if a.lone else ''}, "
          f"seed {a.seed}")
    print(f"  made {100 * k / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})")
    if stood:
        print("  bids not outbid by an opponent: the auction model's chance (outbid.standing_values) and as played")
        for level in sorted({lv for lv, _, _ in stood}):
            part = [(p_, o) for lv, p_, o in stood if lv == level]
            kept = sum(not o for _, o in part)
            lo4, hi4 = wilson(kept, len(part))
            print(f"    level {level}: {len(part):6d} bids, model {100 * sum(p_ for p_, _ in part) / len(part):5.1f}%,"
                  f" played {100 * kept / len(part):5.1f}% ({100 * lo4:.1f}-{100 * hi4:.1f})")
    for key in ("decided", "how", "contested", "level", "strain", "ours", "theirs", "lead", "first hand",
                "ended"):
        show(rows, key, n)
    # Within the calls made for the game: their level and what passing would have done.
    for decided in ("game", "raised", "hand"):
        sub = [r for r in rows if r["decided"] == decided]
        if not sub:
            continue
        print(f"  calls decided '{decided}' ({len(sub)}):")
        for key in ("level", "strain", "theirs", "ours", "lead", "how", "first hand"):
            show(sub, key, len(sub))
        if "cf" in sub[0]:
            cross: dict = defaultdict(list)
            for r in sub:
                cross[(r["ended"], r["cf"])].append(r)
            print("    game after this hand (as played / had the blind call been made), made, games won in the end:")
            for (e, c), rs in sorted(cross.items()):
                m = len(rs)
                made = 100 * sum(r["made"] for r in rs) / m
                won = 100 * sum(r["final"] for r in rs) / m
                cf_won = 100 * sum(r["cf_final"] for r in rs) / m
                print(f"      {e:>8} / {c:<8} {m:5d} ({100 * m / len(sub):4.1f}%)  made {made:5.1f}%"
                      f"  won {won:5.1f}% vs {cf_won:5.1f}%")
            won = sum(r["final"] for r in sub)
            cf_won = sum(r["cf_final"] for r in sub)
            m, lo3, hi3 = paired([int(r["final"]) - int(r["cf_final"]) for r in sub])
            print(f"    game won in the end: {100 * won / len(sub):.1f}% as played, {100 * cf_won / len(sub):.1f}% "
                  f"had the blind call been made (the game played on by the same bots on the same deals); "
                  f"difference {100 * m:+.1f} points ({100 * lo3:+.1f} to {100 * hi3:+.1f})")
            for made in (True, False):
                part = [r for r in sub if r["made"] == made]
                if part:
                    won = 100 * sum(r["final"] for r in part) / len(part)
                    cf_won = 100 * sum(r["cf_final"] for r in part) / len(part)
                    print(f"      {'made' if made else 'set'} ({len(part)}): won {won:.1f}% as played, "
                          f"{cf_won:.1f}% with the blind call")
            sets = [r for r in sub if not r["made"]]
            if sets:
                lost_anyway = sum(r["cf"] == "lost" for r in sets)
                lo2, hi2 = wilson(lost_anyway, len(sets))
                print(f"    of its {len(sets)} sets, passing (the blind call) would have lost the game this hand "
                      f"in {100 * lost_anyway / len(sets):.1f}% ({100 * lo2:.1f}-{100 * hi2:.1f})")


if __name__ == "__main__":
    main()

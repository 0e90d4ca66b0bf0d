"""Do game-level rules change the bots' bids?  Calls made with and without the game in view.

Run from the repository root::

    python bench/gamebids.py [--variants standard,standard+to-5,...] [--games G] [--seed S]

Plays ``G`` whole games of each variant (``runtime.simulate.play_game``: heuristic bots,
every hand a ``HandState`` with its ``GameView``).  At every call of every auction the
same bot is also asked what it would call in the same position with the game hidden
(``state.game = None``: the hand alone, as before the bots saw the game).  Reported:
the share of calls that differ, and of those how many are a higher or lower bid or a
pass instead of a bid (and the reverse); and the bids of the ladder's top level (a
call of it, a contract at it, made) with 95% intervals per hand.

``--against VARIANT`` also asks, at every call, what the same bot calls in the same
position (the same cards, calls and game totals, sets and hands) under VARIANT's rules
(its ladder and actions must be the variant's own): the calls a rule changes where
it is in play, counted as above and listed (up to ``--show`` of them) with the game
totals.

``--positions N`` (with ``--against``) samples positions where high bids arise instead
of whole games, where they are rare (bids of 7 in 0.03% of the base game's hands): N
deals in which a seat holds ``--long`` cards of a suit or more (jokers counted), at game
totals drawn at random, bid by the heuristic with the game in view and played out;
the calls compared as above, apart those where either answer is a bid of
``--min-level`` or more, and the ladder's top-level contracts made, by whether
``--against`` bids the top level too at that call::

    python bench/gamebids.py --variants standard --against standard+seven-set-loses --positions 3000

A measurement, not a test.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime.bots import make_bot  # noqa: E402
from runtime.game import GameTally, GameView, deal, first_dealer  # noqa: E402
from runtime.hand import AUCTION, HandState  # noqa: E402
from runtime.simulate import bot_rng, deal_rng  # noqa: E402


def _is_bid(rules, action: int) -> bool:
    """Whether ``action`` is a bid of the ladder."""
    return rules.first_bid_action <= action < rules.first_bid_action + len(rules.bids)


class Counts:
    """Calls compared with another answer in the same position: how many, and how they differ."""

    def __init__(self):
        self.calls = self.differ = self.higher = self.lower = self.bid_not_pass = self.pass_not_bid = 0
        self.shown: list[str] = []

    def add(self, rules, action: int, other: int) -> bool:
        """Count one call ``action`` against ``other``; True when they differ."""
        self.calls += 1
        if other == action:
            return False
        self.differ += 1
        if _is_bid(rules, action) and _is_bid(rules, other):
            self.higher += action > other
            self.lower += action < other
        elif _is_bid(rules, action) or action == rules.take_action:
            self.bid_not_pass += 1
        else:
            self.pass_not_bid += 1
        return True

    def line(self) -> str:
        """The counts in words."""
        share = self.differ / max(1, self.calls)
        return (f"{self.differ:5d} of {self.calls:6d} calls ({100 * share:.2f}%): higher bid {self.higher}, "
                f"lower bid {self.lower}, bid instead of pass {self.bid_not_pass}, "
                f"pass instead of bid {self.pass_not_bid}")


def _tally_as(rules, tally: GameTally) -> GameTally:
    """A tally of ``rules`` standing where ``tally`` stands (totals, sets, sets in a row, hands, games won)."""
    other = GameTally(rules)
    other.totals = list(tally.totals)
    other.sets = list(tally.sets)
    other.sets_in_a_row = list(tally.sets_in_a_row)
    other.hands_played = tally.hands_played
    other.played = tally.played
    other.games_won = list(tally.games_won)
    return other


def _wilson(k: int, n: int) -> str:
    """``k`` of ``n`` as a percentage with its 95% Wilson interval."""
    if n == 0:
        return "-"
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.2f}% ({100 * max(0.0, centre - half):.2f}-{100 * min(1.0, centre + half):.2f}%)"


def measure(variant: str, games: int, seed: int, against: str | None = None, show: int = 0) -> dict:
    """Play the games and count the calls the game view changed (and, with ``against``,
    the calls that ruleset would change in the same positions)."""
    rules = load_ruleset(variant)
    other_rules = load_ruleset(against) if against else None
    if other_rules is not None and (other_rules.action_names != rules.action_names
                                    or other_rules.deck() != rules.deck()):
        raise SystemExit(f"{against}: its cards or actions differ from {variant}'s; positions cannot be compared")
    top = max(b.level for b in rules.bids)
    blind_counts, rule_counts = Counts(), Counts()
    hands = top_calls = top_hands = top_contracts = top_made = 0
    for g in range(games):
        dealer = first_dealer(rules, random.Random(f"bidwhist:{seed}:game:{g}:dealer"))
        tally = GameTally(rules)
        h = 0
        while tally.winner is None and h < 300:
            cards, kitty = deal(rules, deal_rng(seed, g, h))
            state = HandState(rules, dealer, cards, kitty)
            state.game = GameView(tally)
            players = [make_bot("heuristic", bot_rng(seed, g, h, s)) for s in range(rules.players)]
            blind = make_bot("heuristic", random.Random(0))
            judge = make_bot("heuristic", random.Random(0))
            top_called = False
            while not state.is_terminal():
                action = players[state.current_player()].choose(state)
                if state.phase == AUCTION:
                    alone = state.clone()
                    alone.game = None
                    blind_counts.add(rules, action, blind.choose(alone))
                    if _is_bid(rules, action) and rules.bids[action - rules.first_bid_action].level == top:
                        top_calls += 1
                        top_called = True
                    if other_rules is not None:
                        there = HandState(other_rules, dealer, [list(c) for c in cards], list(kitty))
                        for _, a in state.calls:
                            there.apply_action(a)
                        there.game = GameView(_tally_as(other_rules, tally))
                        answer = judge.choose(there)
                        if rule_counts.add(rules, action, answer) and len(rule_counts.shown) < show:
                            names = rules.action_names
                            rule_counts.shown.append(
                                f"game {g} hand {h} seat {state.current_player()} totals {tally.totals}: "
                                f"{names[action]} here, {names[answer]} under {against}")
                state.apply_action(action)
            top_hands += top_called
            if state.declarer >= 0 and rules.bids[state.bid].level == top:
                top_contracts += 1
                top_made += bool(state.made)
            tally.add_hand(state)
            dealer = tally.next_dealer(state)
            h += 1
            hands += 1
    return {"blind": blind_counts, "rule": rule_counts if other_rules is not None else None, "hands": hands,
            "top": top, "top_calls": top_calls, "top_hands": top_hands, "top_contracts": top_contracts,
            "top_made": top_made}


def _longest(rules, hand) -> int:
    """The most cards ``hand`` holds of one suit, counting the cards of no suit (jokers:
    trumps in every suit contract)."""
    per_suit = [0] * max(1, max(rules.card_suit) + 1)
    free = 0
    for c in hand:
        s = rules.card_suit[c]
        if s < 0:
            free += 1
        else:
            per_suit[s] += 1
    return max(per_suit) + free


def measure_positions(variant: str, against: str, positions: int, seed: int, long: int = 7,
                      min_level: int = 6, show: int = 0) -> dict:
    """Sampled positions where high bids arise: ``positions`` deals in which some seat
    holds ``long`` cards of a suit or more (jokers counted; others redrawn), each at game
    totals drawn uniformly from those short of the target on either side, a random
    dealer, no sets yet.  The heuristic bids the hand in ``variant`` with the game in
    view; at every call it is also asked under ``against`` (the same position), and the
    hand is played out under ``variant``.  Counted: every call, the calls where either
    answer is a bid of ``min_level`` or more, the calls of the ladder's top level under
    each, and the top-level contracts made, split by whether ``against`` would have bid
    the top level too at the call that won the contract."""
    rules = load_ruleset(variant)
    other_rules = load_ruleset(against)
    if other_rules.action_names != rules.action_names or other_rules.deck() != rules.deck():
        raise SystemExit(f"{against}: its cards or actions differ from {variant}'s; positions cannot be compared")
    if long > rules.hand_size:  # no deal has one: the sampling below would draw for ever
        raise SystemExit(f"--long {long}: a hand of {variant} holds {rules.hand_size} cards")
    top = max(b.level for b in rules.bids)
    edge = rules.game_end.target - 1
    every, high = Counts(), Counts()
    seen = {"top_here": 0, "top_there": 0}
    # Top-level contracts by (made, whether ``against`` bids the top level at that call too).
    outcome = {(m, k): 0 for m in (False, True) for k in (False, True)}
    games: dict = {}  # the same, with the game after the hand here and under ``against``
    judge = make_bot("heuristic", random.Random(0))
    for i in range(positions):
        state, tally, deal_made = _sampled_position(rules, seed, i, long, edge)
        players = [make_bot("heuristic", random.Random(f"{seed}:{i}:{s}")) for s in range(rules.players)]
        top_kept = {}  # each call of the top level -> whether ``against`` calls the top level there
        while not state.is_terminal():
            action = players[state.current_player()].choose(state)
            if state.phase == AUCTION:
                answer = _asked_under(other_rules, state, deal_made, tally, judge)
                every.add(rules, action, answer)
                if max(_level(rules, action), _level(rules, answer)) >= min_level:
                    if high.add(rules, action, answer) and len(high.shown) < show:
                        names = rules.action_names
                        high.shown.append(f"position {i} seat {state.current_player()} totals {tally.totals}: "
                                          f"{names[action]} here, {names[answer]} under {against}")
                seen["top_here"] += _level(rules, action) == top
                seen["top_there"] += _level(rules, answer) == top
                if _level(rules, action) == top:
                    top_kept[action] = _level(rules, answer) == top
            state.apply_action(action)
        if state.declarer >= 0 and rules.bids[state.bid].level == top:
            kept = top_kept.get(rules.first_bid_action + state.bid, False)
            outcome[(bool(state.made), kept)] += 1
            key = (bool(state.made), kept, *_game_after(rules, other_rules, state, tally))
            games[key] = games.get(key, 0) + 1
    return {"every": every, "high": high, "top": top, **seen, "outcome": outcome, "games": games}


def _level(rules, action: int) -> int:
    """The level of a bid action, 0 for any other call."""
    return rules.bids[action - rules.first_bid_action].level if _is_bid(rules, action) else 0


def _sampled_position(rules, seed: int, i: int, long: int, edge: int):
    """Position ``i`` of :func:`measure_positions`: a deal in which some seat holds ``long``
    cards of a suit (others redrawn), game totals drawn uniformly within ``edge`` of zero on
    either side and a random dealer.  Returns the hand's state (the game in view), the
    game's tally and the deal (hands, kitty)."""
    rng = random.Random(f"gamebids:positions:{seed}:{i}")
    while True:
        cards, kitty = deal(rules, rng)
        if max(_longest(rules, h) for h in cards) >= long:
            break
    tally = GameTally(rules)
    tally.totals = [rng.randint(-edge, edge) for _ in range(rules.sides)]
    dealer = rng.randrange(rules.players)
    state = HandState(rules, dealer, [list(c) for c in cards], list(kitty))
    state.game = GameView(tally)
    return state, tally, (cards, kitty)


def _asked_under(other_rules, state, dealt, tally: GameTally, judge) -> int:
    """What ``judge`` calls at ``state``'s turn in the auction under ``other_rules``: the same
    deal (``dealt``: hands, kitty), dealer, calls so far and game score."""
    cards, kitty = dealt
    there = HandState(other_rules, state.dealer, [list(c) for c in cards], list(kitty))
    for _, a in state.calls:
        there.apply_action(a)
    there.game = GameView(_tally_as(other_rules, tally))
    return judge.choose(there)


def _game_after(rules, other_rules, state, tally: GameTally) -> list[str]:
    """What the finished hand ``state`` does to the declarers' game, here and under
    ``other_rules``: "won", "lost" or "on" for each."""
    side = rules.side_of[state.declarer]
    ends = []
    for t in (tally, _tally_as(other_rules, tally)):
        w = GameView(t).winner_after(list(state.score), list(state.books), state.declarer, state.bid,
                                     state.made, state.dealer)
        ends.append("on" if w is None else "won" if w == side else "lost")
    return ends


def report_positions(variant: str, against: str, r: dict, a) -> None:
    """Print the figures of :func:`measure_positions`."""
    o = r["outcome"]
    kept, dropped = o[(True, True)] + o[(False, True)], o[(True, False)] + o[(False, False)]
    print(f"{variant} against {against}: {a.positions} positions (a seat with {a.long}+ cards of a suit, "
          f"game totals at random), seed {a.seed}")
    print(f"  every call: {r['every'].line()}")
    print(f"  calls where either bids {a.min_level}+: {r['high'].line()}")
    print(f"  calls of {r['top']}: {r['top_here']} in {variant}, {r['top_there']} under {against}")
    print(f"  contracts of {r['top']} in {variant}: {kept + dropped}; those {against} also bids: made "
          f"{_wilson(o[(True, True)], kept)} of {kept}; those it does not: made {_wilson(o[(True, False)], dropped)} "
          f"of {dropped}")
    for (made, also, here, there), n in sorted(r["games"].items()):
        print(f"    {n:4d} {'made' if made else 'set '}, {against} {'also bids it' if also else 'does not'}: "
              f"the declarers' game {here} here, {there} under {against}")
    for line in r["high"].shown:
        print(f"    {line}")


def main(argv=None) -> None:
    """Parse the options and print the lines of each variant."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variants", default="standard,standard+to-5,standard+boston-x4,standard+seven-set-loses,"
                                         "standard+two-sets,standard+boston-wins")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--against", default=None, help="also ask each call under this variant's rules")
    p.add_argument("--show", type=int, default=10, help="list up to this many calls --against changes")
    p.add_argument("--positions", type=int, default=0,
                   help="with --against: instead of whole games, this many sampled positions where high "
                        "bids arise (a seat with --long cards of a suit, game totals at random)")
    p.add_argument("--long", type=int, default=7, help="--positions: cards of one suit (jokers counted)")
    p.add_argument("--min-level", type=int, default=6, help="--positions: the calls counted apart")
    a = p.parse_args(argv)
    if a.positions:
        if not a.against:
            p.error("--positions needs --against")
        for name in a.variants.split(","):
            report_positions(name, a.against, measure_positions(name, a.against, a.positions, a.seed, a.long,
                                                                a.min_level, a.show), a)
        return
    print(f"gamebids: {a.games} games per variant, seed {a.seed}, heuristic bots")
    for name in a.variants.split(","):
        r = measure(name, a.games, a.seed, a.against, a.show)
        print(f"{name}: {r['hands']} hands")
        print(f"  with the game hidden: {r['blind'].line()}")
        print(f"  bids of {r['top']}: {r['top_calls']} calls, in {_wilson(r['top_hands'], r['hands'])} of hands; "
              f"contracts in {_wilson(r['top_contracts'], r['hands'])} of hands, made {r['top_made']} "
              f"of {r['top_contracts']}")
        if r["rule"] is not None:
            print(f"  under {a.against} in the same positions: {r['rule'].line()}")
            for line in r["rule"].shown:
                print(f"    {line}")


if __name__ == "__main__":
    main()

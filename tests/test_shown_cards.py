"""Cards a seat has been shown (a kitty turned face up): the engine's HandState.shown_to and
the heuristic's use of them in card play (runtime/bots/shown.py).

One hand-made deal under left-of-declarer-leads, with and without sport-kitty: the
kitty holds the ace and queen of hearts, the declarer (seat 1) takes it and keeps
them; the defenders' first trick is 5H from seat 2, 9H from the declarer's partner,
and seat 0 to play before the declarer with K-J-T-8-7 of hearts.
"""

from __future__ import annotations

import random

from bidcompiler.pipeline import load_ruleset
from runtime.bots import HeuristicBot
from runtime.bots.shown import placed_away, shown_mask
from runtime.hand import HandState

HANDS = {
    1: "AS KS QS JS TS 9S 8S AD KD AC KC BJ",  # the declarer: spades
    2: "5H 6H 3H 2D 3D 4D 5D 2C 3C 4C 5C 6C",  # leads the 5H
    3: "2H 9H 4H 6D 7D 8D 9D 7C 8C 9C TC JC",  # the declarer's partner: 9H
    0: "KH 7H 8H TH JH TD JD QD QC 2S 3S 4S",  # third to play, the declarer after it
}
KITTY = "AH QH LJ 5S 6S 7S"


def deal_and_bid(with_rules: tuple[str, ...], to_trick: bool = True) -> HandState:
    rules = load_ruleset("standard", with_rules=with_rules)
    ids = {n: i for i, n in enumerate(rules.cards)}
    hands = [[ids[c] for c in HANDS[s].split()] for s in range(rules.players)]
    state = HandState(rules, 0, hands, [ids[c] for c in KITTY.split()])
    for name in ["4 uptown", "pass", "pass", "pass", "trump S", "5S", "6S", "7S", "8S", "AD", "KD"]:
        state.apply_action(rules.action_names.index(name))
    if to_trick:
        for name in ["5H", "9H"]:
            state.apply_action(rules.action_names.index(name))
    return state


def kitty_ids(state: HandState) -> tuple[int, ...]:
    ids = {n: i for i, n in enumerate(state.rules.cards)}
    return tuple(ids[c] for c in KITTY.split())


def test_shown_to_names_the_taker_once_the_kitty_is_turned_up():
    state = deal_and_bid(("sport-kitty", "left-of-declarer-leads"), to_trick=False)
    assert state.declarer == 1
    for seat in (0, 2, 3):
        assert [(h, sorted(c)) for h, c in state.shown_to(seat)] == [(1, sorted(kitty_ids(state)))]
    assert state.shown_to(1) == []  # the taker's own cards


def test_nothing_is_shown_without_the_rule():
    state = deal_and_bid(("left-of-declarer-leads",), to_trick=False)
    assert all(state.shown_to(seat) == [] for seat in range(4))


def test_face_up_kitty_lies_on_the_table_during_the_auction():
    rules = load_ruleset("standard", with_rules=("kitty-face-up",))
    ids = {n: i for i, n in enumerate(rules.cards)}
    hands = [[ids[c] for c in HANDS[s].split()] for s in range(rules.players)]
    state = HandState(rules, 0, hands, [ids[c] for c in KITTY.split()])
    assert [(h, sorted(c)) for h, c in state.shown_to(2)] == [(-1, sorted(ids[c] for c in KITTY.split()))]
    # Held by nobody yet: nothing to place.
    assert shown_mask(state, 2) == {}


def test_shown_cards_held_by_a_partner_or_an_earlier_player_are_placed_away():
    state = deal_and_bid(("sport-kitty", "left-of-declarer-leads"), to_trick=False)
    kitty = shown_mask(state, 3)[1]
    # The declarer's partner (seat 3): the kitty is with partner, never an opponent's.
    assert placed_away(state, 3, [1], [0, 2]) == kitty
    # A defender with the declarer still to play: the cards may be played against it.
    assert placed_away(state, 0, [2], [1]) == 0
    # A defender after the declarer has played to the trick: they cannot.
    assert placed_away(state, 0, [2], []) == kitty


def test_third_hand_keeps_its_king_under_a_shown_ace():
    def says(with_rules):
        state = deal_and_bid(with_rules)
        assert state.seat == 0 and state.led >= 0
        action, reason = HeuristicBot(random.Random(0)).explain(state)
        return state.rules.action_names[action], reason

    # Not knowing where the ace of hearts is, it plays high to beat the 9H.
    assert says(("left-of-declarer-leads",))[0] == "KH"
    # Shown the kitty: the declarer, still to play, holds the ace; the king waits.
    card, reason = says(("sport-kitty", "left-of-declarer-leads"))
    assert card == "7H", reason
    assert "shown" in reason

"""House rules found at real tables and in card-game apps (rules.md §9) whose new
primitives live in the compiler, the deal and the game level: one test per rule on
hand-made deals where the rule decides the outcome, plus the rulebook, ``diff`` and
the checks' messages for the new settings.

- ``no-red-deuces``: a deck with chosen cards taken out (``deck.without``);
- ``notrump-from-4``: a strain's own levels (``strains[…].levels``);
- ``deal-right``: the deal passing to the right (``deal.rotation: right``);
- ``seven-set-loses``: game-end formulas that see the last hand (``last_bid``,
  ``last_declarer``, ``last_made``);
- ``ten-hands``: hands played with a contract (``played``) and "the higher total";
- ``two-handed``: two players and cards set aside unseen (``deal.undealt``);
- ``big-joker-notrump``: card roles per kind of contract (``play.roles``, role ``top``);
- ``spades-trump``: a strain's trump fixed to a suit (``trump: S``);
- ``sport-kitty-always``: when and in which contracts the kitty is shown (``kitty.show: {when, contracts}``).
"""

from __future__ import annotations

import json
import random

import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import load_ruleset
from runtime.errors import IllegalAction
from runtime.game import GameState, GameTally, deal
from runtime.hand import HandState
from runtime.records import RecordError, apply_claim, hand_record, replay_hand
from runtime.ruleset import NO_SUIT, TOP_SUIT
from runtime.simulate import play_hand
from runtime.solver import UnsupportedContract, solve, solve_actions
from runtime.tricks import strength_keys, winning_index
from tests.clirun import run
from test_rules_variants import act, hand, legal  # the same helpers as the other rule tests

RANKS = "23456789TJQKA"


def cards_of(suit: str, high: str, low: str) -> list[str]:
    """One suit from ``high`` down to ``low`` in uptown order."""
    return [r + suit for r in reversed(RANKS[RANKS.index(low): RANKS.index(high) + 1])]



def new_hand(rules, hands, kitty, dealer: int = 3) -> HandState:
    """A hand from a deal written out card by card (checked against the variant's sizes).

    Not test_rules_variants.new_hand: these deals may leave cards undealt or out of the
    deck, so its whole-deck check does not apply here.
    """
    assert [len(h) for h in hands] == [rules.hand_size] * rules.players
    assert len(kitty) == rules.kitty_size
    return HandState(rules, dealer, [[rules.card_id(c) for c in h] for h in hands],
                     [rules.card_id(c) for c in kitty])


def house(*names: str):
    return load_ruleset("standard", names)


def tally_of(rules, *hands, totals=None) -> list:
    """Totals and winner after each hand added to a fresh tally (from ``totals``)."""
    tally = GameTally(rules)
    if totals is not None:
        tally.totals = list(totals)
    seen = []
    for h in hands:
        tally.add_hand(h)
        seen.append((list(tally.totals), tally.winner))
    return seen


# 54 cards: each seat (nearly) one whole suit, both jokers in the kitty.
STD_LONG = (
    [cards_of("S", "A", "3"), cards_of("H", "A", "4") + ["2S"], cards_of("D", "A", "3"), cards_of("C", "A", "3")],
    ["2H", "3H", "2D", "2C", "BJ", "LJ"],
)


def claimed(rules, bid: str, books: int, declarer: int = 0, declaration: str = "trump S") -> HandState:
    """STD_LONG in ``bid`` by ``declarer`` (0 or 1), its side ending with ``books`` books."""
    calls = [bid, "pass", "pass", "pass"] if declarer == 0 else ["pass", bid, "pass", "pass"]
    state = act(new_hand(rules, *STD_LONG), *calls, declaration, *STD_LONG[1])
    act(state, *(("AS", "2S", "3D", "3C") if declarer == 0 else ("AH", "3D", "3C", "3S")))
    apply_claim(state, books - 2)
    assert state.books[declarer % 2] == books
    return state


def thrown_in(rules) -> HandState:
    """A hand where everyone passes (a variant that throws such a hand in)."""
    state = act(new_hand(rules, *STD_LONG), "pass", "pass", "pass", "pass")
    assert state.is_terminal() and state.declarer < 0
    return state


# ============================================================================ no-red-deuces
def test_no_red_deuces_deck_is_52_cards_with_both_jokers_12_each_and_a_kitty_of_4():
    rules = house("no-red-deuces")
    assert len(rules.cards) == 52 and "2H" not in rules.cards and "2D" not in rules.cards
    assert {"BJ", "LJ", "2S", "2C", "3H", "3D"} <= set(rules.cards)
    assert (rules.hand_size, rules.kitty_size) == (12, 4)
    # Every card keeps its own suit although the ids close up over the missing deuces.
    for cid, name in enumerate(rules.cards):
        assert rules.card_suit[cid] == (-2 if name in ("BJ", "LJ") else "SHDC".index(name[-1]))
    hands, kitty = deal(rules, random.Random(3))
    dealt = [rules.cards[c] for h in hands for c in h] + [rules.cards[c] for c in kitty]
    assert sorted(dealt) == sorted(rules.cards)


# 52 cards (no-red-deuces): seat 0 spades A..4 and 3H, seat 1 hearts A..4 and 3S,
# seat 2 diamonds A..3, seat 3 clubs A..3; the kitty 2S 2C BJ LJ.
NO_RED_DEUCES = (
    [cards_of("S", "A", "4") + ["3H"], cards_of("H", "A", "4") + ["3S"], cards_of("D", "A", "3"),
     cards_of("C", "A", "3")],
    ["2S", "2C", "BJ", "LJ"],
)


def test_no_red_deuces_plays_on_the_smaller_deck_and_a_record_holding_2h_is_refused():
    rules = house("no-red-deuces")
    state = act(new_hand(rules, *NO_RED_DEUCES), "4 downtown", "pass", "pass", "pass", "trump S",
                "2S", "2C", "BJ", "LJ")
    assert state.phase_name == "play" and state.current_player() == 0
    act(state, "3H")
    assert legal(state) == set(cards_of("H", "A", "4"))  # seat 1 follows with a heart
    act(state, "4H", "AD", "AC")
    assert state.tricks[-1][2] == 0  # downtown, 3H over 4H
    record = hand_record(state, "standard", ["no-red-deuces"])
    record["kitty"][0] = "2H"
    with pytest.raises(RecordError, match="2H"):
        replay_hand(rules, record)


def test_deck_without_names_a_card_the_deck_has_and_the_deal_must_still_fit(tmp_path):
    bad = tmp_path / "no-9x.yaml"
    bad.write_text("name: no-9x\nkind: house-rule\ndescription: x\nsource: x\ndeck:\n  without: [9X, 2H]\n")
    result = run("rules", "standard", "--with", str(bad))
    out = result.stdout + result.stderr
    assert result.exit_code == 1
    assert "deck.without takes out 9X, which is not a card of the deck" in out
    assert "no-9x.yaml:6" in out
    assert "the deal uses 54 cards" in out and "but the deck has 53" in out


# ============================================================================ notrump-from-4
def test_notrump_from_4_has_no_3_notrump_other_strains_keep_3():
    rules = house("notrump-from-4")
    texts = [b.text for b in rules.bids]
    assert "3 notrump" not in texts and "3 notrump" not in rules.action_names
    assert texts[:4] == ["3 uptown", "3 downtown", "4 uptown", "4 downtown"]
    assert texts[-1] == "7 notrump"
    state = new_hand(rules, *STD_LONG)
    assert {"3 uptown", "3 downtown", "4 notrump"} <= legal(state)
    act(state, "3 uptown")
    # 4 uptown and 4 notrump still outrank 3 uptown; 3 downtown (equal) does not.
    assert {"4 uptown", "4 downtown", "4 notrump"} <= legal(state) and "3 downtown" not in legal(state)
    act(state, "pass", "pass")
    # The dealer, on call after three passes elsewhere, has the same ladder.
    forced = act(new_hand(rules, *STD_LONG), "pass", "pass", "pass")
    assert "3 uptown" in legal(forced) and "pass" not in legal(forced)
    assert "3 notrump" in house().action_names  # the standard game still has it
    with pytest.raises(ValueError):
        rules.action_names.index("3 notrump")


def test_a_strains_levels_must_fit_the_hand(tmp_path):
    bad = tmp_path / "nt.yaml"
    bad.write_text("name: nt\nkind: house-rule\ndescription: x\nsource: x\nauction:\n  strains:\n"
                   "    - {name: uptown, trump: suit, direction: uptown, levels: {from: 6, to: 5}}\n"
                   "    - {name: downtown, trump: suit, direction: downtown}\n"
                   "    - {name: notrump, trump: none, direction: [uptown, downtown], levels: {to: 14}}\n")
    result = run("rules", "standard", "--with", str(bad))
    out = result.stdout + result.stderr
    assert result.exit_code == 1
    assert "strain 'uptown' is bid from 6, above its highest level 5" in out
    assert "strain 'notrump' goes up to 14 (a bid of 20 books), more than the 13 books of a hand" in out


# ============================================================================ deal-right
def test_deal_right_passes_the_deal_to_the_right_calls_still_go_left():
    rules = house("deal-right")
    assert rules.rotation == -1 and house().rotation == 1
    made = claimed(rules, "4 uptown", 10)
    assert made.dealer == 3 and GameTally(rules).next_dealer(made) == 2
    assert GameTally(house()).next_dealer(claimed(house(), "4 uptown", 10)) == 0
    game = GameState(rules, seed=11)
    dealers = []
    current = None
    while not game.is_terminal() and len(dealers) < 6:
        if game.hand is not current:
            current = game.hand
            dealers.append(current.dealer)
            # the first call is the dealer's left (seat + 1) whatever way the deal passes
            assert current.current_player() == (current.dealer + 1) % 4
        game.apply_action(game.legal_actions()[0])
    assert all((a - b) % 4 == 1 for a, b in zip(dealers, dealers[1:]))
    # The hands mode of simulate deals hand i from the first dealer turned i times.
    first = play_hand(rules, 5, 0).dealer
    assert [play_hand(rules, 5, i).dealer for i in range(1, 4)] == [(first - i) % 4 for i in range(1, 4)]


# ============================================================================ seven-set-loses
def test_seven_set_loses_the_game_at_once():
    rules = house("seven-set-loses")
    set7 = claimed(rules, "7 uptown", 12)
    assert set7.score == [-7, 0]
    # From +5 a set on 7 leaves -2: the standard game goes on, this rule ends it.
    assert tally_of(rules, set7, totals=[5, 0]) == [([-2, 0], 1)]
    assert tally_of(house(), claimed(house(), "7 uptown", 12), totals=[5, 0]) == [([-2, 0], None)]
    # A set on 6, or a 7 made, decides nothing; the side that defended a 7 does not lose.
    assert tally_of(rules, claimed(rules, "6 uptown", 11), totals=[5, 0]) == [([-1, 0], None)]
    made7 = claimed(rules, "7 uptown", 13)
    assert tally_of(rules, made7, totals=[-5, 0]) == [([2, 0], None)]
    other7 = claimed(rules, "7 downtown", 12, declarer=1, declaration="trump H")
    assert tally_of(rules, other7, totals=[0, 4]) == [([0, -3], 0)]
    # The ±7 ends still hold.
    assert tally_of(rules, claimed(rules, "3 uptown", 11), totals=[2, 0]) == [([7, 0], 0)]


# ============================================================================ ten-hands
def test_ten_hands_the_higher_total_after_ten_played_hands_wins():
    rules = house("ten-hands")
    up = claimed(rules, "3 uptown", 10)       # side 0: +4
    down = claimed(rules, "3 uptown", 7)      # side 0: -3
    seen = tally_of(rules, *([up] * 9), down)
    assert [w for _, w in seen[:9]] == [None] * 9
    assert seen[1] == ([8, 0], None)  # +7 is no end here
    assert seen[-1] == ([33, 0], 0)
    assert tally_of(rules, down, down, down)[-1] == ([-9, 0], None)  # nor is -7


def test_ten_hands_tie_goes_on_one_hand_at_a_time_and_thrown_in_hands_do_not_count():
    rules = house("ten-hands", "all-pass-redeal")
    win0 = claimed(rules, "3 uptown", 10)                                     # side 0: +4
    win1 = claimed(rules, "3 downtown", 10, declarer=1, declaration="trump H")  # side 1: +4
    nothing = thrown_in(rules)
    tally = GameTally(rules)
    for h in [win0, win1] * 5:
        tally.add_hand(h)
    assert tally.played == 10 and tally.totals == [20, 20] and tally.winner is None  # tied
    tally.add_hand(nothing)  # thrown in: still tied, and not a played hand
    assert tally.played == 10 and tally.hands_played == 11 and tally.winner is None
    tally.add_hand(win1)
    assert tally.winner == 1
    early = GameTally(rules)
    for h in [win0] * 9 + [nothing]:
        early.add_hand(h)
    assert early.winner is None  # ten hands dealt, nine played
    early.add_hand(win0)
    assert early.winner == 0


def test_ten_hands_with_three_sides_the_single_highest_total_wins():
    rules = load_ruleset("cutthroat", ("ten-hands",))
    hand = next(h for h in (play_hand(rules, seed, 0) for seed in range(40)) if h.declarer >= 0)
    tally = GameTally(rules)
    tally.played = 9
    base = [50, 50, 50]
    tally.totals = list(base)
    tally.add_hand(hand)
    totals = [b + s for b, s in zip(base, hand.score)]
    best = max(totals)
    assert tally.winner == (totals.index(best) if totals.count(best) == 1 else None)


# ============================================================================ two-handed
# Seat 0 spades A..3, seat 1 hearts A..3; the kitty 2S 2H BJ LJ 2D 2C; the 24 other
# diamonds and clubs are set aside.
TWO = ([cards_of("S", "A", "3"), cards_of("H", "A", "3")], ["2S", "2H", "BJ", "LJ", "2D", "2C"])


def test_two_handed_deals_12_each_a_kitty_of_6_and_sets_24_aside():
    rules = load_ruleset("two-handed")
    assert (rules.players, rules.sides, rules.side_of) == (2, 2, (0, 1))
    assert (rules.hand_size, rules.kitty_size, rules.undealt, len(rules.cards)) == (12, 6, 24, 54)
    hands, kitty = deal(rules, random.Random(1))
    seen = [c for h in hands for c in h] + kitty
    assert len(seen) == 30 == len(set(seen))
    assert [b.text for b in rules.bids][0] == "3 uptown" and rules.bids[-1].text == "7 notrump"


def test_two_handed_non_dealer_calls_first_and_the_dealer_must_bid():
    rules = load_ruleset("two-handed")
    state = new_hand(rules, *TWO, dealer=1)
    assert state.current_player() == 0
    act(state, "pass")
    assert state.current_player() == 1 and "pass" not in legal(state)
    with pytest.raises(IllegalAction, match="must bid"):
        act(state, "pass")
    other = act(new_hand(rules, *TWO, dealer=1), "4 uptown")
    assert "pass" in legal(other)
    act(other, "pass")
    assert other.declarer == 0 and other.phase_name == "declare"


def test_two_handed_thirteen_books_and_each_player_scores_for_itself():
    rules = load_ruleset("two-handed")
    state = act(new_hand(rules, *TWO, dealer=1), "6 uptown", "pass", "trump S",
                "2H", "2D", "2C", "3S", "4S", "5S")
    assert state.phase_name == "play" and state.current_player() == 0
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1] if state.current_player() == 0 else state.legal_actions()[0])
    assert len(state.tricks) == 12 and all(len(t) == 2 for _, t, _ in state.tricks)
    assert state.books == [13, 0]  # 12 tricks (jokers and spades are trumps) and the discards
    assert state.score == [7, 0] and state.made
    assert tally_of(rules, state) == [([7, 0], 0)]
    record = hand_record(state, "two-handed", [])
    again = replay_hand(rules, record).state
    assert (again.tricks, again.books, again.score) == (state.tricks, state.books, state.score)


# Seat 0 spades A..4 and 3H, seat 1 hearts A..4 and 3S: seat 1 can follow a spade lead once.
TWO_RENEGE = ([cards_of("S", "A", "4") + ["3H"], cards_of("H", "A", "4") + ["3S"]],
              ["2S", "2H", "BJ", "LJ", "2D", "2C"])


def test_two_handed_renege_penalty_moves_three_books_to_the_other_player():
    """rules.md §9 two-handed: "scoring and game as in standard, each player scoring for itself",
    and §8 renege-penalty on it: "3 of the reneging side's books go to the other side; if it
    took fewer than 3, the hand is scored as if the other side took all 13".  Two players each
    alone are two sides, so the house rule applies (it was refused as needing partnerships)."""
    rules = load_ruleset("two-handed", ("renege-penalty",))
    assert rules.renege == "penalty" and rules.sides == 2

    def reneged() -> HandState:
        state = act(new_hand(rules, *TWO_RENEGE, dealer=1), "3 uptown", "pass", "trump D",
                    "2H", "2D", "2C", "3H", "4S", "5S", "6S")
        assert "3S" in {rules.cards[c] for c in state.hands[1]}
        act(state, "4H")  # seat 1 holds 3S and does not follow: the renege stands
        assert state.reneges == [1] and state.tricks[-1].winner == 0
        return state

    state = reneged()
    apply_claim(state, 5)  # player 0: the discards, the first trick and 5 more; player 1: 6
    assert state.books == [10, 3] and state.made is True and state.score == [4, 0]
    again = replay_hand(rules, {**hand_record(state, "two-handed", ["renege-penalty"]), "claim": 5}).state
    assert (again.books, again.score, again.reneges) == (state.books, state.score, [1])
    short = reneged()
    apply_claim(short, 9)  # player 1 took only 2 books: as if player 0 took all 13
    assert short.books == [13, 0] and short.score == [7, 0]
    # Three players each alone have no one "other side": still refused there.
    with pytest.raises(CompileError, match="needs two sides, not 3 players each alone"):
        load_ruleset("cutthroat", ("renege-penalty",))


def test_two_handed_cards_set_aside_must_make_up_the_deck():
    result = run("rules", "two-handed", "--set", "deal.undealt=20")
    out = result.stdout + result.stderr
    assert result.exit_code == 1
    assert "the deal uses 50 cards (2 players x 12 + kitty 6 + 20 set aside) but the deck has 54" in out
    assert "set 24 cards aside (deal.undealt)" in out
    partners = run("rules", "two-handed", "--set", "sides=partners")
    assert partners.exit_code == 1
    assert "sides: partners needs at least 4 players" in partners.stdout + partners.stderr


# ============================================================================ rules and diff
@pytest.mark.parametrize("spec, lines", [
    ("standard+no-red-deuces", ["The deck: 50 cards and the jokers BJ, LJ (52 cards).",
                                "Taken out of the deck: 2H and 2D.",
                                "Each player gets 12 cards; 4 go face down to the kitty."]),
    ("standard+notrump-from-4", ["A bid of notrump must be from 4 to 7.",
                                 "The bids, lowest first: 3 uptown = 3 downtown < 4 uptown = 4 downtown < 4 notrump"]),
    ("standard+deal-right", ["the deal passes to the right after each hand (the calls and the play still go to "
                             "the left)."]),
    ("standard+seven-set-loses", ["- **A side loses** when any of these holds (the other side then wins):",
                                  "  - set-on-seven: `last_declarer and last_bid == 7 and not last_made`",
                                  "- `last_bid`: the number bid in the hand just played"]),
    ("standard+ten-hands", ["`played >= 10 and score > opponent_score`", "- **A side loses** only when another wins.",
                            "- `played`: hands played with a contract in this game"]),
    ("two-handed", ["Two players, each playing alone (seats 0 and 1)",
                    "The other 24 cards are set aside face down, unseen, and take no part in the hand."]),
])
def test_rulebook_says_the_rule(spec, lines):
    result = run("rules", spec)
    assert result.exit_code == 0
    for line in lines:
        assert line in result.stdout, line


@pytest.mark.parametrize("b, rows", [
    ("standard+no-red-deuces", ["deck: 54 cards -> 52 cards (no 2H, 2D)",
                                "cards taken out of the deck: none -> 2H, 2D", "kitty: 6 cards -> 4 cards"]),
    ("standard+notrump-from-4", ["strain notrump bid at: the auction's levels -> 4 to 7"]),
    ("standard+deal-right", ["deal passes: to the left -> to the right"]),
    ("standard+seven-set-loses", ["game lost when (set-on-seven): none -> "
                                  "`last_declarer and last_bid == 7 and not last_made`"]),
    ("standard+ten-hands", ["game won when: `score >= target` -> `played >= 10 and score > opponent_score`",
                            "game lost when: `score <= -target` -> `false`"]),
    ("two-handed", ["players: 4 -> 2", "sides: partnerships -> each alone",
                    "cards set aside unseen: 0 cards -> 24 cards"]),
])
def test_diff_names_the_change(b, rows):
    result = run("diff", "standard", b)
    assert result.exit_code == 0
    for row in rows:
        assert row in result.stdout, row
    assert len([line for line in result.stdout.splitlines() if line and not line.startswith(" ")]) == len(rows)


# ============================================================================ big-joker-notrump
# STD_LONG's deal: seat 1 (hearts A..4 and 2S) wins 4 notrump and takes the jokers from the
# kitty; it lays away 2C and 4H..8H, keeping AH..9H, 2H, 3H, 2S, 2D, BJ and LJ.
BJ_KEEP_DISCARDS = ("2C", "4H", "5H", "6H", "7H", "8H")


def bj_notrump(rules) -> HandState:
    """STD_LONG in 4 notrump uptown by seat 1, at its first lead."""
    state = act(new_hand(rules, *STD_LONG), "pass", "4 notrump", "pass", "pass", "direction uptown",
                *BJ_KEEP_DISCARDS)
    assert state.phase_name == "play" and state.current_player() == 1
    return state


def test_big_joker_notrump_wins_when_void_must_follow_when_able_little_joker_worthless():
    for spec, bj_wins in (((), False), (("big-joker-notrump",), True)):
        state = bj_notrump(house(*spec))
        act(state, "LJ", "3D", "3C", "AS")          # the little joker led: 3D sets diamonds and wins
        assert state.tricks[-1].winner == 2
        act(state, "AD", "4C", "KS")
        assert legal(state) == {"2D"}                # seat 1 holds a diamond: the big joker must wait
        act(state, "2D")
        act(state, "KD", "5C", "QS")
        assert "BJ" in legal(state)                  # void in diamonds: the big joker may be played
        act(state, "BJ")
        assert state.tricks[-1].winner == (1 if bj_wins else 2), spec


def test_big_joker_notrump_wins_when_led_and_the_next_card_of_a_suit_sets_the_suit():
    for spec, winner in (((), 2), (("big-joker-notrump",), 1)):
        state = bj_notrump(house(*spec))
        act(state, "BJ")
        assert legal(state) == hand(state, 2)         # nothing to follow yet
        act(state, "3D", "3C", "AS")
        assert state.tricks[-1].winner == winner, spec


def test_big_joker_notrump_a_top_card_played_after_a_trump_lead_and_after_a_suit_led_by_others():
    rules = house("big-joker-notrump")
    table = rules.tables[(-1, 0)]
    bj, lj = rules.card_id("BJ"), rules.card_id("LJ")
    assert table.suit_of[bj] == TOP_SUIT and table.suit_of[lj] == NO_SUIT
    ah, ks = rules.card_id("AH"), rules.card_id("KS")
    # The one definition of the winner: the top card over any card, led or not.
    assert winning_index(table, 1, [ah, bj, lj]) == 1
    assert winning_index(table, NO_SUIT, [bj, lj]) == 0
    assert winning_index(table, 0, [lj, ks, bj]) == 2
    keys = strength_keys(table)
    assert keys[bj] > max(k for c, k in enumerate(keys) if c != bj) and keys[lj] == -1
    # Suit contracts are standard's: both jokers the top trumps.
    standard = house()
    for key, suit_table in rules.tables.items():
        if key[0] >= 0:
            assert suit_table == standard.tables[key]


def test_big_joker_notrump_with_free_jokers_the_big_joker_may_be_played_when_able_to_follow():
    rules = house("big-joker-notrump", "jokers-free-in-notrump")
    state = bj_notrump(rules)
    act(state, "LJ", "3D", "3C", "AS", "AD", "4C", "KS")
    assert legal(state) == {"2D", "BJ"}            # free: a top card too may be played instead of following
    act(state, "BJ")
    assert state.tricks[-1].winner == 1


def test_big_joker_notrump_bots_and_the_solver_agree_with_brute_force():
    import test_solver as ts
    rng = random.Random("big-joker")
    rules = house("big-joker-notrump")
    bj = rules.card_id("BJ")
    checked = 0
    while checked < 12:
        state = ts.endgame("standard+big-joker-notrump", "notrump", None, rng.choice(["uptown", "downtown"]), rng,
                           3, extra=checked % 4)
        if state.phase != ts.PLAY or not any(bj in h for h in state.hands):
            continue
        assert solve(state) == ts.brute_force(state)
        side = rules.side_of[state.declarer]
        here = state.books_so_far()[side]
        for action, value in solve_actions(state).items():
            child = state.clone()
            child.apply_action(action)
            assert value == child.books_so_far()[side] - here + ts.brute_force(child)
        checked += 1


def test_a_top_card_in_suit_contracts_is_refused_by_the_solver_with_the_reason(tmp_path):
    rule = tmp_path / "top-suit.yaml"
    rule.write_text("name: top-suit\nkind: house-rule\ndescription: x\nsource: x\n"
                    "play:\n  roles:\n    suit: {LJ: top}\n")
    from bidcompiler.pipeline import load_ruleset as load
    rules = load("standard", (str(rule),))
    state = act(new_hand(rules, *STD_LONG), "4 uptown", "pass", "pass", "pass", "trump H",
                "2H", "3H", "2D", "2C", "3S", "4S")
    act(state, "LJ")
    assert legal(state) == hand(state, 1)               # a top card sets no suit to follow
    act(state, "AH", "AD", "AC")
    assert state.tricks[-1].winner == 0                 # the top card over the ace of trumps
    with pytest.raises(UnsupportedContract, match="trump suit and cards of the role top"):
        solve(state)


def test_analyze_gives_double_dummy_numbers_for_a_big_joker_notrump_hand(tmp_path):
    # Seat 1 can cash six top hearts, 2H and 3H (nobody else holds a heart) and, with the
    # rule, the big joker: 9 tricks and the discards' book; without it, 8 and the book.
    for spec, reach in ((["big-joker-notrump"], 10), ([], 9)):
        state = bj_notrump(house(*spec))
        assert state.books_so_far()[1] + solve(state) == reach
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        record = tmp_path / "bj.json"
        record.write_text(json.dumps(hand_record(state, "standard", spec)))
        result = run("analyze", "--json", str(record))
        assert result.exit_code == 0, result.stdout + result.stderr
        assert json.loads(result.stdout)["positions"][0]["dd_declaring_books"] == reach, spec


# ============================================================================ spades-trump
def test_spades_trump_a_downtown_bid_plays_with_spades_trump_without_a_trump_call(tmp_path):
    rules = house("spades-trump")
    state = act(new_hand(rules, *STD_LONG), "pass", "4 downtown", "pass", "pass")
    # No trump to name: seat 1 goes straight to the kitty.
    assert state.phase_name == "discard" and state.current_player() == 1
    assert state.contract["trump"] == "S" and state.contract["direction"] == "downtown"
    assert not any(name.startswith("trump ") for name in legal(state))
    act(state, *BJ_KEEP_DISCARDS)
    act(state, "AH", "3D", "3C")
    act(state, "3S")                                  # seat 0, out of hearts, ruffs with a small spade
    assert state.tricks[-1].winner == 0               # spades ruff the ace of hearts
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = hand_record(state, "standard", ["spades-trump"])
    assert "declare" not in record                    # the declarer said nothing about trump
    replayed = replay_hand(rules, record)
    assert replayed.state.contract["trump"] == "S" and replayed.state.history == state.history
    path = tmp_path / "spades.json"
    path.write_text(json.dumps(record))
    text = run("replay", str(path))
    assert text.exit_code == 0, text.stdout + text.stderr
    assert "4 downtown by seat 1 (side 1+3), spades trump, downtown" in text.stdout
    data = json.loads(run("replay", "--json", str(path)).stdout)
    assert data["contract"]["trump"] == "S"


def test_spades_trump_notrump_is_standard_and_the_bots_never_name_a_suit():
    rules = house("spades-trump")
    state = act(new_hand(rules, *STD_LONG), "pass", "4 notrump", "pass", "pass")
    assert legal(state) == {"direction uptown", "direction downtown"}
    for seed in range(30):
        played = play_hand(rules, 7, seed, "heuristic")
        contract = played.contract
        if contract is not None and contract["strain"] != "notrump":
            assert contract["trump"] == "S"
        assert not any(rules.action_names[a].startswith("trump ") for _, a in played.history)


# ============================================================================ sport-kitty-always
def test_sport_kitty_always_shows_the_kitty_in_notrump_after_the_auction_not_during_it():
    for spec, shown in (((), False), (("sport-kitty",), False), (("sport-kitty-always",), True)):
        rules = house(*spec)
        state = act(new_hand(rules, *STD_LONG), "pass", "4 notrump", "pass")
        assert all(state.observation(s)["kitty"] is None for s in range(4))   # during the auction
        act(state, "pass")                                                    # the auction is won
        assert state.phase_name == "declare"
        kitties = [state.observation(s)["kitty"] for s in range(4)]
        assert kitties == ([sorted(STD_LONG[1], key=rules.card_id)] * 4 if shown else [None] * 4), spec
        assert all(state.kitty_visible_to(s) == shown for s in (0, 2, 3))
        act(state, "direction uptown", *BJ_KEEP_DISCARDS)
        assert (state.observation(2)["kitty"] is not None) == shown


def test_sport_kitty_always_the_other_seats_deal_the_unseen_cards_knowing_the_kitty():
    from runtime.bots.dealing import HIDDEN, _View
    for spec, shown in (((), False), (("sport-kitty-always",), True)):
        rules = house(*spec)
        state = act(new_hand(rules, *STD_LONG), "pass", "4 notrump", "pass", "pass", "direction uptown",
                    *BJ_KEEP_DISCARDS)
        view = _View(state, 0)
        assert view.kitty_known == shown
        # Seen in the kitty, the jokers are with the declarer (or among its discards), never with seats 2, 3.
        for card in ("BJ", "LJ"):
            where = view.base.get(rules.card_id(card), view.full)
            places = {view.slots[i] for i in range(len(view.slots)) if where >> i & 1}
            assert (places <= {1, HIDDEN}) == shown, (spec, card, places)


# ============================================================================ the new settings' checks, rulebook, diff, syntax
def test_roles_and_fixed_trumps_and_kitty_show_are_checked_with_positions(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nkind: house-rule\ndescription: x\nsource: x\n"
                   "play:\n  roles:\n    notrump: {XJ: top, LJ: best}\n"
                   "auction:\n  strains:\n    - {name: uptown, trump: H, direction: uptown}\n"
                   "    - {name: downtown, trump: X, direction: downtown}\n")
    result = run("rules", "standard", "--with", str(bad))
    out = result.stdout + result.stderr
    assert result.exit_code == 1
    assert "bad.yaml:7:" in out and "expected a role (top), found 'best'" in out
    assert "bad.yaml:11:" in out and "'X' is not one of" in out
    bad.write_text("name: bad\nkind: house-rule\ndescription: x\nsource: x\n"
                   "play:\n  roles:\n    notrump: {XJ: top}\n"
                   "deck:\n  suits: [S, D, C]\ndeal: {hand: 9, kitty: 5}\n"
                   "auction:\n  strains:\n    - {name: uptown, trump: H, direction: uptown}\n"
                   "    - {name: notrump, trump: none, direction: uptown}\n  ranking: [[uptown], [notrump]]\n"
                   "kitty:\n  show: {when: deal, contracts: [suit]}\n")
    result = run("rules", "standard", "--with", str(bad))
    out = result.stdout + result.stderr
    assert result.exit_code == 1
    assert "bad.yaml:7:" in out and "play.roles.notrump gives XJ the role top, but XJ is not in the deck" in out
    assert "bad.yaml:13:" in out and "strain 'uptown' fixes trump H, which is not a suit of the deck (S, D, C)" in out
    assert "bad.yaml:17:" in out and "kitty.show: contracts has no effect with when: deal" in out


@pytest.mark.parametrize("spec, lines", [
    ("standard+big-joker-notrump", [
        "In no trump BJ (the big joker) is the highest card of every trick it is played to: it follows no suit, "
        "may be led, and otherwise may be played only by a player who cannot follow the suit led; it wins the "
        "trick.",
        "In a suit contract BJ and LJ are the highest trumps",
        "In no trump the joker LJ belongs to no suit and never wins."]),
    ("standard+spades-trump", ["- **uptown**: spades are always trump (the declarer names no suit); played uptown.",
                               "- **downtown**: spades are always trump (the declarer names no suit); played "
                               "downtown."]),
    ("standard+sport-kitty-always", ["After the auction the kitty is shown to all, in every contract (no trump "
                                     "included), before the declarer takes it."]),
])
def test_rulebook_says_the_card_role_the_fixed_trump_and_the_kitty_shown(spec, lines):
    result = run("rules", spec)
    assert result.exit_code == 0
    for line in lines:
        assert line in result.stdout, line


@pytest.mark.parametrize("b, rows", [
    ("standard+big-joker-notrump", ["card roles: none -> in notrump: BJ the highest card of every trick"]),
    ("standard+spades-trump", ["strain uptown trump: a trump suit -> spades, fixed",
                               "strain downtown trump: a trump suit -> spades, fixed"]),
    ("standard+sport-kitty-always", ["kitty shown: never -> after the auction, in every contract"]),
    ("standard+sport-kitty", ["kitty shown: never -> in suit contracts"]),
])
def test_diff_names_the_new_settings(b, rows):
    result = run("diff", "standard", b)
    assert result.exit_code == 0
    for row in rows:
        assert row in result.stdout, row
    assert len([line for line in result.stdout.splitlines() if line and not line.startswith(" ")]) == len(rows)


@pytest.mark.parametrize("rule", ["big-joker-notrump", "spades-trump", "sport-kitty-always"])
def test_the_new_settings_in_whist_syntax_convert_both_ways_to_the_same_rules(rule, tmp_path):
    from bidcompiler.resources import variants_dir
    whist = tmp_path / f"{rule}.whist"
    result = run("convert", str(variants_dir() / f"{rule}.yaml"), "--to", "whist")
    assert result.exit_code == 0
    whist.write_text(result.stdout)
    back = tmp_path / f"{rule}.yaml"
    again = run("convert", str(whist), "--to", "yaml")
    assert again.exit_code == 0
    back.write_text(again.stdout)
    compiled = [json.loads(run("compile", "standard", "--with", str(path), "--json").stdout)
                for path in (whist, back)]
    shipped = json.loads(run("compile", f"standard+{rule}", "--json").stdout)
    for data in compiled + [shipped]:
        data.pop("house_rules")
        data.pop("name", None)
    assert compiled[0] == compiled[1] == shipped


def test_card_roles_in_whist_syntax_name_cards_as_keys(tmp_path):
    rule = tmp_path / "tops.whist"
    rule.write_text("house-rule tops\ndescription x\nsource x\n"
                    "play { roles { notrump { BJ top; LJ top }; suit { 2S top } } }\n")
    from bidcompiler.pipeline import load_ruleset as load
    rules = load("standard", (str(rule),))
    nt, suit = rules.tables[(-1, 0)], rules.tables[(1, 0)]
    bj, lj, two = rules.card_id("BJ"), rules.card_id("LJ"), rules.card_id("2S")
    assert nt.suit_of[bj] == nt.suit_of[lj] == TOP_SUIT and nt.power[bj] > nt.power[lj]
    assert suit.suit_of[two] == TOP_SUIT and suit.suit_of[bj] == 1   # BJ stays a trump there


@pytest.mark.parametrize("rule", ["big-joker-notrump", "spades-trump", "sport-kitty-always"])
def test_simulate_200_hands_with_the_rule(rule):
    result = run("simulate", f"standard+{rule}", "--hands", "200")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "200" in result.stdout

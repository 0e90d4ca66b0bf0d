"""Findings of a close reading of rules.md against what ships, one test per finding.

Each test quotes the spec line that decides it.  The hand-by-hand agreement of the
engine with a second reading of the spec is ``tests/test_spec_oracle.py``; the rules
one by one on hand-made deals are ``test_rules_standard.py``, ``test_rules_variants.py``
and ``test_real_table_rules.py``.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import compile_file, load_ruleset
from runtime.game import GameState, GameTally
from test_real_table_rules import cards_of, new_hand
from test_rules_variants import act, last_trick
from tests.clirun import run


# ============================================================================ the first dealer
def test_the_first_dealer_is_a_default_a_user_can_change(tmp_path):
    """rules.md, preamble: "Every decision below is a default of a shipped variant file, never
    a constant in the engine: a user must be able to change each one in data", and §1
    "First dealer random" — so a variant may name the seat that deals first instead."""
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text("name: fixed\nextends: standard\ndeal:\n  first_dealer: 2\n")
    rules = load_ruleset(str(fixed))
    assert {GameState(rules, seed).hand.dealer for seed in range(30)} == {2}
    # standard itself still draws it: every seat deals first in some game.
    standard = load_ruleset("standard")
    assert {GameState(standard, seed).hand.dealer for seed in range(30)} == {0, 1, 2, 3}
    # The rest of the game is as ever: the deal passes to the left.
    game = GameState(rules, 5)
    while len(game.history) < 2:
        game.apply_action(game.legal_actions()[0])
    assert [h.dealer for h in game.history] == [2, 3]

    result = run("rules", str(fixed))
    assert result.exit_code == 0
    assert "Seat 2 deals the first hand; the deal passes to the left after each hand." in result.output
    assert "The first dealer is chosen at random" in run("rules", "standard").output
    diff = run("diff", "standard", str(fixed))
    assert "first dealer: random -> 2" in diff.output


def test_the_first_dealer_in_whist_syntax_and_a_seat_that_does_not_exist(tmp_path):
    """A seat number in either syntax; a seat past the players is a positioned error."""
    whist = tmp_path / "fixed.whist"
    whist.write_text("variant fixed\nextends standard\ndeal { first_dealer 1 }\n")
    assert compile_file(whist).deal.first_dealer == 1
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nextends: two-handed\ndeal:\n  first_dealer: 2\n")
    with pytest.raises(CompileError) as info:
        compile_file(bad)
    message = str(info.value)
    assert "bad.yaml:4:17" in message and "seat 2 does not exist: the seats are 0 to 1" in message
    result = run("rules", str(bad))
    assert result.exit_code == 1 and "first_dealer" in result.output


# ============================================================================ a side that loses does not win
def _result(rules, declarer: int, made: bool, score: list[int], level: int = 4):
    """A finished hand as the game tally reads it (what GameView.winner_after passes too)."""
    bid = next(i for i, b in enumerate(rules.bids) if b.level == level)
    return SimpleNamespace(score=score, books=[7, 6] if made else [6, 7], declarer=declarer, bid=bid,
                           made=made, dealer=3, calls=[])


def test_a_side_set_for_the_third_time_loses_even_when_ten_hands_would_give_it_the_game():
    """rules.md §8 two-sets: "a side set for the third time in a game loses it" (seed 000: "loses
    the game automatically, whatever the results"), and the rulebook says of every losing
    condition "the other side then wins".  Under ten-hands the side still ahead after its
    third set on the tenth hand used to win; it loses."""
    rules = load_ruleset("standard", ("ten-hands", "two-sets"))
    tally = GameTally(rules)
    for _ in range(7):
        tally.add_hand(_result(rules, 0, True, [3, 0]))
    tally.add_hand(_result(rules, 0, False, [-4, 0]))
    tally.add_hand(_result(rules, 0, False, [-4, 0]))
    assert (tally.totals, tally.sets, tally.winner) == ([13, 0], [2, 0], None)
    tally.add_hand(_result(rules, 0, False, [-4, 0]))  # the tenth hand: side 0 ahead 9 to 0, set a third time
    assert tally.totals == [9, 0] and tally.winner == 1
    assert "the side has been set at least 3 times; the other side then wins" in run(
        "rules", "standard", "--with", "ten-hands", "--with", "two-sets").output


def test_a_side_set_on_seven_loses_at_once_even_when_ahead_after_ten_hands():
    """rules.md §9 seven-set-loses: "a side set on a bid of 7 loses the game at once"."""
    rules = load_ruleset("standard", ("ten-hands", "seven-set-loses"))
    tally = GameTally(rules)
    for _ in range(9):
        tally.add_hand(_result(rules, 1, True, [0, 2]))
    tally.add_hand(_result(rules, 1, False, [0, -7], level=7))
    assert tally.totals == [0, 11] and tally.winner == 0
    # Set on a lower bid the side ahead wins the ten hands, as ever.
    tally = GameTally(rules)
    for _ in range(9):
        tally.add_hand(_result(rules, 1, True, [0, 2]))
    tally.add_hand(_result(rules, 1, False, [0, -6], level=6))
    assert tally.totals == [0, 12] and tally.winner == 1


# ============================================================================ the rulebook names the kitty's taker
@pytest.mark.parametrize("rule,line", [
    ("jokers-out-in-notrump", "In no trump the jokers BJ, LJ leave play: a joker in the kitty stays out, the "
                              "declarer's partner sets aside any it holds, and each other player swaps each one it "
                              "holds for a random card of the declarer's partner's discards."),
    ("sport-kitty", "In a suit contract the kitty is shown to all once trump is named, before the declarer's "
                    "partner takes it; in no trump it is not shown."),
    ("sport-kitty-always", "After the auction the kitty is shown to all, in every contract (no trump included), "
                           "before the declarer's partner takes it."),
])
def test_the_rulebook_says_who_takes_the_kitty_under_partner_takes_kitty(rule, line):
    """rules.md §9 partner-takes-kitty: "the declarer's partner takes the kitty and lays away the
    same number of cards"; combined with a rule about the kitty, `bidwhist rules` said "the
    declarer" sets its jokers aside / takes the kitty, which the engine does not do."""
    out = run("rules", "standard", "--with", "partner-takes-kitty", "--with", rule).output
    assert line in out
    plain = run("rules", "standard", "--with", rule).output
    assert line.replace("declarer's partner", "declarer") in plain


# ============================================================================ a trick of jokers alone
@pytest.mark.parametrize("led,other", [("BJ", "LJ"), ("LJ", "BJ")])
def test_two_handed_notrump_a_trick_of_both_jokers_goes_to_its_leader(led, other):
    """rules.md §1 "Jokers in no trump: they belong to no suit and never win"; with two players
    a trick can hold both jokers and nothing else.  Neither joker beats the other (the big one
    does not win), so the lead stands — as `bidwhist rules two-handed` says: "A trick made
    only of cards that never win goes to the player who led it"."""
    rules = load_ruleset("two-handed")
    hands = [[led] + cards_of("S", "A", "4"), [other] + cards_of("D", "A", "4")]
    kitty = cards_of("H", "A", "9")
    state = new_hand(rules, hands, kitty, dealer=1)  # seat 0 calls first
    act(state, "3 notrump", "pass", "direction uptown", *kitty, led)
    assert other in {rules.action_names[a] for a in state.legal_actions()}  # a joker led: anything goes
    act(state, other)
    assert last_trick(state) == (0, [led, other], 0)
    assert "A trick made only of cards that never win goes to the player who led it." in run(
        "rules", "two-handed").output


def test_a_strain_bid_outside_the_auction_levels_is_refused():
    # notrump-from-4 (rules.md §9: "a notrump bid must be at least 4 ... the other strains keep
    # levels 3-7") is written for over-six bids; on cutthroat (bids 7-18 books outright) it
    # would offer 4-6 notrump, bids no rule prices.  The pair is refused where it is written.
    with pytest.raises(CompileError) as info:
        load_ruleset("cutthroat", ("notrump-from-4",))
    message = str(info.value)
    assert "shipped 'notrump-from-4', line 12: strain 'notrump' is bid from 4 to 18, outside the auction's levels 7 to 18" \
        in message
    assert "auction.levels at shipped 'cutthroat', line 23" in message
    load_ruleset("standard", ("notrump-from-4",))  # within standard's 3-7: fine

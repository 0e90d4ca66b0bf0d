"""rules.md §8-§9 (and §1's scoring and auction) read afresh, sentence by sentence (audit 16).

Each test is named for the spec sentence it checks and quotes it; the expected figures are
worked out from the sentence, not read back from the engine. Most sentences probed in this
audit were already right and already tested elsewhere; the tests here pin the ones that were
not, or that were wrong.
"""

from __future__ import annotations

import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import load_ruleset
from tests.clirun import run
from tests.test_spec_rules_hands import illegal, ok, record, suited, won_first


# ============================================================================ §8 no-jokers, no-kitty
# §8 "`no-jokers`: 52 cards, kitty of 4 (003). `no-kitty`: 52 cards, 13 each, bids from 1 (003)";
# docs/rule-combinations.md: "A later rule that removes what an earlier one set ... the later rule
# holds" (`standard+jokers-free-in-notrump+no-jokers` has no jokers to free). The big joker's
# notrump role (§9 big-joker-notrump) is a setting of the jokers like the others: a later rule
# that deals no jokers takes it away with them. Before, the pair was refused ("BJ is not in the
# deck") where its mirror with jokers-free-in-notrump was accepted.
@pytest.mark.parametrize("no_jokers", ["no-jokers", "no-kitty"])
def test_no_jokers_52_cards_a_later_rule_without_jokers_takes_the_big_jokers_role_away(no_jokers):
    """standard+big-joker-notrump+no-jokers is standard+no-jokers (and so for no-kitty); the other
    order, a role for a card the deck no longer has, is still refused."""
    later = load_ruleset("standard", ("big-joker-notrump", no_jokers))
    assert later == load_ruleset("standard", (no_jokers,))
    assert "BJ" not in later.cards and "LJ" not in later.cards
    with pytest.raises(CompileError, match="BJ is not in the deck"):
        load_ruleset("standard", (no_jokers, "big-joker-notrump"))


def test_no_jokers_after_big_joker_notrump_a_notrump_hand_plays_without_jokers(tmp_path):
    """The same, as a record: 52 cards, a kitty of 4, and a 4 notrump hand scored as §1 says
    (1 trick + the discards' book + 9 claimed = 11 books: 5 over, doubled = 10)."""
    out = ok(tmp_path, won_first("standard", 0, "4 notrump", {"trump": None, "direction": "uptown"}, 9,
                                 with_=("big-joker-notrump", "no-jokers"), kitty="2H 2S 2D 2C"))
    assert out["books"] == [11, 2] and out["score"] == [10, 0]
    hands, kitty = suited("2H 2S 2D 2C BJ LJ")
    bad = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"],
                 with_=("big-joker-notrump", "no-jokers"), in_progress=True)
    err = illegal(tmp_path, bad)  # a deal holding the jokers is no deal of this game
    assert err["at"] == "kitty" and "'BJ', which is not a card of this deck" in err["message"]


# ============================================================================ §9 no-red-deuces
# §9 "`no-red-deuces`: the deck drops 2H and 2D (50 cards and both jokers: 52 in all); 12 each
# and a kitty of 4." Read: a drop from the deck it is laid on (docs/rule-combinations.md), so a
# rule that changes the jokers does not fit it unless the deal still adds up.
@pytest.mark.parametrize("deck_rule, cards", [("one-joker", 51), ("deuce-of-spades", 51), ("no-jokers", 50)])
def test_no_red_deuces_the_deck_drops_2h_and_2d_of_the_deck_it_is_laid_on(deck_rule, cards):
    """After one joker (or none), dropping the red deuces leaves 51 (50) cards for a deal of 52:
    refused, saying both counts; the deuces do not come back in the other order either."""
    with pytest.raises(CompileError, match=rf"the deal uses 52 cards .* but the deck has {cards}\b"):
        load_ruleset("standard", (deck_rule, "no-red-deuces"))
    with pytest.raises(CompileError, match="the deal uses"):
        load_ruleset("standard", ("no-red-deuces", deck_rule))


def test_no_red_deuces_after_jokers_and_deuce_both_jokers_52_cards_2s_third_trump():
    """jokers-and-deuce then no-red-deuces: both jokers stay, 50 + 2 = 52 cards, a kitty of 4,
    and 2S is still the third trump (no-red-deuces says nothing of the trumps)."""
    rules = load_ruleset("standard", ("jokers-and-deuce", "no-red-deuces"))
    names = set(rules.cards)
    assert len(names) == 52 and {"BJ", "LJ", "2S"} <= names and not {"2H", "2D"} & names
    assert rules.kitty_size == 4
    text = run("rules", "standard+jokers-and-deuce+no-red-deuces").stdout
    assert "In a suit contract BJ, LJ and 2S are the highest trumps, in that order" in text


# ============================================================================ §9 spades-trump with §8 deuce-of-spades
# §9 "`spades-trump`: spades are always trump in a suit contract; an uptown or downtown bid names
# only the direction"; §8 "`deuce-of-spades`: one joker (`BJ`), and `2S` is the second-highest
# trump in suit contracts ... kitty of 5". Together: spades trump, BJ > 2S > the spade ace, in
# either direction (in downtown the ace would otherwise be the top spade, the deuce second).
@pytest.mark.parametrize("bid", ["4 uptown", "4 downtown"])
def test_spades_trump_spades_are_always_trump_and_the_deuce_of_spades_is_second(tmp_path, bid):
    """Seat 0 takes the kitty (2H 2S 2D 2C BJ), keeps 2S and BJ, and leads 2S: seat 1 must follow
    with a spade and plays AS; 2S wins. Then BJ beats AS's next spade, KS."""
    hands, kitty = suited("2H 2S 2D 2C BJ")
    rec = record("standard", hands, kitty, [bid, "pass", "pass", "pass"], with_=("spades-trump", "deuce-of-spades"),
                 discard="2H 2D 2C 3H 4H".split(), play=["2S", "AS", "3D", "3C", "BJ", "KS", "4D", "4C"], claim=10)
    out = ok(tmp_path, rec)
    assert out["contract"]["trump"] == "S"
    assert [t["winner"] for t in out["tricks"]] == [0, 0]
    # 2 tricks + the discards' book + 10 claimed = 13 books: 7 over
    assert out["books"] == [13, 0] and out["score"] == [7, 0]


# ============================================================================ §9 big-joker-notrump with §8 renege-penalty
# §9 big-joker-notrump: the big joker "may be played like any joker there: led, or when void; it
# wins"; §1 a joker in notrump "may be played to a trick only when the player cannot follow";
# §8 renege-penalty: "a renege stands and is scored: 3 of the reneging side's books go to the
# other side; if it took fewer than 3, the hand is scored as if the other side took all 13".
@pytest.mark.parametrize("claim, books, score", [
    (10, [13, 0], [14, 0]),   # side 1 took 2 books (fewer than 3): as if side 0 took all 13, 7 over doubled
    (8, [12, 1], [12, 0]),    # side 1 took 4 books: 3 go over, 12 - 1, 6 over doubled
])
def test_big_joker_notrump_thrown_while_able_to_follow_is_a_renege_that_stands_and_still_wins(
        tmp_path, claim, books, score):
    """Seat 1 holds BJ and spades; on seat 0's 2S it throws BJ: a renege, which stands, so the big
    joker wins the trick; seat 1 wins the next with AS. The declaring side then claims ``claim``."""
    hands, kitty = suited()
    hands[1][hands[1].index("3S")], kitty[kitty.index("BJ")] = "BJ", "3S"
    hands[2][hands[2].index("3D")], kitty[kitty.index("LJ")] = "LJ", "3D"   # kitty: 2H 2S 2D 2C 3S 3D
    rec = record("standard", hands, kitty, ["4 notrump", "pass", "pass", "pass"],
                 with_=("big-joker-notrump", "renege-penalty"), declare={"trump": None, "direction": "uptown"},
                 discard="2H 2C 3S 3H 4H 5H".split(), play=["2S", "BJ", "4D", "3C", "AS", "5D", "4C", "6H"],
                 claim=claim)
    out = ok(tmp_path, rec)
    assert out["reneges"] == [{"at": "play[1]", "seat": 1, "suit": "S"}]
    assert [t["winner"] for t in out["tricks"]] == [1, 1]
    assert out["books"] == books and out["score"] == score


# ============================================================================ §8 the deck rules after no-kitty
# §8 "`one-joker`: 53 cards (the joker kept is `BJ`), kitty of 5 ... `no-kitty`: 52 cards, 13
# each, bids from 1". Read: a deck rule states the jokers and the kitty, not the hand
# (docs/rule-combinations.md), so after no-kitty's 13 each its kitty does not fit: refused, as on
# the games of 13 each; before no-kitty, no-kitty's deal holds.
@pytest.mark.parametrize("deck_rule, deal, cards", [
    ("one-joker", 57, 53), ("no-jokers", 56, 52), ("deuce-of-spades", 57, 53), ("jokers-and-deuce", 58, 54)])
def test_no_kitty_13_each_then_a_deck_rule_with_a_kitty_is_refused(deck_rule, deal, cards):
    """standard+no-kitty+RULE: 4 x 13 and the rule's kitty against its deck; standard+RULE+no-kitty
    is standard+no-kitty."""
    with pytest.raises(CompileError, match=rf"the deal uses {deal} cards \(4 players x 13 \+ kitty \d\) "
                                           rf"but the deck has {cards}\b"):
        load_ruleset("standard", ("no-kitty", deck_rule))
    assert load_ruleset("standard", (deck_rule, "no-kitty")) == load_ruleset("standard", ("no-kitty",))

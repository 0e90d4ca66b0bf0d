"""Unit tests of the plain reference implementation of standard Bid Whist
(``tests/plain_standard.py``) on hand-made deals."""

import random

import pytest

from plain_standard import RANKS, SUITS, PlainHand, full_deck, play_random_hand


def _run(suit, high, low):
    """Cards of one suit from rank ``high`` down to rank ``low`` (uptown)."""
    return [r + suit for r in reversed(RANKS[RANKS.index(low): RANKS.index(high) + 1])]


def _long_suits_deal():
    """Each seat holds (nearly) one suit; dealer 3, so seat 0 calls first.

    seat 0: AS..3S   seat 1: AH..4H + 2S   seat 2: AD..3D   seat 3: AC..3C
    kitty:  2H 3H 2D 2C BJ LJ
    """
    hands = [
        _run("S", "A", "3"),
        _run("H", "A", "4") + ["2S"],
        _run("D", "A", "3"),
        _run("C", "A", "3"),
    ]
    kitty = ["2H", "3H", "2D", "2C", "BJ", "LJ"]
    return hands, kitty, 3


def _mixed_deal(seat1_spade=False):
    """A deal where seats 0 and 1 hold one joker each (dealer 3).

    seat 0: BJ AS..4S            seat 1: LJ AH..5H + (4H or 2S)
    seat 2: AD..4D 3H            seat 3: AC..4C 3D
    kitty:  the rest (3S, 2H, 2D, 3C, 2C and 2S or 4H)
    """
    extra1, extra_kitty = ("2S", "4H") if seat1_spade else ("4H", "2S")
    hands = [
        ["BJ"] + _run("S", "A", "4"),
        ["LJ"] + _run("H", "A", "5") + [extra1],
        _run("D", "A", "4") + ["3H"],
        _run("C", "A", "4") + ["3D"],
    ]
    kitty = ["3S", extra_kitty, "2H", "2D", "3C", "2C"]
    return hands, kitty, 3


def _highest_first(hand):
    """A fixed policy: play the legal action with the highest uptown rank
    (jokers lowest), ties broken by suit order S H D C."""
    def key(card):
        if card in ("BJ", "LJ"):
            return (-1, 0)
        return (RANKS.index(card[0]), -SUITS.index(card[1]))
    return max(hand.legal(), key=key)


def _start(hands, kitty, dealer, calls, declaration, discards):
    hand = PlainHand(hands, kitty, dealer)
    for call in calls:
        hand.play(call)
    hand.play(declaration)
    for card in discards:
        hand.play("discard " + card)
    return hand


def _finish(hand, policy=_highest_first):
    while not hand.is_over():
        hand.play(policy(hand))
    return hand


def test_full_deck():
    deck = full_deck()
    assert len(deck) == 54 == len(set(deck))
    assert deck[:13] == [r + "S" for r in RANKS]
    assert deck[-2:] == ["BJ", "LJ"]


def test_four_notrump_making_eleven_books_scores_ten():
    hands, kitty, dealer = _long_suits_deal()
    hand = _start(hands, kitty, dealer,
                  ["4 notrump", "pass", "pass", "pass"], "direction uptown",
                  ["2D", "2C", "BJ", "LJ", "4S", "3S"])
    assert hand.to_move() == 0 and hand.books == [1, 0]
    _finish(hand)
    assert hand.contract == {"declarer": 0, "side": 0, "bid": 4, "strain": "notrump",
                             "trump": None, "direction": "uptown"}
    # Ten spade tricks, then 3H and 2H lose to seat 1's hearts.
    assert [w for _, _, w in hand.tricks] == [0] * 10 + [1, 1]
    assert hand.books == [11, 2]
    assert hand.score == [10, 0]


def test_four_notrump_taking_eight_books_scores_minus_eight():
    hands, kitty, dealer = _long_suits_deal()
    hand = _start(hands, kitty, dealer,
                  ["4 notrump", "pass", "pass", "pass"], "direction uptown",
                  ["BJ", "7S", "6S", "5S", "4S", "3S"])
    _finish(hand)
    assert [w for _, _, w in hand.tricks] == [0] * 7 + [1] * 5
    # 3H loses to 8H; seat 1 then runs its hearts.  The declarer follows with
    # 2H, then (void) throws its 2D, 2C and finally the little joker.
    assert hand.tricks[7] == (0, ["3H", "8H", "7D", "7C"], 1)
    assert [cards[3] for _, cards, _ in hand.tricks[8:]] == ["2H", "2D", "2C", "LJ"]
    assert hand.books == [8, 5]
    assert hand.score == [-8, 0]


def test_dealer_forced_after_three_passes():
    hand = PlainHand(*_long_suits_deal())
    for _ in range(3):
        assert "pass" in hand.legal()
        hand.play("pass")
    assert hand.to_move() == 3
    legal = hand.legal()
    assert "pass" not in legal
    assert len(legal) == 15 and "3 uptown" in legal and "7 notrump" in legal
    with pytest.raises(ValueError):
        hand.play("pass")
    hand.play("3 downtown")
    assert hand.to_move() == 3
    assert sorted(hand.legal()) == ["trump C", "trump D", "trump H", "trump S"]


def test_uptown_cannot_overcall_downtown_at_same_number():
    hand = PlainHand(*_long_suits_deal())
    hand.play("4 downtown")
    legal = hand.legal()
    assert "4 uptown" not in legal and "4 downtown" not in legal
    assert "4 notrump" in legal and "5 uptown" in legal and "3 notrump" not in legal
    with pytest.raises(ValueError):
        hand.play("4 uptown")
    hand.play("4 notrump")
    legal = hand.legal()
    assert "4 notrump" not in legal and "5 uptown" in legal and "5 downtown" in legal
    hand.play("5 uptown")
    hand.play("pass")  # dealer passes
    assert hand.to_move() == 2  # the highest bidder declares
    assert hand.legal() == ["trump S", "trump H", "trump D", "trump C"]
    hand.play("trump H")
    assert hand.contract["direction"] == "uptown" and hand.contract["trump"] == "H"


def test_discard_phase_and_first_lead():
    hand = PlainHand(*_long_suits_deal())
    for call in ["3 uptown", "pass", "pass", "pass"]:
        hand.play(call)
    hand.play("trump S")
    assert len(hand.legal()) == 18 and "discard BJ" in hand.legal()
    for n, card in enumerate(["2H", "3H", "2D", "2C", "3S", "4S"]):
        assert len(hand.legal()) == 18 - n
        hand.play("discard " + card)
    assert hand.phase == "play" and hand.to_move() == 0
    assert sorted(hand.legal()) == sorted(hand.hand(0)) and "BJ" in hand.legal()
    with pytest.raises(ValueError):
        hand.play("AH")


def test_notrump_joker_led_next_card_sets_suit():
    hands, kitty, dealer = _mixed_deal()
    hand = _start(hands, kitty, dealer, ["3 notrump", "pass", "pass", "pass"],
                  "direction downtown", kitty)
    hand.play("BJ")
    assert sorted(hand.legal()) == sorted(hand.hand(1))  # anything, LJ too
    hand.play("4H")  # sets hearts
    assert hand.legal() == ["3H"]  # seat 2 must follow hearts
    hand.play("3H")
    assert sorted(hand.legal()) == sorted(hand.hand(3))  # void in hearts
    hand.play("AC")
    # Downtown: 3H beats 4H; the joker never wins.
    assert hand.tricks == [(0, ["BJ", "4H", "3H", "AC"], 2)]
    assert hand.to_move() == 2
    # Seat 2 leads 4D; seat 3 must follow with 3D, which wins downtown.
    hand.play("4D")
    assert hand.legal() == ["3D"]
    hand.play("3D")
    assert sorted(hand.legal()) == sorted(hand.hand(0))
    hand.play("AS")
    assert "LJ" in hand.legal()  # seat 1 is void in diamonds
    hand.play("LJ")
    assert hand.tricks[1] == (2, ["4D", "3D", "AS", "LJ"], 3)


def test_notrump_two_jokers_leave_suit_unset():
    hands, kitty, dealer = _mixed_deal()
    hand = _start(hands, kitty, dealer, ["3 notrump", "pass", "pass", "pass"],
                  "direction uptown", kitty)
    hand.play("BJ")
    hand.play("LJ")
    assert sorted(hand.legal()) == sorted(hand.hand(2))  # still anything
    hand.play("3H")  # sets hearts
    assert sorted(hand.legal()) == sorted(hand.hand(3))  # seat 3 void in hearts
    hand.play("AC")
    assert hand.tricks == [(0, ["BJ", "LJ", "3H", "AC"], 2)]


def test_notrump_joker_not_playable_when_able_to_follow():
    hands, kitty, dealer = _mixed_deal(seat1_spade=True)
    hand = _start(hands, kitty, dealer, ["3 notrump", "pass", "pass", "pass"],
                  "direction uptown", kitty)
    hand.play("4S")
    assert hand.legal() == ["2S"]  # holds LJ, but must follow spades
    hand.play("2S")
    hand.play("AD")
    hand.play("AC")
    assert hand.tricks[0][2] == 0


def test_suit_contract_joker_only_trump_must_follow_trump_lead():
    hands, kitty, dealer = _mixed_deal()
    hand = _start(hands, kitty, dealer, ["3 uptown", "pass", "pass", "pass"],
                  "trump S", kitty)
    hand.play("AS")
    assert hand.legal() == ["LJ"]  # seat 1's only trump is the joker
    hand.play("LJ")
    hand.play("AD")
    hand.play("AC")
    assert hand.tricks == [(0, ["AS", "LJ", "AD", "AC"], 1)]  # LJ beats the ace
    # A heart lead: seat 1 holds hearts; seat 2 must follow with 3H.
    hand.play("AH")
    assert hand.legal() == ["3H"]
    hand.play("3H")
    hand.play("KC")
    assert "4S" in hand.legal()  # seat 0 is void in hearts: may trump
    hand.play("4S")
    assert hand.tricks[1] == (1, ["AH", "3H", "KC", "4S"], 0)  # the lowest trump wins


def test_suit_contract_joker_lead_is_trump_lead_downtown():
    hands, kitty, dealer = _mixed_deal(seat1_spade=True)
    hand = _start(hands, kitty, dealer, ["pass", "pass", "pass", "3 downtown"],
                  "trump S", kitty)
    # The forced dealer declared and discarded the kitty back; seat 3 leads.
    assert hand.contract["declarer"] == 3 and hand.contract["direction"] == "downtown"
    assert hand.to_move() == 3 and hand.books == [0, 1]
    hand.play("KC")
    assert sorted(hand.legal()) == sorted(hand.hand(0))  # void in clubs
    hand.play("4S")
    hand.play("2S")  # downtown trumps: 2S beats 4S
    hand.play("AD")
    assert hand.tricks[0] == (3, ["KC", "4S", "2S", "AD"], 1)
    # A joker led is a trump lead: seat 0 must follow with a trump (BJ counts).
    hand.play("LJ")
    hand.play("KD")
    hand.play("QC")
    assert sorted(hand.legal()) == sorted(["BJ"] + _run("S", "A", "5"))
    hand.play("BJ")
    assert hand.tricks[1] == (1, ["LJ", "KD", "QC", "BJ"], 0)  # BJ over LJ
    # Downtown the trump ace stays top: AS beats 5S.
    hand.play("5S")
    hand.play("AH")
    hand.play("QD")
    hand.play("JC")
    assert hand.tricks[2][2] == 0


def test_random_hands_are_consistent():
    rng = random.Random(12345)
    for _ in range(300):
        hand = play_random_hand(rng)
        assert hand.is_over() and hand.to_move() is None and hand.legal() == []
        assert len(hand.tricks) == 12 and sum(hand.books) == 13
        played = [c for _, cards, _ in hand.tricks for c in cards]
        record = hand.record()
        assert sorted(played + record["discard"]) == sorted(full_deck())
        contract = hand.contract
        side = contract["side"]
        assert hand.score[1 - side] == 0
        over = hand.books[side] - 6
        expected = over if over >= contract["bid"] else -contract["bid"]
        if contract["strain"] == "notrump":
            expected *= 2
        assert hand.score[side] == expected
        for i in range(1, 12):
            assert hand.tricks[i][0] == hand.tricks[i - 1][2]
        assert hand.tricks[0][0] == contract["declarer"]

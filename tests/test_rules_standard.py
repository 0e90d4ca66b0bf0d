"""The rules of ``standard`` (rules.md section 1), one test per rule, on hand-made deals.

Each test builds a ``HandState`` from a deal written out card by card, drives it with
named actions (``"3 uptown"``, ``"trump D"``, ``"AS"`` ...) and checks what section 1
says must happen: what is legal, what is refused (rule name, seat and message), who
wins each trick, the books, the score and the end of the game.

The deals (dealer 3 throughout, so seat 0 calls first):

* ``LONG_SUITS``: each seat holds (nearly) one whole suit; the kitty holds both jokers.
* ``JOKERS``: seat 0 holds BJ and spades, seat 1 LJ, hearts and a few black cards (no
  diamonds), seat 2 7H and diamonds, seat 3 clubs and 3D.
* ``SPREAD_SPADES``: the spades spread over all four seats, so that tricks of four
  spades show the rank order.
"""

from __future__ import annotations

import pytest

from bidcompiler.pipeline import load_ruleset
from runtime.errors import IllegalAction
from runtime.game import GameTally
from runtime.hand import HandState
from runtime.records import apply_claim

RULES = load_ruleset("standard")
DEALER = 3


def run(suit: str, high: str, low: str) -> list[str]:
    """Cards of one suit from ``high`` down to ``low`` in uptown order (``run("S","A","3")``)."""
    ranks = "23456789TJQKA"
    return [r + suit for r in reversed(ranks[ranks.index(low): ranks.index(high) + 1])]


LONG_SUITS = (
    [run("S", "A", "3"), run("H", "A", "4") + ["2S"], run("D", "A", "3"), run("C", "A", "3")],
    ["2H", "3H", "2D", "2C", "BJ", "LJ"],
)
JOKERS = (
    [["BJ"] + run("S", "A", "4"),
     ["LJ"] + run("H", "A", "8") + ["3S", "2S", "2C", "3C"],
     ["7H"] + run("D", "A", "4"),
     run("C", "A", "4") + ["3D"]],
    ["6H", "5H", "4H", "3H", "2H", "2D"],
)
SPREAD_SPADES = (
    [["AS", "4S", "8S", "QS"] + run("H", "A", "7"),
     ["2S", "5S", "9S", "KS"] + run("D", "A", "7"),
     ["3S", "6S", "TS"] + run("C", "A", "6"),
     ["7S", "JS"] + run("H", "6", "2") + run("D", "6", "2")],
    ["5C", "4C", "3C", "2C", "BJ", "LJ"],
)


def new_hand(deal) -> HandState:
    hands, kitty = deal
    assert [len(h) for h in hands] == [12] * 4 and len(kitty) == 6
    everything = [c for h in hands for c in h] + kitty
    assert sorted(everything) == sorted(RULES.cards), "a hand-made deal must be the whole deck"
    return HandState(RULES, DEALER, [[RULES.card_id(c) for c in h] for h in hands],
                     [RULES.card_id(c) for c in kitty])


def action(name: str) -> int:
    """The action id of a call, declaration or card, by its name."""
    return RULES.action_names.index(name)


def act(state: HandState, *names: str) -> HandState:
    for name in names:
        state.apply_action(action(name))
    return state


def legal(state: HandState) -> set[str]:
    return {RULES.action_names[a] for a in state.legal_actions()}


def hand(state: HandState, seat: int) -> set[str]:
    return {RULES.cards[c] for c in state.hands[seat]}


def refused(state: HandState, name: str) -> IllegalAction:
    """Apply ``name``, which must be refused; the state must not change."""
    before = (state.phase, state.seat, [list(h) for h in state.hands], list(state.calls), list(state.trick))
    with pytest.raises(IllegalAction) as info:
        state.apply_action(action(name))
    assert (state.phase, state.seat, [list(h) for h in state.hands], list(state.calls), list(state.trick)) == before
    return info.value


def last_trick(state: HandState):
    leader, cards, winner = state.tricks[-1]
    return leader, [RULES.cards[c] for c in cards], winner


def play_first_legal(state: HandState) -> HandState:
    """Finish the hand playing each seat's lowest-id legal card."""
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def declared(deal, auction, declaration, discards) -> HandState:
    """A hand after the auction, the declaration and the six discards."""
    state = act(new_hand(deal), *auction, declaration, *discards)
    assert state.phase_name == "play"
    return state


# ------------------------------------------------------------------ auction
def test_uptown_and_downtown_are_equal_at_one_number():
    """rules.md §1 Auction: at one number uptown and downtown are equal (neither
    overcalls the other) and notrump outranks both: 3u = 3d < 3nt < 4u = 4d < 4nt."""
    state = act(new_hand(LONG_SUITS), "3 uptown")
    assert state.current_player() == 1
    assert "3 downtown" not in legal(state) and "3 uptown" not in legal(state)
    assert {"pass", "3 notrump", "4 uptown", "4 downtown", "7 notrump"} <= legal(state)
    error = refused(state, "3 downtown")
    assert (error.rule, error.seat) == ("bid-too-low", 1)
    assert "seat 1" in error.message and "3 uptown" in error.message
    act(state, "3 notrump")  # notrump overcalls at the same number
    assert "3 notrump" not in legal(state) and "3 uptown" not in legal(state)
    assert refused(state, "3 downtown").rule == "bid-too-low"
    act(state, "4 downtown")
    assert refused(state, "4 uptown").rule == "bid-too-low"
    assert "4 notrump" in legal(state)
    act(state, "4 notrump")
    # Once around: the dealer called last and the highest bidder declares.
    assert state.phase_name == "declare" and state.current_player() == 3
    assert state.contract["bid"] == 4 and state.contract["strain"] == "notrump"

    # The other way round: 3 downtown first, 3 uptown cannot overcall it.
    state = act(new_hand(LONG_SUITS), "3 downtown")
    error = refused(state, "3 uptown")
    assert (error.rule, error.seat) == ("bid-too-low", 1)
    assert "3 notrump" in legal(state)


def test_dealer_must_bid_after_three_passes():
    """rules.md §1 Auction: if the first three pass, the dealer must bid (any bid)."""
    state = act(new_hand(LONG_SUITS), "pass", "pass", "pass")
    assert state.current_player() == DEALER
    assert "pass" not in legal(state)
    assert legal(state) == {f"{n} {s}" for n in range(3, 8) for s in ("uptown", "downtown", "notrump")}
    error = refused(state, "pass")
    assert (error.rule, error.seat) == ("dealer-must-bid", DEALER)
    assert f"seat {DEALER}" in error.message
    act(state, "3 downtown")
    assert state.phase_name == "declare" and state.contract["declarer"] == DEALER

    # With a bid before him the dealer may pass.
    state = act(new_hand(LONG_SUITS), "pass", "4 uptown", "pass")
    assert "pass" in legal(state)
    act(state, "pass")
    assert state.contract["declarer"] == 1 and state.current_player() == 1


def test_declarer_names_trump_for_a_suit_bid_or_the_direction_for_notrump():
    """rules.md §1 Declaration: the winner names trump (the direction is the bid's) or,
    for notrump, the direction; then takes the kitty and discards 6, jokers included."""
    state = act(new_hand(LONG_SUITS), "3 downtown", "pass", "pass", "pass")
    assert legal(state) == {"trump S", "trump H", "trump D", "trump C"}
    assert refused(state, "direction uptown").rule == "declare"
    act(state, "trump S")
    assert state.contract == {"declarer": 0, "side": 0, "bid": 3, "strain": "downtown",
                              "trump": "S", "direction": "downtown"}
    # The kitty joins the declarer's hand: 18 cards, any six may go, jokers included.
    assert state.phase_name == "discard" and state.current_player() == 0
    assert legal(state) == hand(state, 0) and len(hand(state, 0)) == 18
    assert {"BJ", "LJ", "2H"} <= legal(state)
    assert refused(state, "AH").rule == "not-in-hand"
    act(state, "BJ", "LJ", "2H", "3H", "2D", "2C")
    assert state.phase_name == "play" and state.current_player() == 0  # the declarer leads

    state = act(new_hand(LONG_SUITS), "pass", "pass", "pass", "5 notrump")
    assert legal(state) == {"direction uptown", "direction downtown"}
    assert refused(state, "trump S").rule == "declare"
    act(state, "direction downtown")
    assert state.contract["trump"] is None and state.contract["direction"] == "downtown"


# ------------------------------------------------------------------ play, suit contracts
def test_follow_suit_refusal_names_seat_and_suit():
    """rules.md §1 Play: follow suit when able; the engine refuses a renege, and
    records.md's example message names the seat and the cards that follow:
    "seat 2 must follow hearts (holds 7H)".  When void, any card may be played."""
    state = declared(JOKERS, ["3 uptown", "pass", "pass", "pass"], "trump D",
                     ["6H", "5H", "4H", "3H", "4S", "5S"])
    act(state, "2H")
    assert legal(state) == set(run("H", "A", "8"))
    act(state, "8H")
    assert legal(state) == {"7H"}
    error = refused(state, "AD")
    assert error.rule == "follow-suit" and error.seat == 2
    assert error.message == "seat 2 must follow hearts (holds 7H)"
    assert str(error) == "seat 2 must follow hearts (holds 7H)"
    act(state, "7H")
    # Seat 3 has no hearts: anything goes, and its small trump wins the trick.
    assert legal(state) == hand(state, 3)
    act(state, "3D")
    assert last_trick(state) == (0, ["2H", "8H", "7H", "3D"], 3)


@pytest.mark.parametrize("bid", ["3 uptown", "3 downtown"])
def test_jokers_are_the_top_trumps_in_both_directions(bid):
    """rules.md §1 Terms and Play: in a suit contract the jokers are the two highest
    trumps, big over little, above the ace, uptown and downtown alike."""
    discards = ["6H", "5H", "4H", "3H", "4S", "5S"]
    contract = [bid, "pass", "pass", "pass"]
    # BJ over LJ over AD.
    state = act(declared(JOKERS, contract, "trump D", discards), "BJ", "LJ", "AD", "3D")
    assert last_trick(state) == (0, ["BJ", "LJ", "AD", "3D"], 0)
    # Then the trump order of the direction: downtown 2D beats KD, uptown KD beats 2D.
    act(state, "2D", "AH", "KD", "AC")
    assert last_trick(state)[2] == (0 if bid == "3 downtown" else 2)

    # LJ over AD, whatever the direction.
    state = act(declared(JOKERS, contract, "trump D", discards), "2D", "LJ", "AD", "3D")
    assert last_trick(state) == (0, ["2D", "LJ", "AD", "3D"], 1)


def test_joker_led_in_a_suit_contract_is_a_trump_lead():
    """rules.md §1 Play: in a suit contract the jokers are trumps, so a joker led is a
    trump lead: a player holding trumps must follow with one."""
    state = declared(JOKERS, ["3 uptown", "pass", "pass", "pass"], "trump H",
                     ["6H", "5H", "4H", "3H", "4S", "5S"])
    act(state, "BJ")
    # Seat 1's trumps are its hearts and the little joker.
    assert legal(state) == set(run("H", "A", "8")) | {"LJ"}
    error = refused(state, "2C")
    assert (error.rule, error.seat) == ("follow-suit", 1)
    assert error.message.startswith("seat 1 must follow hearts (holds ")
    assert error.message.endswith("; LJ is a trump)")
    act(state, "AH")
    assert legal(state) == {"7H"}  # seat 2's only trump
    act(state, "7H")
    assert legal(state) == hand(state, 3)  # no trumps: anything
    act(state, "AC")
    assert last_trick(state) == (0, ["BJ", "AH", "7H", "AC"], 0)


def test_joker_as_only_trump_must_follow_a_trump_lead():
    """rules.md §1 Play: a player who holds a joker and no other trump follows a trump
    lead with it."""
    state = declared(JOKERS, ["3 uptown", "pass", "pass", "pass"], "trump D",
                     ["6H", "5H", "4H", "3H", "4S", "5S"])
    act(state, "2D")
    assert legal(state) == {"LJ"}  # seat 1 holds no diamond
    error = refused(state, "AH")
    assert error.rule == "follow-suit" and error.message == "seat 1 must follow diamonds (holds LJ; LJ is a trump)"
    act(state, "LJ")
    assert legal(state) == set(run("D", "A", "4"))
    act(state, "4D")
    assert legal(state) == {"3D"}
    act(state, "3D")
    assert last_trick(state) == (0, ["2D", "LJ", "4D", "3D"], 1)


# ------------------------------------------------------------------ play, notrump
NT_DISCARDS = ["4S", "5S", "6S", "7S", "8S", "9S"]


def notrump_hand(direction: str = "uptown") -> HandState:
    """JOKERS in 3 notrump by seat 0; seat 0 keeps BJ AS-TS 6H-2H 2D."""
    state = declared(JOKERS, ["3 notrump", "pass", "pass", "pass"], f"direction {direction}",
                     NT_DISCARDS)
    assert hand(state, 0) == {"BJ", "AS", "KS", "QS", "JS", "TS", "6H", "5H", "4H", "3H", "2H", "2D"}
    return state


def test_notrump_joker_led_next_player_plays_anything_first_card_sets_suit():
    """rules.md §1 Jokers in no trump: a joker may be led; the next player may then
    play any card, and the first non-joker card played sets the suit to follow."""
    state = act(notrump_hand(), "BJ")
    assert legal(state) == hand(state, 1) and len(legal(state)) == 12
    act(state, "8H")  # sets hearts
    assert legal(state) == {"7H"}
    assert refused(state, "AD").rule == "follow-suit"
    act(state, "7H")
    assert legal(state) == hand(state, 3)
    act(state, "AC")
    assert last_trick(state) == (0, ["BJ", "8H", "7H", "AC"], 1)

    # Both jokers first: the third player is still free, and its card sets the suit.
    state = act(notrump_hand(), "BJ", "LJ")
    assert legal(state) == hand(state, 2)
    act(state, "AD")
    assert legal(state) == {"3D"}
    act(state, "3D")
    assert last_trick(state) == (0, ["BJ", "LJ", "AD", "3D"], 2)


def test_notrump_joker_may_not_be_played_when_able_to_follow():
    """rules.md §1 Jokers in no trump: they belong to no suit, and a joker may be played
    to a trick only when the player cannot follow the suit led."""
    state = act(notrump_hand(), "2H")
    assert legal(state) == set(run("H", "A", "8"))
    error = refused(state, "LJ")
    assert (error.rule, error.seat) == ("follow-suit", 1)
    assert error.message == "seat 1 must follow hearts (holds 8H, 9H, TH, JH, QH, KH, AH)"


@pytest.mark.parametrize("direction, winner", [("uptown", 2), ("downtown", 0)])
def test_notrump_jokers_never_win(direction, winner):
    """rules.md §1 Jokers in no trump: a joker played by a player void in the suit led
    (or led itself) never wins the trick."""
    state = act(notrump_hand(direction), "2D")
    assert "LJ" in legal(state)  # seat 1 has no diamonds
    act(state, "LJ", "4D", "3D")
    # Uptown 4D is the best diamond, downtown 2D; never the joker.
    assert last_trick(state) == (0, ["2D", "LJ", "4D", "3D"], winner)
    # A joker lead loses even to the smallest card of the suit it never had.
    state = act(notrump_hand(direction), "BJ", "2S", "4D", "3D")
    assert last_trick(state)[2] == 1


def test_downtown_order_in_notrump_is_ace_then_two_up_to_king():
    """rules.md §1 Terms: downtown (aces good) is A 2 3 4 5 6 7 8 9 T J Q K; in no trump
    the suits follow the direction chosen."""
    state = declared(SPREAD_SPADES, ["3 notrump", "pass", "pass", "pass"], "direction downtown",
                     ["5C", "4C", "3C", "2C", "BJ", "LJ"])
    act(state, "4S")
    assert legal(state) == {"2S", "5S", "9S", "KS"}
    act(state, "2S", "3S", "7S")
    assert last_trick(state) == (0, ["4S", "2S", "3S", "7S"], 1)  # 2 over 3 over 4 over 7
    act(state, "KS", "TS", "JS", "AS")
    assert last_trick(state) == (1, ["KS", "TS", "JS", "AS"], 0)  # the ace stays top
    act(state, "QS", "9S", "6S")
    assert "6H" in legal(state)  # seat 3 is out of spades
    act(state, "6H")
    assert last_trick(state) == (0, ["QS", "9S", "6S", "6H"], 2)  # 6 over 9 over Q


def test_uptown_order_in_notrump_is_ace_down_to_two():
    """rules.md §1 Terms: uptown is A K Q J T 9 8 7 6 5 4 3 2."""
    state = declared(SPREAD_SPADES, ["3 notrump", "pass", "pass", "pass"], "direction uptown",
                     ["5C", "4C", "3C", "2C", "BJ", "LJ"])
    act(state, "4S", "2S", "3S", "7S")
    assert last_trick(state) == (0, ["4S", "2S", "3S", "7S"], 3)
    act(state, "JS", "AS", "KS", "TS")
    assert last_trick(state) == (3, ["JS", "AS", "KS", "TS"], 0)


# ------------------------------------------------------------------ books and scores
def test_discards_are_the_declaring_sides_first_book():
    """rules.md §1 Declaration: the discards are the declaring side's first book, so a
    side that takes every trick has 13 books (and 3 uptown scores 7)."""
    state = declared(LONG_SUITS, ["pass", "3 uptown", "pass", "pass"], "trump H",
                     ["2S", "2D", "2C", "4H", "3H", "2H"])
    assert state.contract["declarer"] == 1 and state.current_player() == 1
    play_first_legal(state)
    assert [w for _, _, w in state.tricks] == [1] * 12
    assert state.books == [0, 13]
    assert state.score == [0, 7]


def test_four_notrump_making_eleven_books_scores_ten():
    """rules.md §1 Scoring example: 4 notrump making 11 books scores 10 (books over six,
    overtricks included, doubled in notrump); the other side scores nothing."""
    state = declared(LONG_SUITS, ["4 notrump", "pass", "pass", "pass"], "direction uptown",
                     ["2D", "2C", "BJ", "LJ", "4S", "3S"])
    play_first_legal(state)
    # Ten spade tricks, then seat 1's last two hearts beat 2H and 3H.
    assert [w for _, _, w in state.tricks] == [0] * 10 + [1] * 2
    assert state.books == [11, 2]
    assert state.made is True
    assert state.score == [10, 0]


def test_four_notrump_taking_eight_books_scores_minus_eight():
    """rules.md §1 Scoring example: 4 notrump taking 8 books is set and scores -8 (minus
    the bid, doubled in notrump); the other side scores nothing."""
    state = declared(LONG_SUITS, ["4 notrump", "pass", "pass", "pass"], "direction uptown",
                     ["BJ", "7S", "6S", "5S", "4S", "3S"])
    play_first_legal(state)
    assert [w for _, _, w in state.tricks] == [0] * 7 + [1] * 5
    assert state.books == [8, 5]
    assert state.made is False
    assert state.score == [-8, 0]


# ------------------------------------------------------------------ game end
def claimed_hand(bid: str, claim: int, declarer: int = 0) -> HandState:
    """A LONG_SUITS hand won by ``declarer`` (seat 0 in spades, seat 1 in hearts), one
    trick played (won by the declarer), the rest ended by a claim of ``claim`` tricks:
    the declaring side has 2 + ``claim`` books."""
    if declarer == 0:
        state = declared(LONG_SUITS, [bid, "pass", "pass", "pass"], "trump S", LONG_SUITS[1])
        act(state, "AS", "2S", "3D", "3C")
    else:
        state = declared(LONG_SUITS, ["pass", bid, "pass", "pass"], "trump H", LONG_SUITS[1])
        act(state, "AH", "3D", "3C", "3S")
    assert state.tricks[0][2] == declarer
    apply_claim(state, claim)
    side = declarer % 2
    assert state.is_terminal() and state.books[side] == 2 + claim and sum(state.books) == 13
    return state


def tally_of(*hands: HandState) -> list:
    """Add ``hands`` to a fresh tally; the totals and winner after each one."""
    tally = GameTally(RULES)
    seen = []
    for h in hands:
        tally.add_hand(h)
        seen.append((list(tally.totals), tally.winner))
    return seen


def test_game_is_won_at_plus_seven():
    """rules.md §1 Game: a side with 7 or more wins (6 is not enough)."""
    plus3 = claimed_hand("3 uptown", 7)   # 9 books
    plus4 = claimed_hand("4 uptown", 8)   # 10 books
    sweep = claimed_hand("3 uptown", 11)  # 13 books
    assert (plus3.score, plus4.score, sweep.score) == ([3, 0], [4, 0], [7, 0])
    assert tally_of(plus3, plus3) == [([3, 0], None), ([6, 0], None)]
    assert tally_of(plus3, plus4) == [([3, 0], None), ([7, 0], 0)]
    assert tally_of(sweep) == [([7, 0], 0)]
    side1_sweep = claimed_hand("3 downtown", 11, declarer=1)
    assert side1_sweep.score == [0, 7]
    assert tally_of(plus3, side1_sweep) == [([3, 0], None), ([3, 7], 1)]


def test_game_is_lost_at_minus_seven():
    """rules.md §1 Game: a side at -7 or less loses (so the other side wins); -6 does not."""
    minus3 = claimed_hand("3 uptown", 6)   # 8 books: set
    minus4 = claimed_hand("4 uptown", 6)   # 8 books: set
    minus7 = claimed_hand("7 uptown", 10)  # 12 books: set
    assert (minus3.score, minus4.score, minus7.score) == ([-3, 0], [-4, 0], [-7, 0])
    assert tally_of(minus3, minus3) == [([-3, 0], None), ([-6, 0], None)]
    assert tally_of(minus3, minus4) == [([-3, 0], None), ([-7, 0], 1)]
    assert tally_of(minus7) == [([-7, 0], 1)]
    side1_set = claimed_hand("7 downtown", 10, declarer=1)
    assert side1_set.score == [0, -7]
    assert tally_of(side1_set) == [([0, -7], 0)]
    tally = GameTally(RULES)
    tally.add_hand(minus3)
    tally.add_hand(minus4)
    assert tally.sets == [2, 0]

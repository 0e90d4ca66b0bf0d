"""The rules of every other variant (rules.md sections 2-7) and every house rule
(section 8), one test per rule, on hand-made deals where the rule decides the outcome.

Each test builds a ``HandState`` from a deal written out card by card, drives it with
named actions (``"4"``, ``"take"``, ``"trump H"``, ``"direction downtown-aces-bad"``,
``"AS"`` ...) and checks what rules.md says must happen: what is legal, who wins a
trick, the books, the score, who deals next and when the game ends.  Where only the
score matters the hand is ended with ``apply_claim`` (exact book counts) or scored
with ``HandState.score_books``.

At the end, one random hand of every variant (and of every house rule on the
standard game) is written as a record and replayed: the replay must be identical.
"""

from __future__ import annotations

import pytest

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import compile_file, load_ruleset
from runtime.errors import IllegalAction
from runtime.game import GameTally
from runtime.hand import HandState
from runtime.notation import parse_call
from runtime.records import RecordError, apply_claim, hand_record, replay_game, replay_hand
from runtime.simulate import play_hand

RANKS = "23456789TJQKA"


# ============================================================================ helpers
def run(suit: str, high: str, low: str) -> list[str]:
    """Cards of one suit from ``high`` down to ``low`` in uptown order (``run("S","A","3")``)."""
    return [r + suit for r in reversed(RANKS[RANKS.index(low): RANKS.index(high) + 1])]


def new_hand(rules, deal, dealer: int = 3) -> HandState:
    """A hand of ``rules`` from a hand-made deal, checked to be exactly the variant's deck."""
    hands, kitty = deal
    assert [len(h) for h in hands] == [rules.hand_size] * rules.players
    assert len(kitty) == rules.kitty_size
    everything = [c for h in hands for c in h] + list(kitty)
    assert sorted(everything) == sorted(rules.cards), "a hand-made deal must be the whole deck"
    return HandState(rules, dealer, [[rules.card_id(c) for c in h] for h in hands],
                     [rules.card_id(c) for c in kitty])


def act(state: HandState, *names: str) -> HandState:
    """Apply actions by name: calls, declarations and cards."""
    for name in names:
        state.apply_action(state.rules.action_names.index(name))
    return state


def legal(state: HandState) -> set[str]:
    return {state.rules.action_names[a] for a in state.legal_actions()}


def hand(state: HandState, seat: int) -> set[str]:
    return {state.rules.cards[c] for c in state.hands[seat]}


def refused(state: HandState, name: str) -> IllegalAction:
    """Apply ``name``, which must be refused; the state must not change."""
    def snapshot():
        return (state.phase, state.seat, [list(h) for h in state.hands], list(state.calls),
                list(state.trick))
    before = snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply_action(state.rules.action_names.index(name))
    assert snapshot() == before
    return info.value


def last_trick(state: HandState):
    leader, cards, winner = state.tricks[-1]
    return leader, [state.rules.cards[c] for c in cards], winner


def play_first_legal(state: HandState) -> HandState:
    """Finish the hand playing each seat's lowest-id legal action."""
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def tally_of(rules, *hands: HandState, totals=None) -> list:
    """Add ``hands`` to a fresh tally (starting from ``totals``): totals and winner after each."""
    tally = GameTally(rules)
    if totals is not None:
        tally.totals = list(totals)
    seen = []
    for h in hands:
        tally.add_hand(h)
        seen.append((list(tally.totals), tally.winner))
    return seen


def resolve(variant, with_rules):
    return load_ruleset(variant, tuple(with_rules))


def assert_replays(state: HandState, variant: str, with_rules=(), claim: int | None = None) -> dict:
    """The record of ``state`` (ended by ``claim`` if given) replays to the same hand
    (and is written back the same)."""
    record = hand_record(state, variant, with_rules)
    if claim is not None:
        record["claim"] = claim
    again = replay_hand(state.rules, record).state
    assert again.contract == state.contract
    assert again.tricks == state.tricks
    assert again.books == state.books and again.score == state.score
    assert again.hands == state.hands and again.out == state.out
    assert hand_record(again, variant, with_rules) == {k: v for k, v in record.items() if k != "claim"}
    return record


# ============================================================================ deals
# 54 cards (standard): each seat (nearly) one whole suit, both jokers in the kitty.
STD_LONG = (
    [run("S", "A", "3"), run("H", "A", "4") + ["2S"], run("D", "A", "3"), run("C", "A", "3")],
    ["2H", "3H", "2D", "2C", "BJ", "LJ"],
)
# 54 cards: seat 0 BJ and spades, seat 1 LJ, hearts and a few black cards (no
# diamonds), seat 2 7H and diamonds, seat 3 clubs and 3D.
STD_JOKERS = (
    [["BJ"] + run("S", "A", "4"),
     ["LJ"] + run("H", "A", "8") + ["3S", "2S", "2C", "3C"],
     ["7H"] + run("D", "A", "4"),
     run("C", "A", "4") + ["3D"]],
    ["6H", "5H", "4H", "3H", "2H", "2D"],
)
# 54 cards: seat 0 holds BJ, seat 1 LJ, the kitty no joker.
STD_JOKERS_HELD = (
    [["BJ"] + run("S", "A", "4"), ["LJ"] + run("H", "A", "4"), run("D", "A", "3"), run("C", "A", "3")],
    ["3S", "2S", "3H", "2H", "2D", "2C"],
)
# 52 cards, 12 each and a kitty of 4: seat s holds its suit from A down to 3.
LONG_52 = (
    [run("S", "A", "3"), run("H", "A", "3"), run("D", "A", "3"), run("C", "A", "3")],
    ["2S", "2H", "2D", "2C"],
)
# 52 cards, 12 each: spades spread so that two tricks of four spades show the orders.
SPREAD_52 = (
    [["KS", "QS"] + run("H", "A", "5"),
     ["2S", "3S"] + run("D", "A", "5"),
     ["AS", "9S"] + run("C", "A", "5"),
     ["7S", "5S", "4S", "4H", "3H", "2H", "4D", "3D", "2D", "4C", "3C", "2C"]],
    ["JS", "TS", "8S", "6S"],
)
# 52 cards, 12 each: seats 1 and 3 (the dealer) hold no king, queen or jack.
NO_FACES_52 = (
    [["KS", "QS", "JS", "KH", "QH", "JH"] + run("H", "8", "3"),
     run("S", "T", "2") + ["AS", "AH", "2H"],
     ["KD", "QD", "JD", "KC", "QC", "JC"] + run("C", "8", "3"),
     run("D", "T", "2") + ["AD", "AC", "2C"]],
    ["9H", "TH", "9C", "TC"],
)
# 52 cards, 13 each, no kitty: seat s holds one whole suit.
WHOLE_SUITS = ([run(s, "A", "2") for s in "SHDC"], [])
# 52 cards, 13 each: seat 0 twelve spades and 5H, seat 1 twelve hearts and 2S.
RUFF_52 = (
    [["5H"] + run("S", "A", "3"),
     ["2S"] + [c for c in run("H", "A", "2") if c != "5H"],
     run("D", "A", "2"),
     run("C", "A", "2")],
    [],
)
# 54 cards, three hands of 17 and a kitty of 3 (cutthroat).
CUT_54 = (
    [run("S", "A", "2") + ["AH", "KH", "QH", "JH"],
     run("D", "A", "2") + ["TH", "9H", "8H", "7H"],
     run("C", "A", "2") + ["6H", "5H", "4H", "3H"]],
    ["2H", "BJ", "LJ"],
)
# 53 cards (deuce-of-spades): seat 0 BJ and hearts, seat 1 2S, 3H, 2H and diamonds,
# seat 2 the other spades, seat 3 clubs.
DEUCE_53 = (
    [["BJ"] + run("H", "A", "4"),
     ["2S", "3H", "2H"] + run("D", "A", "6"),
     run("S", "A", "3"),
     run("C", "A", "3")],
    ["5D", "4D", "3D", "2D", "2C"],
)
# 54 cards (jokers-and-deuce): as DEUCE_53 but seat 3 holds LJ instead of 3C.
DEUCE_54 = (
    [["BJ"] + run("H", "A", "4"),
     ["2S", "3H", "2H"] + run("D", "A", "6"),
     run("S", "A", "3"),
     run("C", "A", "4") + ["LJ"]],
    ["5D", "4D", "3D", "2D", "2C", "3C"],
)
# 53 cards (one-joker): STD_LONG without LJ.
ONE_JOKER_53 = (STD_LONG[0], ["2H", "3H", "2D", "2C", "BJ"])

STANDARD = load_ruleset("standard")
NORTHEAST = load_ruleset("northeast52")
OREGON = load_ruleset("oregon")
CINCINNATI = load_ruleset("cincinnati")
RHODE = load_ruleset("rhode-island")
HAWAII = load_ruleset("hawaii")
CUTTHROAT = load_ruleset("cutthroat")


def house(*names: str):
    """The standard game with house rules layered on it."""
    return load_ruleset("standard", names)


# ============================================================================ §2 northeast52
def ne_contract(declaration=("trump S", "direction uptown"), discards=("2H", "2D", "2C", "3S"),
                auction=("4", "pass", "pass", "pass")) -> HandState:
    """LONG_52 in 4 by seat 0, declared and discarded (by default seat 0 keeps AS..4S and 2S)."""
    state = act(new_hand(NORTHEAST, LONG_52), *auction, *declaration, *discards)
    assert state.phase_name == "play" and state.current_player() == 0
    return state


def test_northeast52_deck_52_cards_12_each_kitty_of_4():
    """rules.md §2: 52 cards, no jokers; 12 each, kitty of 4 (the declarer discards 4)."""
    assert len(NORTHEAST.cards) == 52 and "BJ" not in NORTHEAST.cards and "LJ" not in NORTHEAST.cards
    assert (NORTHEAST.players, NORTHEAST.hand_size, NORTHEAST.kitty_size) == (4, 12, 4)
    state = act(new_hand(NORTHEAST, LONG_52), "4", "pass", "pass", "pass", "trump S", "direction uptown")
    assert state.phase_name == "discard" and state.current_player() == 0
    assert len(hand(state, 0)) == 16 and {"2S", "2H", "2D", "2C"} <= hand(state, 0)
    act(state, "2H", "2D", "2C")
    assert state.phase_name == "discard"
    act(state, "3S")
    assert state.phase_name == "play" and [len(h) for h in state.hands] == [12] * 4


def test_northeast52_bids_are_bare_numbers_1_to_7_each_higher():
    """rules.md §2 Auction: bids are bare numbers 1-7; the first three callers must each
    bid higher than the last bid or pass."""
    state = new_hand(NORTHEAST, LONG_52)
    assert legal(state) == {"pass"} | {str(n) for n in range(1, 8)}
    assert parse_call(NORTHEAST, "4") == NORTHEAST.action_names.index("4")
    assert parse_call(NORTHEAST, "4 uptown") is None and parse_call(NORTHEAST, "4 notrump") is None
    act(state, "2")
    assert legal(state) == {"pass", "3", "4", "5", "6", "7"}  # no take: seat 1 is not the dealer
    error = refused(state, "2")
    assert (error.rule, error.seat) == ("bid-too-low", 1)
    assert refused(state, "take").rule == "take"
    act(state, "pass", "5")
    assert legal(state) == {"pass", "6", "7", "take"}  # the dealer now


def test_northeast52_dealer_may_take_by_matching():
    """rules.md §2 Auction: the dealer may pass, bid higher, or `take` the contract by
    matching the high bid (even from partner); records.md: the matching bid itself
    (``3``) means the same as ``take``."""
    # From an opponent: seat 0 bids 2, seat 1 bids 3, the dealer (seat 3) takes at 3.
    state = act(new_hand(NORTHEAST, LONG_52), "2", "3", "pass")
    assert state.current_player() == 3
    assert legal(state) == {"pass", "take", "4", "5", "6", "7"}
    act(state, "take")
    assert state.contract["declarer"] == 3 and state.contract["bid"] == 3
    assert state.phase_name == "declare" and state.current_player() == 3

    # From partner (seat 1 sits with the dealer, seat 3).
    state = act(new_hand(NORTHEAST, LONG_52), "pass", "3", "pass", "take")
    assert state.contract["declarer"] == 3 and state.contract["bid"] == 3 and state.contract["side"] == 1
    act(state, "trump C", "direction uptown", "2S", "2H", "2D", "3C")
    assert state.current_player() == 3  # the declarer leads
    act(state, "AC", "3S", "3H", "3D")
    apply_claim(state, 9)
    record = assert_replays(state, "northeast52", claim=9)
    assert record["auction"] == ["pass", "3", "pass", "take"]
    # The matching bid in a record means take: the same hand, the same score.
    record["auction"] = ["pass", "3", "pass", "3"]
    again = replay_hand(NORTHEAST, record).state
    assert again.contract == state.contract and again.score == state.score == [0, 5]
    assert again.calls[-1] == (3, NORTHEAST.take_action)

    # The dealer may also pass (the high bidder declares) or bid higher.
    state = act(new_hand(NORTHEAST, LONG_52), "pass", "3", "pass", "pass")
    assert state.contract["declarer"] == 1
    state = act(new_hand(NORTHEAST, LONG_52), "pass", "3", "pass", "4")
    assert state.contract["declarer"] == 3 and state.contract["bid"] == 4

    # A refused take says why: not the dealer, or nothing to match.
    state = act(new_hand(NORTHEAST, LONG_52), "2")
    assert refused(state, "take").message == ("seat 1 cannot take: only the dealer may, "
                                              "by matching another player's high bid")
    state = act(new_hand(NORTHEAST, LONG_52), "pass", "pass", "pass")
    assert refused(state, "take").message == "seat 3 cannot take: there is no bid to match"


def test_northeast52_all_pass_dealer_bids_or_redeals_same_dealer():
    """rules.md §2 Auction: if the first three pass, the dealer bids (1 or more) or
    calls `redeal`, and the same dealer deals again."""
    state = act(new_hand(NORTHEAST, LONG_52), "pass", "pass", "pass")
    assert state.current_player() == 3
    # Even with face cards the dealer may throw the hand in; it may not pass.
    assert legal(state) == {str(n) for n in range(1, 8)} | {"redeal"}
    assert refused(state, "pass").rule == "dealer-must-bid"
    bid = act(state.clone(), "1")
    assert bid.contract["declarer"] == 3 and bid.contract["bid"] == 1
    act(state, "redeal")
    assert state.is_terminal() and state.contract is None
    assert state.score == [0, 0]
    tally = GameTally(NORTHEAST)
    assert tally.next_dealer(state) == 3  # the same dealer deals again
    assert tally.next_dealer(bid) == 0  # after a contract the deal passes to the left
    record = hand_record(state, "northeast52")
    assert record["auction"] == ["pass", "pass", "pass", "redeal"] and "play" not in record

    # A game record: after the redeal the same dealer (3) deals, and only seat 3.
    second = hand_record(act(new_hand(NORTHEAST, LONG_52), "pass", "pass", "pass", "redeal"), "northeast52")
    replays, tally = replay_game([record, second], resolve)
    assert len(replays) == 2 and tally.totals == [0, 0]
    wrong = dict(second, dealer=0)  # the next seat would be wrong after a redeal
    with pytest.raises(RecordError) as info:
        replay_game([record, wrong], resolve)
    assert info.value.at == "hand[1].dealer" and "expected 3" in info.value.message


def test_northeast52_player_without_face_cards_may_call_redeal():
    """rules.md §2: any player, dealer included, who holds no king, queen or jack may
    call `redeal` instead of bidding on their turn (the same dealer deals again)."""
    state = new_hand(NORTHEAST, NO_FACES_52)
    assert "redeal" not in legal(state)  # seat 0 holds faces
    assert refused(state, "redeal").rule == "redeal"
    act(state, "2")
    assert "redeal" in legal(state)  # seat 1 holds none, even after a bid
    thrown = act(state.clone(), "redeal")
    assert thrown.is_terminal() and thrown.contract is None and thrown.redealt
    assert GameTally(NORTHEAST).next_dealer(thrown) == 3
    act(state, "pass")
    assert "redeal" not in legal(state)  # seat 2 holds faces
    act(state, "pass")
    # The dealer has no face cards either: take, pass, bid higher or redeal.
    assert legal(state) == {"pass", "take", "3", "4", "5", "6", "7", "redeal"}
    act(state, "redeal")
    assert state.is_terminal() and GameTally(NORTHEAST).next_dealer(state) == 3

    # "Not after passing or bidding": the once-round auction gives nobody a second turn,
    # so the same rules with an auction that goes round (a one-off --set) show it.
    rules = load_ruleset("northeast52", (), ("auction.rounds=until-passed",))
    state = act(new_hand(rules, NO_FACES_52), "1", "2", "3")
    assert "redeal" in legal(state)  # the dealer's first call
    act(state, "4", "5")
    assert state.current_player() == 1 and "redeal" not in legal(state)  # seat 1 bid 2
    assert refused(state, "redeal").rule == "redeal"
    act(state, "pass", "pass")
    assert state.current_player() == 3 and "redeal" not in legal(state)  # seat 3 bid 4


@pytest.mark.parametrize("direction, winners", [
    ("uptown", (2, 0)),              # AS, then QS
    ("downtown", (2, 1)),            # AS (aces good), then 3S
    ("downtown-aces-bad", (1, 1)),   # 2S (the ace is lowest), then 3S
])
@pytest.mark.parametrize("trump", ["trump S", "notrump"])
def test_northeast52_declarer_names_trump_or_notrump_and_one_of_three_orders(trump, direction, winners):
    """rules.md §2 Declaration: trump suit or notrump, and one of three orders: uptown,
    downtown (aces good), downtown (aces bad).  The same tricks of four spades are won
    by different cards under each order."""
    state = act(new_hand(NORTHEAST, SPREAD_52), "4", "pass", "pass", "pass")
    assert legal(state) == {"trump S", "trump H", "trump D", "trump C", "notrump"}
    act(state, trump)
    assert legal(state) == {"direction uptown", "direction downtown", "direction downtown-aces-bad"}
    act(state, f"direction {direction}", "JS", "TS", "8S", "6S")
    assert state.contract["direction"] == direction
    assert state.contract["trump"] == ("S" if trump == "trump S" else None)
    first = act(state.clone(), "KS", "2S", "AS", "7S")
    assert last_trick(first) == (0, ["KS", "2S", "AS", "7S"], winners[0])
    second = act(state.clone(), "QS", "3S", "9S", "5S")
    assert last_trick(second) == (0, ["QS", "3S", "9S", "5S"], winners[1])


def test_northeast52_discards_go_to_first_trick_winner_worth_2_books():
    """rules.md §2: the declarer leads; the discards belong to whoever wins the first
    trick, so that trick is worth 2 books."""
    # The declarer keeps 2H and leads it: seat 1's AH wins the first trick and the discards.
    state = ne_contract(discards=("2S", "2D", "2C", "3S"))
    act(state, "2H", "AH", "3D", "3C")
    assert last_trick(state)[2] == 1
    assert state.books_so_far() == [0, 2]
    apply_claim(state, 11)
    assert state.books == [11, 2] and sum(state.books) == 13
    # The declarer wins the first trick instead: the 2 books are its side's.
    state = ne_contract()
    act(state, "AS", "3H", "3D", "3C")
    assert state.books_so_far() == [2, 0]
    apply_claim(state, 9)
    assert state.books == [11, 2]


def test_northeast52_made_scores_books_over_six():
    """rules.md §2 Scoring: made, the declaring side scores books over six (11 books on a
    bid of 4 score 5); the other side nothing."""
    state = ne_contract()
    act(state, "AS", "3H", "3D", "3C")
    apply_claim(state, 9)
    assert state.books == [11, 2] and state.made is True and state.score == [5, 0]
    exact = ne_contract()
    assert exact.score_books([10, 3]) == [4, 0] and exact.made is True


def test_northeast52_set_gives_opponents_the_bid_and_no_score_below_0():
    """rules.md §2 Scoring: set, the opponents score the bid (the declarers lose
    nothing); nobody's score goes below 0."""
    state = ne_contract()
    act(state, "AS", "3H", "3D", "3C")
    apply_claim(state, 7)
    assert state.books == [9, 4] and state.made is False and state.score == [0, 4]
    assert tally_of(NORTHEAST, state, state) == [([0, 4], None), ([0, 8], None)]
    # The floor holds whatever a hand's formula gives: a hand scoring -4 leaves 0.
    negative = state.clone()
    negative.score = [-4, 0]
    assert tally_of(NORTHEAST, negative, totals=[2, 0]) == [([0, 0], None)]


def test_northeast52_notrump_is_not_doubled():
    """rules.md §2 Scoring: notrump is not doubled (made or set)."""
    state = ne_contract(declaration=("notrump", "direction uptown"))
    act(state, "AS", "3H", "3D", "3C")
    apply_claim(state, 9)
    assert state.contract["trump"] is None and state.score == [5, 0]
    assert ne_contract(declaration=("notrump", "direction downtown")).score_books([9, 4]) == [0, 4]


def test_northeast52_game_to_21():
    """rules.md §2 Game: the first side to 21 or more wins."""
    sweep = ne_contract()  # 13 books on a bid of 4: 7
    act(sweep, "AS", "3H", "3D", "3C")
    apply_claim(sweep, 11)
    assert sweep.score == [7, 0]
    six = ne_contract()
    act(six, "AS", "3H", "3D", "3C")
    apply_claim(six, 10)
    assert six.score == [6, 0]
    assert tally_of(NORTHEAST, sweep, sweep, six)[-1] == ([20, 0], None)
    assert tally_of(NORTHEAST, sweep, sweep, sweep)[-1] == ([21, 0], 0)
    assert tally_of(NORTHEAST, sweep, totals=[3, 20]) == [([10, 20], None)]


# ============================================================================ §3 oregon
def oregon_declared(auction=("1", "pass", "pass", "pass"), deal=RUFF_52) -> HandState:
    state = act(new_hand(OREGON, deal), *auction)
    assert state.phase_name == "declare"  # notrump, or trump by the first lead
    return state


def test_oregon_deck_52_no_kitty_13_each():
    """rules.md §3: 52 cards, no kitty, 13 each."""
    assert len(OREGON.cards) == 52 and (OREGON.hand_size, OREGON.kitty_size) == (13, 0)
    state = oregon_declared()
    assert [len(h) for h in state.hands] == [13] * 4 and state.kitty == []
    assert state.current_player() == 0  # no kitty to take: the declarer leads at once


def test_oregon_auction_goes_round_until_three_have_passed():
    """rules.md §3 Auction: bare numbers from 1, each bid higher than the last; the
    auction goes round as often as needed until three players have passed."""
    state = new_hand(OREGON, WHOLE_SUITS)
    assert legal(state) == {"pass"} | {str(n) for n in range(1, 8)}
    act(state, "1", "2", "pass", "3")
    assert state.current_player() == 0  # round again: seat 0 calls a second time
    assert "3" not in legal(state) and refused(state, "3").rule == "bid-too-low"
    act(state, "4")
    assert state.phase_name == "auction" and state.current_player() == 1
    act(state, "5")
    assert state.current_player() == 3  # seat 2 passed: it is out
    act(state, "pass")
    assert state.phase_name == "auction" and state.current_player() == 0  # two passes only
    act(state, "pass")
    assert state.contract == {"declarer": 1, "side": 1, "bid": 5, "strain": "number",
                              "trump": None, "direction": "uptown"}
    assert [s for s, _ in state.calls] == [0, 1, 2, 3, 0, 1, 3, 0]


def test_oregon_passed_player_is_out():
    """rules.md §3 Auction: a player who passed is out of the auction (never called again)."""
    state = act(new_hand(OREGON, WHOLE_SUITS), "pass", "1", "pass", "2")
    assert state.current_player() == 1  # seats 0 and 2 are skipped
    act(state, "3")
    assert state.current_player() == 3
    act(state, "4")
    assert state.current_player() == 1
    act(state, "pass")
    assert state.contract["declarer"] == 3 and state.contract["bid"] == 4
    assert [s for s, _ in state.calls] == [0, 1, 2, 3, 1, 3, 1]


def test_oregon_dealer_forced_to_bid_exactly_1():
    """rules.md §3 Auction: if the first three pass, the dealer must take a bid of 1
    (exactly 1)."""
    state = act(new_hand(OREGON, WHOLE_SUITS), "pass", "pass", "pass")
    assert state.current_player() == 3 and legal(state) == {"1"}
    assert refused(state, "pass").rule == "dealer-must-bid"
    assert refused(state, "2").seat == 3
    assert refused(state, "2").message.endswith("must bid the lowest bid: 1")  # the rule, not only the call
    act(state, "1")
    assert state.contract["declarer"] == 3 and state.contract["bid"] == 1
    assert state.phase_name == "declare" and state.current_player() == 3


def test_oregon_first_lead_names_trump():
    """rules.md §3 Declaration: the declarer names trump by leading: the suit of the
    first card it leads is trump.  records.md: such a hand has no ``declare``."""
    state = oregon_declared()
    assert legal(state) == hand(state, 0) | {"notrump"}
    act(state, "5H")
    assert state.contract["trump"] == "H" and state.contract["direction"] == "uptown"
    act(state, "AH", "2D", "2C")             # seat 1 wins with the top trump
    act(state, "2S", "3D", "3C", "3S")       # seat 0 wins the spade
    act(state, "AS", "2H", "4D", "4C")       # seat 1, void in spades, trumps the ace
    assert last_trick(state) == (0, ["AS", "2H", "4D", "4C"], 1)
    apply_claim(state, 6)
    record = assert_replays(state, "oregon", claim=6)
    assert "declare" not in record and record["play"][0] == "5H"


def test_oregon_notrump_declared_before_leading():
    """rules.md §3 Declaration: the declarer may instead declare notrump before leading;
    then no suit is trump.  records.md: a declared notrump is ``{"trump": null}``."""
    state = oregon_declared()
    act(state, "notrump")
    assert state.contract["trump"] is None and state.current_player() == 0
    assert "notrump" not in legal(state) and legal(state) == hand(state, 0)
    act(state, "5H", "AH", "2D", "2C", "2S", "3D", "3C", "3S")
    act(state, "AS", "2H", "4D", "4C")       # the same cards: no trump, the ace wins
    assert last_trick(state) == (0, ["AS", "2H", "4D", "4C"], 0)
    apply_claim(state, 6)
    record = assert_replays(state, "oregon", claim=6)
    assert record["declare"] == {"trump": None}


def test_oregon_uptown_only():
    """rules.md §3 Declaration: uptown only (there is no direction to choose)."""
    assert OREGON.orders == ("uptown",)
    state = oregon_declared()
    assert not any(a.startswith("direction") for a in legal(state))
    act(state, "3S")  # spades trump; seat 1's 2S is the lowest spade uptown
    assert legal(state) == {"2S"}
    act(state, "2S", "2D", "2C")
    assert last_trick(state)[2] == 0


def test_oregon_made_books_over_six_set_minus_bid():
    """rules.md §3 Scoring: made, books over six; set, minus the bid."""
    made = oregon_declared(("1", "2", "pass", "pass", "3", "pass"))
    assert made.contract["declarer"] == 0 and made.contract["bid"] == 3
    act(made, "5H", "AH", "2D", "2C")
    apply_claim(made, 10)  # 10 books to side 0
    assert made.books == [10, 3] and made.made is True and made.score == [4, 3]
    set_ = oregon_declared(("1", "2", "pass", "pass", "3", "pass"))
    act(set_, "5H", "AH", "2D", "2C")
    apply_claim(set_, 8)
    assert set_.books == [8, 5] and set_.made is False and set_.score == [-3, 5]
    # Notrump is not doubled in this game (rules.md §3 names no multiplier).
    nt = oregon_declared(("1", "2", "pass", "pass", "3", "pass"))
    act(nt, "notrump", "5H", "AH", "2D", "2C")
    apply_claim(nt, 10)
    assert nt.score == [4, 3]


def test_oregon_defenders_score_a_point_per_trick_every_hand():
    """rules.md §3 Scoring: the side that did not win the contract scores one point per
    trick it took, every hand, whether the contract is made or set."""
    state = oregon_declared()
    for books, score in [([13, 0], [7, 0]), ([7, 6], [1, 6]), ([6, 7], [-1, 7]), ([0, 13], [-1, 13])]:
        assert state.score_books(books) == score
    side1 = oregon_declared(("pass", "2", "pass", "pass"))
    assert side1.contract["side"] == 1
    assert side1.score_books([5, 8]) == [5, 2]
    assert side1.score_books([6, 7]) == [6, -2]


def oregon_scored(declarer_side: int, books: int) -> HandState:
    """An oregon hand bid 1 by ``declarer_side`` whose side took ``books`` of 13."""
    auction = ("1", "pass", "pass", "pass") if declarer_side == 0 else ("pass", "1", "pass", "pass")
    state = oregon_declared(auction, WHOLE_SUITS)
    lead = "AS" if declarer_side == 0 else "AH"
    act(state, lead)
    while state.trick:
        state.apply_action(state.legal_actions()[0])
    assert state.tricks[0][2] == declarer_side
    apply_claim(state, books - 1)
    assert state.books[declarer_side] == books
    return state


def test_oregon_game_to_11_contracting_side_wins_tie():
    """rules.md §3 Game: first to 11; if both sides reach 11 on the same hand, the
    contracting side wins (even with fewer points)."""
    seven = oregon_scored(0, 13)
    assert seven.score == [7, 0]
    four = oregon_scored(0, 10)
    assert four.score == [4, 3]
    assert oregon_game(seven, seven) == [None, 0]
    assert oregon_game(four, totals=[6, 7]) == [None]
    assert oregon_game(four, totals=[7, 7]) == [0]      # 11 to 10
    # Both reach 11 on one hand (12 to 13); side 1 has more, but side 0 contracted.
    nine = oregon_scored(0, 9)
    assert nine.score == [3, 4]
    assert oregon_game(nine, totals=[9, 9]) == [0]
    # And the other way round: side 1 contracted and wins with fewer points (13 to 12, 14 to 11).
    other = oregon_scored(1, 9)
    assert other.score == [4, 3]
    assert oregon_game(other, totals=[9, 9]) == [1]
    assert oregon_game(other, totals=[10, 8]) == [1]
    # Only the defenders reach 11: they win.
    assert oregon_game(nine, totals=[0, 7]) == [1]


def oregon_game(*hands: HandState, totals=(0, 0)) -> list:
    """The game winner (None while undecided) after each of ``hands``, from ``totals``."""
    tally = GameTally(OREGON)
    tally.totals = list(totals)
    seen = []
    for h in hands:
        before = len(tally.game_winners)
        tally.add_hand(h)
        seen.append(tally.game_winners[-1] if len(tally.game_winners) > before else None)
    return seen


def test_oregon_rubber_best_of_three():
    """rules.md §3 Game: a rubber is the best of three games; each game starts from 0."""
    side0 = oregon_scored(0, 13)  # +7 to side 0
    side1 = oregon_scored(1, 13)  # +7 to side 1
    tally = GameTally(OREGON)
    for h in (side0, side0):
        tally.add_hand(h)
    assert tally.game_winners == [0] and tally.winner is None and tally.totals == [0, 0]
    for h in (side1, side1):
        tally.add_hand(h)
    assert tally.game_winners == [0, 1] and tally.winner is None and tally.games_won == [1, 1]
    tally.add_hand(side0)
    assert tally.winner is None and tally.totals == [7, 0]
    tally.add_hand(side0)
    assert tally.game_winners == [0, 1, 0] and tally.winner == 0
    # Two straight games end the rubber.
    tally = GameTally(OREGON)
    for h in (side1,) * 4:
        tally.add_hand(h)
    assert tally.game_winners == [1, 1] and tally.winner == 1


# ============================================================================ §4 cincinnati
def test_cincinnati_deck_52_no_kitty_13_each():
    """rules.md §4: 52 cards, no kitty, 13 each."""
    assert len(CINCINNATI.cards) == 52 and (CINCINNATI.hand_size, CINCINNATI.kitty_size) == (13, 0)
    state = act(new_hand(CINCINNATI, WHOLE_SUITS), "1", "pass", "pass", "pass", "trump S")
    assert state.phase_name == "play" and state.current_player() == 0 and state.discards == []


def test_cincinnati_ladder_1_lt_1_special_lt_1_notrump_lt_2():
    """rules.md §4: special (= downtown) beats uptown and notrump beats both at one
    number: 1 < 1 special < 1 notrump < 2 < ..."""
    state = new_hand(CINCINNATI, WHOLE_SUITS)
    assert parse_call(CINCINNATI, "1 special") == CINCINNATI.action_names.index("1 downtown")
    act(state, "1")
    assert {"1 downtown", "1 notrump", "2"} <= legal(state) and "1" not in legal(state)
    act(state, "1 downtown")
    assert "1 downtown" not in legal(state) and "1" not in legal(state)
    assert refused(state, "1").rule == "bid-too-low"
    assert {"1 notrump", "2"} <= legal(state)
    act(state, "1 notrump")
    assert "1 downtown" not in legal(state) and "2" in legal(state)
    act(state, "2")
    assert state.contract["bid"] == 2 and state.contract["strain"] == "uptown"
    # The other way: after 1 special, a bare 1 cannot overcall; after 1 notrump neither can.
    state = act(new_hand(CINCINNATI, WHOLE_SUITS), "1 notrump")
    assert refused(state, "1 downtown").rule == "bid-too-low"


def test_cincinnati_bare_number_means_uptown():
    """rules.md §4: uptown is said as the bare number: ``1`` is 1 uptown."""
    assert parse_call(CINCINNATI, "1") == parse_call(CINCINNATI, "1 uptown") == CINCINNATI.action_names.index("1")
    assert parse_call(CINCINNATI, "3 high") == parse_call(CINCINNATI, "3")
    state = act(new_hand(CINCINNATI, WHOLE_SUITS), "3", "pass", "pass", "pass")
    assert state.contract["strain"] == "uptown" and state.contract["direction"] == "uptown"
    assert hand_record(state, "cincinnati")["auction"] == ["3", "pass", "pass", "pass"]


def test_cincinnati_auction_once_around_dealer_forced():
    """rules.md §4 (as standard): once around from the dealer's left, the dealer last;
    the dealer must bid if all pass."""
    state = act(new_hand(CINCINNATI, WHOLE_SUITS), "pass", "2", "pass", "pass")
    assert state.contract["declarer"] == 1  # once around: no second round
    state = act(new_hand(CINCINNATI, WHOLE_SUITS), "pass", "pass", "pass")
    assert "pass" not in legal(state) and "1" in legal(state) and "7 notrump" in legal(state)
    assert refused(state, "pass").rule == "dealer-must-bid"


def test_cincinnati_notrump_declarer_picks_direction_and_leads():
    """rules.md §4 (as standard): a notrump declarer picks the direction; a special bid
    is downtown; the declarer leads."""
    state = act(new_hand(CINCINNATI, RUFF_52), "pass", "1 notrump", "pass", "pass")
    assert legal(state) == {"direction uptown", "direction downtown"}
    act(state, "direction downtown")
    assert state.current_player() == 1
    act(state, "2S", "2D", "2C", "3S")  # downtown: 2S beats 3S
    assert last_trick(state) == (1, ["2S", "2D", "2C", "3S"], 1)
    special = act(new_hand(CINCINNATI, RUFF_52), "pass", "1 downtown", "pass", "pass")  # "1 special"
    assert legal(special) == {"trump S", "trump H", "trump D", "trump C"}
    act(special, "trump D")
    assert special.contract["direction"] == "downtown"


def test_cincinnati_scoring_as_standard_notrump_doubled():
    """rules.md §4 (as standard): books over six scored, a set loses the bid, notrump
    doubles; 13 books in all (no kitty)."""
    state = act(new_hand(CINCINNATI, WHOLE_SUITS), "2 notrump", "pass", "pass", "pass", "direction uptown")
    play_first_legal(state)
    assert sum(state.books) == 13 and state.books == [13, 0]
    assert state.score == [14, 0]  # 7 over six, doubled
    suit = act(new_hand(CINCINNATI, WHOLE_SUITS), "2", "pass", "pass", "pass", "trump S")
    assert suit.score_books([9, 4]) == [3, 0] and suit.score_books([7, 6]) == [-2, 0]
    nt = act(new_hand(CINCINNATI, WHOLE_SUITS), "2 notrump", "pass", "pass", "pass", "direction downtown")
    assert nt.score_books([7, 6]) == [-4, 0]


def test_cincinnati_game_plus_minus_7():
    """rules.md §4 (as standard): game at +7 / -7."""
    state = act(new_hand(CINCINNATI, WHOLE_SUITS), "1", "pass", "pass", "pass", "trump S")
    act(state, "AS", "AH", "AD", "AC")
    plus = state.clone()
    apply_claim(plus, 12)
    assert plus.score == [7, 0]
    minus = state.clone()
    apply_claim(minus, 5)
    assert minus.score == [-1, 0]
    assert tally_of(CINCINNATI, plus) == [([7, 0], 0)]
    assert tally_of(CINCINNATI, minus, totals=[-5, 0]) == [([-6, 0], None)]
    assert tally_of(CINCINNATI, minus, totals=[-6, 0]) == [([-7, 0], 1)]


# ============================================================================ §5 rhode-island
def ri_declared(auction=("3", "pass", "pass", "pass"), discards=("2H", "2D", "2C", "3S"),
                declaration="trump S") -> HandState:
    """LONG_52 in Rhode Island: seat 0 declares after discarding."""
    state = act(new_hand(RHODE, LONG_52), *auction, *discards, declaration)
    assert state.phase_name == "play"
    return state


def test_rhode_island_bare_numbers_1_to_7_uptown_only_no_notrump_bid():
    """rules.md §5: 52 cards, 12 each, kitty of 4; bids are bare numbers 1-7, uptown
    only, no notrump bid."""
    assert len(RHODE.cards) == 52 and (RHODE.hand_size, RHODE.kitty_size) == (12, 4)
    assert RHODE.orders == ("uptown",)
    state = new_hand(RHODE, LONG_52)
    assert legal(state) == {"pass"} | {str(n) for n in range(1, 8)}
    assert parse_call(RHODE, "3 notrump") is None and parse_call(RHODE, "3 downtown") is None
    act(state, "3")
    assert "3" not in legal(state) and refused(state, "3").rule == "bid-too-low"


def test_rhode_island_dealer_only_needs_to_match_and_takes_it():
    """rules.md §5 Auction: each must bid higher or pass, but the dealer only needs to
    match the high bid, and then takes it; the matching bid means take in a record."""
    state = act(new_hand(RHODE, LONG_52), "2", "pass", "3")
    assert legal(state) == {"pass", "take", "4", "5", "6", "7"}
    act(state, "take")
    assert state.contract["declarer"] == 3 and state.contract["bid"] == 3
    act(state, "2S", "2H", "2D", "3C", "trump C", "AC", "3S", "3H", "3D")
    apply_claim(state, 8)
    record = assert_replays(state, "rhode-island", claim=8)
    record["auction"] = ["2", "pass", "3", "3"]
    again = replay_hand(RHODE, record).state
    assert again.contract == state.contract and again.score == state.score


def test_rhode_island_all_pass_dealer_must_bid():
    """rules.md §5 Auction: all pass, the dealer must bid."""
    state = act(new_hand(RHODE, LONG_52), "pass", "pass", "pass")
    assert legal(state) == {str(n) for n in range(1, 8)}
    assert refused(state, "pass").rule == "dealer-must-bid"


def test_rhode_island_kitty_first_then_trump_or_notrump():
    """rules.md §5: the declarer takes the kitty, discards 4 of 16, and only then names
    trump or notrump."""
    state = act(new_hand(RHODE, LONG_52), "3", "pass", "pass", "pass")
    assert state.phase_name == "discard" and state.current_player() == 0
    assert len(legal(state)) == 16 and legal(state) == hand(state, 0)
    act(state, "2H", "2D", "2C")
    assert state.phase_name == "discard"
    act(state, "3S")
    assert state.phase_name == "declare"
    assert legal(state) == {"trump S", "trump H", "trump D", "trump C", "notrump"}
    act(state, "notrump")
    assert state.contract["trump"] is None and state.contract["direction"] == "uptown"
    assert state.phase_name == "play" and state.current_player() == 0
    record = hand_record(state, "rhode-island")
    assert record["declare"] == {"trump": None} and record["discard"] == ["2H", "2D", "2C", "3S"]


def test_rhode_island_discards_are_declaring_sides_first_book_declarer_leads():
    """rules.md §5: the discards are the declaring side's first book; the declarer leads."""
    state = ri_declared(("pass", "3", "pass", "pass"), ("2S", "2D", "2C", "3H"), "trump H")
    assert state.current_player() == 1
    assert state.books_so_far() == [0, 1]
    play_first_legal(state)
    assert state.books == [0, 13]


def test_rhode_island_made_scores_every_book_including_discards():
    """rules.md §5 Scoring: made (at least 6 + bid books), one point for each book the
    side took, the discards' book included."""
    state = ri_declared()
    act(state, "AS", "3H", "3D", "3C")
    apply_claim(state, 8)
    assert state.books == [10, 3] and state.made is True and state.score == [10, 0]
    assert ri_declared().score_books([9, 4]) == [9, 0]
    assert ri_declared().score_books([13, 0]) == [13, 0]


def test_rhode_island_set_scores_bid_plus_books_over_six():
    """rules.md §5 Scoring: set, the opponents score the bid plus one per book over six
    they took; the declarers score nothing."""
    state = ri_declared()
    assert state.score_books([8, 5]) == [0, 3] and state.made is False
    assert state.score_books([6, 7]) == [0, 4]
    assert state.score_books([5, 8]) == [0, 5]
    assert state.score_books([1, 12]) == [0, 9]


def test_rhode_island_notrump_doubles_every_score():
    """rules.md §5 Scoring: notrump doubles every score of the hand, made or set."""
    nt = ri_declared(declaration="notrump")
    assert nt.score_books([10, 3]) == [20, 0]
    assert nt.score_books([5, 8]) == [0, 10]
    assert nt.score_books([8, 5]) == [0, 6]


def test_rhode_island_game_to_21():
    """rules.md §5 Game: the first side to 21 or more wins."""
    ten = ri_declared()
    act(ten, "AS", "3H", "3D", "3C")
    apply_claim(ten, 8)
    eleven = ri_declared()
    act(eleven, "AS", "3H", "3D", "3C")
    apply_claim(eleven, 9)
    assert (ten.score, eleven.score) == ([10, 0], [11, 0])
    assert tally_of(RHODE, ten, ten) == [([10, 0], None), ([20, 0], None)]
    assert tally_of(RHODE, ten, eleven) == [([10, 0], None), ([21, 0], 0)]


# ============================================================================ §6 hawaii
def hawaii_declared(bid="3", declaration="trump S") -> HandState:
    state = act(new_hand(HAWAII, LONG_52), bid, "pass", "pass", "pass", declaration,
                "2H", "2D", "2C", "3S")
    assert state.phase_name == "play"
    return state


def test_hawaii_deck_kitty_4_discards_first_book():
    """rules.md §6: 52 cards, 12 each, kitty of 4, taken and discarded as in standard
    (trump first, then the kitty); the discards are the declaring side's first book."""
    assert len(HAWAII.cards) == 52 and (HAWAII.hand_size, HAWAII.kitty_size) == (12, 4)
    state = act(new_hand(HAWAII, LONG_52), "3", "pass", "pass", "pass")
    assert state.phase_name == "declare"
    act(state, "trump S")
    assert state.phase_name == "discard" and len(hand(state, 0)) == 16
    act(state, "2H", "2D", "2C", "3S")
    assert state.books_so_far() == [1, 0]
    play_first_legal(state)
    assert state.books == [13, 0]


def test_hawaii_bids_bare_3_to_7_auction_as_standard():
    """rules.md §6: bids are bare numbers 3-7; the auction as in standard (once round,
    the dealer must bid if all pass)."""
    state = new_hand(HAWAII, LONG_52)
    assert legal(state) == {"pass", "3", "4", "5", "6", "7"}
    act(state, "pass", "pass", "pass")
    assert legal(state) == {"3", "4", "5", "6", "7"}
    assert refused(state, "pass").rule == "dealer-must-bid"
    state = act(new_hand(HAWAII, LONG_52), "4", "pass", "pass", "pass")
    assert state.contract["declarer"] == 0


def test_hawaii_winner_names_trump_or_notrump_uptown_only_declarer_leads():
    """rules.md §6: the winner names trump or notrump; uptown only; the declarer leads."""
    state = act(new_hand(HAWAII, LONG_52), "pass", "3", "pass", "pass")
    assert legal(state) == {"trump S", "trump H", "trump D", "trump C", "notrump"}
    act(state, "notrump", "2S", "2H", "2D", "2C")
    assert state.contract["trump"] is None and state.contract["direction"] == "uptown"
    assert state.current_player() == 1


def test_hawaii_set_at_8_minus_bid_books():
    """rules.md §6: the opponents set the contract with 8 - bid books."""
    for bid in range(3, 8):
        state = hawaii_declared(str(bid))
        limit = 8 - bid
        assert state.score_books([13 - (limit - 1), limit - 1]) == [1, 0] and state.made is True
        assert state.score_books([13 - limit, limit]) == [0, 2] and state.made is False


def test_hawaii_made_plus_1_set_plus_2_to_opponents():
    """rules.md §6 Scoring: made, +1 to the declaring side (however many books); set, +2
    to the opponents; notrump changes nothing."""
    state = hawaii_declared("4")
    act(state, "AS", "3H", "3D", "3C")
    apply_claim(state, 11)
    assert state.books == [13, 0] and state.score == [1, 0]
    assert hawaii_declared("4").score_books([9, 4]) == [0, 2]
    nt = hawaii_declared("4", "notrump")
    assert nt.score_books([13, 0]) == [1, 0] and nt.score_books([9, 4]) == [0, 2]


def hawaii_hands():
    """Hands scoring [1, 0], [0, 2] (side 0 set) and [0, 1] (side 1 made)."""
    made0 = hawaii_declared()
    made0.score = made0.score_books([10, 3])
    set0 = hawaii_declared()
    set0.score = set0.score_books([6, 7])
    made1 = act(new_hand(HAWAII, LONG_52), "pass", "3", "pass", "pass", "trump H", "2S", "2D", "2C", "3H")
    made1.score = made1.score_books([3, 10])
    assert (made0.score, set0.score, made1.score) == ([1, 0], [0, 2], [0, 1])
    return made0, set0, made1


def test_hawaii_game_shutout_7_to_0():
    """rules.md §6 Game: a side wins when it is 7 up with the other side at 0."""
    made0, set0, made1 = hawaii_hands()
    assert tally_of(HAWAII, *[made0] * 7)[-2:] == [([6, 0], None), ([7, 0], 0)]
    assert tally_of(HAWAII, made0, totals=[6, 1]) == [([7, 1], None)]
    assert tally_of(HAWAII, set0, totals=[0, 5]) == [([0, 7], 1)]


def test_hawaii_game_11_ahead():
    """rules.md §6 Game: a side wins when it is 11 points ahead."""
    made0, set0, made1 = hawaii_hands()
    assert tally_of(HAWAII, made0, totals=[10, 1]) == [([11, 1], None)]
    assert tally_of(HAWAII, made0, totals=[11, 1]) == [([12, 1], 0)]
    assert tally_of(HAWAII, set0, totals=[3, 12]) == [([3, 14], 1)]


def test_hawaii_game_21_with_margin_2():
    """rules.md §6 Game: a side wins at 21 or more with the other side at least 2 behind."""
    made0, set0, made1 = hawaii_hands()
    assert tally_of(HAWAII, made0, totals=[20, 20]) == [([21, 20], None)]
    assert tally_of(HAWAII, made0, made0, totals=[20, 20]) == [([21, 20], None), ([22, 20], 0)]
    assert tally_of(HAWAII, made0, totals=[20, 19]) == [([21, 19], 0)]
    assert tally_of(HAWAII, set0, totals=[21, 20]) == [([21, 22], None)]
    assert tally_of(HAWAII, made1, totals=[20, 22]) == [([20, 23], 1)]


# ============================================================================ §7 cutthroat
def cut_declared(auction=("10 notrump", "pass", "pass"), declaration="direction uptown",
                 discards=("2H", "BJ", "LJ")) -> HandState:
    state = act(new_hand(CUTTHROAT, CUT_54, dealer=2), *auction, declaration, *discards)
    assert state.phase_name == "play"
    return state


def test_cutthroat_three_players_17_cards_kitty_3():
    """rules.md §7: three players, each alone; 54 cards, 17 each, kitty of 3."""
    assert (CUTTHROAT.players, CUTTHROAT.sides, CUTTHROAT.side_of) == (3, 3, (0, 1, 2))
    assert (len(CUTTHROAT.cards), CUTTHROAT.hand_size, CUTTHROAT.kitty_size) == (54, 17, 3)
    state = act(new_hand(CUTTHROAT, CUT_54, dealer=2), "pass", "pass")
    assert state.current_player() == 2 and "pass" not in legal(state)  # the dealer must bid
    act(state, "7 uptown", "trump C")
    assert state.phase_name == "discard" and len(hand(state, 2)) == 20
    act(state, "2H", "BJ", "LJ")
    assert state.current_player() == 2 and [len(h) for h in state.hands] == [17] * 3


def test_cutthroat_bids_7_to_18_books_outright():
    """rules.md §7: bids count books outright, 7-18, with uptown/downtown/notrump as in
    standard (3u = 3d < 3nt)."""
    state = new_hand(CUTTHROAT, CUT_54, dealer=2)
    bids = legal(state) - {"pass"}
    assert bids == {f"{n} {s}" for n in range(7, 19) for s in ("uptown", "downtown", "notrump")}
    act(state, "9 uptown")
    assert "9 downtown" not in legal(state) and "9 notrump" in legal(state)
    # A bid of 9 is made with 9 books outright (not 15).
    act(state, "pass", "pass", "trump S", "2H", "BJ", "LJ")
    assert state.score_books([9, 5, 4]) == [9, 5, 4] and state.made is True
    assert state.score_books([8, 5, 5]) == [-9, 5, 5] and state.made is False


def test_cutthroat_declarer_alone_discards_one_book_18_in_all():
    """rules.md §7: the declarer plays alone against the other two; its discards are one
    book, 18 books in all."""
    state = cut_declared()
    assert state.current_player() == 0
    assert state.books_so_far() == [1, 0, 0]
    play_first_legal(state)
    assert len(state.tricks) == 17 and sum(state.books) == 18
    assert state.books == [1 + state.won[0], state.won[1], state.won[2]]
    assert_replays(state, "cutthroat")
    # records.md: with more than two sides a claim is each side's share (a list); a
    # number only when the declarer takes every trick left.
    with pytest.raises(ValueError, match="list of each side's share"):
        apply_claim(cut_declared(), 10)


def test_cutthroat_made_scores_books_set_minus_bid():
    """rules.md §7: made, the declarer scores the books it took; set, minus the bid."""
    state = cut_declared(("11 uptown", "pass", "pass"), "trump S")
    assert state.score_books([11, 4, 3]) == [11, 4, 3] and state.made is True
    assert state.score_books([14, 2, 2]) == [14, 2, 2]
    assert state.score_books([10, 5, 3]) == [-11, 5, 3] and state.made is False


def test_cutthroat_defenders_score_own_books_every_hand():
    """rules.md §7: each defender scores the books it took itself, every hand."""
    state = act(new_hand(CUTTHROAT, CUT_54, dealer=2), "pass", "12 downtown", "pass",
                "trump D", "2H", "BJ", "LJ")
    assert state.contract["declarer"] == 1
    assert state.score_books([6, 12, 0]) == [6, 12, 0]
    assert state.score_books([2, 7, 9]) == [2, -12, 9]


def test_cutthroat_notrump_doubles_only_the_declarer():
    """rules.md §7: notrump doubles the declarer's score (made or set), not the defenders'."""
    state = cut_declared()
    assert state.contract["trump"] is None
    assert state.score_books([11, 4, 3]) == [22, 4, 3]
    assert state.score_books([9, 6, 3]) == [-20, 6, 3]


def test_cutthroat_game_to_30():
    """rules.md §7: the first to 30 wins (any player, declarer or defender)."""
    state = cut_declared(("11 uptown", "pass", "pass"), "trump S")
    state.score = state.score_books([11, 4, 3])
    assert tally_of(CUTTHROAT, state, totals=[18, 0, 0]) == [([29, 4, 3], None)]
    assert tally_of(CUTTHROAT, state, totals=[19, 0, 0]) == [([30, 4, 3], 0)]
    assert tally_of(CUTTHROAT, state, totals=[0, 0, 27]) == [([11, 4, 30], 2)]
    assert tally_of(CUTTHROAT, state, totals=[-40, 0, 0]) == [([-29, 4, 3], None)]  # no lower limit


# ============================================================================ §8 house rules
def test_house_rule_min_bid_4():
    """rules.md §8 min-bid-4: the lowest bid is 4."""
    rules = house("min-bid-4")
    state = new_hand(rules, STD_LONG)
    assert legal(state) == {"pass"} | {f"{n} {s}" for n in range(4, 8) for s in ("uptown", "downtown", "notrump")}
    assert parse_call(rules, "3 uptown") is None
    act(state, "pass", "pass", "pass")
    assert "4 uptown" in legal(state) and "pass" not in legal(state)


def test_house_rule_low_beats_high():
    """rules.md §8 low-beats-high: at one number downtown overcalls uptown:
    3 < 3 low < 3 nt."""
    rules = house("low-beats-high")
    state = act(new_hand(rules, STD_LONG), "3 uptown")
    assert {"3 downtown", "3 notrump"} <= legal(state)
    act(state, "3 downtown")
    assert "3 uptown" not in legal(state) and refused(state, "3 uptown").rule == "bid-too-low"
    act(state, "3 notrump")
    assert "3 downtown" not in legal(state)
    # Without the house rule, 3 downtown cannot overcall 3 uptown.
    assert "3 downtown" not in legal(act(new_hand(STANDARD, STD_LONG), "3 uptown"))


def test_house_rule_level_only():
    """rules.md §8 level-only: all bids of one number are equal; only a higher number
    overcalls."""
    rules = house("level-only")
    state = act(new_hand(rules, STD_LONG), "3 uptown")
    assert not {"3 downtown", "3 notrump"} & legal(state)
    assert refused(state, "3 notrump").rule == "bid-too-low"
    assert {"4 uptown", "4 downtown", "4 notrump"} <= legal(state)
    act(state, "4 notrump")
    assert "4 uptown" not in legal(state) and "5 uptown" in legal(state)
    state = act(new_hand(rules, STD_LONG), "3 notrump")
    assert "3 uptown" not in legal(state) and "4 uptown" in legal(state)


def kitty_views(rules, bid: str, declaration: str) -> list:
    """What seat 1 (never the declarer) sees of the kitty: during the auction, once
    trump or notrump is named (the kitty not yet taken), and in play."""
    state = act(new_hand(rules, STD_LONG), bid)
    views = [state.observation(1)["kitty"]]
    act(state, "pass", "pass", "pass", declaration)
    assert state.phase_name == "discard"
    views.append(state.observation(1)["kitty"])
    act(state, "2H", "3H", "2D", "2C", "BJ", "LJ")
    views.append(state.observation(1)["kitty"])
    return views


def test_house_rule_sport_kitty():
    """rules.md §8 sport-kitty: in suit contracts the kitty is shown to all before the
    declarer takes it (not during the auction, and not in notrump)."""
    kitty = STD_LONG[1]
    rules = house("sport-kitty")
    assert kitty_views(rules, "3 uptown", "trump S") == [None, kitty, kitty]
    assert kitty_views(rules, "3 notrump", "direction uptown") == [None, None, None]
    assert kitty_views(STANDARD, "3 uptown", "trump S") == [None, None, None]


def test_house_rule_kitty_face_up():
    """rules.md §8 kitty-face-up: the kitty lies face up through the auction (every
    seat sees it from the first call, in any contract)."""
    kitty = STD_LONG[1]
    rules = house("kitty-face-up")
    assert new_hand(rules, STD_LONG).observation(2)["kitty"] == kitty
    assert kitty_views(rules, "3 uptown", "trump S") == [kitty, kitty, kitty]
    assert kitty_views(rules, "3 notrump", "direction uptown") == [kitty, kitty, kitty]


def test_house_rule_jokers_out_in_notrump():
    """rules.md §8 jokers-out-in-notrump: in notrump the jokers leave play: the
    declarer discards any it holds, and each other player holding one swaps it for a
    random face-down discard; 12 cards each remain, none a joker."""
    rules = house("jokers-out-in-notrump")
    state = act(new_hand(rules, STD_JOKERS_HELD), "3 notrump", "pass", "pass", "pass", "direction uptown")
    # The declarer took the kitty (no joker in it) and set its own BJ aside: 17 cards,
    # so it lays away 5 more (six cards in all leave its hand).
    assert state.phase_name == "discard" and len(hand(state, 0)) == 17 and "BJ" not in hand(state, 0)
    assert state.discard_target == 5
    before = hand(state, 1)
    act(state, "3S", "2S", "3H", "2H", "4S")
    assert state.phase_name == "play" and state.current_player() == 0
    assert [len(h) for h in state.hands] == [12] * 4
    assert not any({"BJ", "LJ"} & hand(state, s) for s in range(4))
    assert state.observation(2)["out"] == ["BJ", "LJ"]
    # Seat 1 gave up LJ for one of the declarer's discards.
    drawn = hand(state, 1) - before
    assert before - hand(state, 1) == {"LJ"} and len(drawn) == 1
    assert drawn <= {"3S", "2S", "3H", "2H", "4S"}
    play_first_legal(state)
    assert len(state.tricks) == 12 and sum(state.books) == 13
    assert not any(c in (rules.card_id("BJ"), rules.card_id("LJ")) for _, t, _ in state.tricks for c in t)
    assert_replays(state, "standard", ["jokers-out-in-notrump"])  # the swap replays the same

    # Jokers in the kitty stay out: the declarer takes the other four and discards 4.
    state = act(new_hand(rules, STD_LONG), "3 notrump", "pass", "pass", "pass", "direction uptown")
    assert len(hand(state, 0)) == 16 and state.discard_target == 4 and state.out == [
        rules.card_id("BJ"), rules.card_id("LJ")]
    act(state, "2H", "3H", "2D", "2C")
    assert [len(h) for h in state.hands] == [12] * 4

    # In a suit contract the jokers stay in play (the top trumps).
    state = act(new_hand(rules, STD_JOKERS_HELD), "3 uptown", "pass", "pass", "pass", "trump H")
    assert len(hand(state, 0)) == 18 and "BJ" in hand(state, 0)
    act(state, "3S", "2S", "3H", "2H", "2D", "2C")
    assert "LJ" in hand(state, 1) and state.out == []


@pytest.mark.parametrize("order", [("jokers-out-in-notrump", "kitty-first"), ("kitty-first", "jokers-out-in-notrump")])
def test_jokers_out_in_notrump_with_kitty_first_where_the_bid_says_notrump(order):
    """rules.md §8: house rules are overlays of which "several may be combined", and sport-kitty
    "combines with kitty-first wherever the bid itself says whether there will be a trump
    suit".  So does jokers-out-in-notrump: in standard a notrump bid says notrump before the
    kitty is taken, so the kitty's jokers stay out, the declarer sets its own aside, the others
    swap theirs for face-down discards, and the direction is named after the discards.  (The
    pair was refused as needing notrump declared before the kitty.)"""
    rules = house(*order)
    state = act(new_hand(rules, STD_JOKERS_HELD), "3 notrump", "pass", "pass", "pass")
    assert state.phase_name == "discard" and state.current_player() == 0
    assert len(hand(state, 0)) == 17 and "BJ" not in hand(state, 0) and state.discard_target == 5
    before = hand(state, 1)
    act(state, "3S", "2S", "3H", "2H", "4S")
    assert before - hand(state, 1) == {"LJ"} and len(hand(state, 1) - before) == 1
    assert state.phase_name == "declare" and legal(state) == {"direction uptown", "direction downtown"}
    act(state, "direction downtown")
    assert state.phase_name == "play" and state.current_player() == 0
    assert [len(h) for h in state.hands] == [12] * 4
    assert not any({"BJ", "LJ"} & hand(state, s) for s in range(4))
    play_first_legal(state)
    assert len(state.tricks) == 12 and sum(state.books) == 13
    assert_replays(state, "standard", list(order))
    # The kitty's jokers stay out: the declarer takes the other four and lays away 4.
    state = act(new_hand(rules, STD_LONG), "3 notrump", "pass", "pass", "pass")
    assert len(hand(state, 0)) == 16 and state.discard_target == 4
    # A suit bid keeps the jokers in play (the top trumps): all six taken, six laid away.
    state = act(new_hand(rules, STD_JOKERS_HELD), "3 uptown", "pass", "pass", "pass")
    assert len(hand(state, 0)) == 18 and "BJ" in hand(state, 0) and state.out == []


def test_jokers_out_in_notrump_after_the_kitty_is_refused_where_the_bid_does_not_say_notrump(tmp_path):
    """Where a bid leaves notrump to the declaration (a bare number: trump or notrump named
    after the kitty, as rhode-island), nobody knows at the kitty whether the jokers leave play."""
    path = tmp_path / "numbers.yaml"
    path.write_text("name: numbers\nextends: standard\nauction:\n  strains:\n"
                    "    - {name: uptown, remove: true}\n    - {name: downtown, remove: true}\n"
                    "    - {name: notrump, remove: true}\n"
                    "    - {name: number, bare: true, trump: suit-or-none, direction: uptown}\n"
                    "  ranking: [[number]]\ndeclaration:\n  when: after-kitty\n"
                    "play:\n  notrump_extras: out\n")
    with pytest.raises(CompileError, match="notrump_extras: out needs notrump known before the kitty is taken"):
        compile_file(path)


def test_house_rule_jokers_free_in_notrump():
    """rules.md §8 jokers-free-in-notrump: in notrump a joker may be played even when
    able to follow suit; it still never wins."""
    rules = house("jokers-free-in-notrump")
    discards = ["4S", "5S", "6S", "7S", "8S", "9S"]
    state = act(new_hand(rules, STD_JOKERS), "3 notrump", "pass", "pass", "pass", "direction uptown",
                *discards, "2H")
    assert legal(state) == set(run("H", "A", "8")) | {"LJ"}
    act(state, "LJ", "7H", "AC")
    assert last_trick(state) == (0, ["2H", "LJ", "7H", "AC"], 2)  # the joker does not win
    # Without the house rule the joker is refused when able to follow.
    plain = act(new_hand(STANDARD, STD_JOKERS), "3 notrump", "pass", "pass", "pass", "direction uptown",
                *discards, "2H")
    assert refused(plain, "LJ").rule == "follow-suit"
    # In a suit contract the joker is a trump as ever: not free on a heart lead.
    suit = act(new_hand(rules, STD_JOKERS), "3 uptown", "pass", "pass", "pass", "trump D",
               *discards, "2H")
    assert "LJ" not in legal(suit)


def test_house_rule_one_joker():
    """rules.md §8 one-joker: 53 cards (the joker kept is BJ), kitty of 5; BJ is the top
    trump."""
    rules = house("one-joker")
    assert len(rules.cards) == 53 and "BJ" in rules.cards and "LJ" not in rules.cards
    assert rules.kitty_size == 5
    state = act(new_hand(rules, ONE_JOKER_53), "pass", "3 uptown", "pass", "pass", "trump D")
    assert len(hand(state, 1)) == 17
    act(state, "2H", "3H", "2D", "2C", "2S")
    act(state, "BJ", "AD", "3C", "3S")
    assert last_trick(state) == (1, ["BJ", "AD", "3C", "3S"], 1)


def test_house_rule_no_jokers():
    """rules.md §8 no-jokers: 52 cards, kitty of 4."""
    rules = house("no-jokers")
    assert len(rules.cards) == 52 and "BJ" not in rules.cards and rules.kitty_size == 4
    state = act(new_hand(rules, LONG_52), "3 uptown", "pass", "pass", "pass", "trump S")
    assert len(hand(state, 0)) == 16 and state.discard_target == 4
    act(state, "2H", "2D", "2C", "3S")
    play_first_legal(state)
    assert state.books == [13, 0] and state.score == [7, 0]


def test_house_rule_no_kitty():
    """rules.md §8 no-kitty: 52 cards, 13 each, no kitty, bids from 1."""
    rules = house("no-kitty")
    assert (len(rules.cards), rules.hand_size, rules.kitty_size) == (52, 13, 0)
    state = new_hand(rules, WHOLE_SUITS)
    assert "1 uptown" in legal(state) and "1 notrump" in legal(state)
    act(state, "1 uptown", "pass", "pass", "pass", "trump S")
    assert state.phase_name == "play" and state.discards == []
    assert state.books_so_far() == [0, 0]
    assert state.score_books([7, 6]) == [1, 0] and state.score_books([6, 7]) == [-1, 0]


def deuce_hand(rules, deal, auction, declaration) -> HandState:
    state = act(new_hand(rules, deal), *auction, declaration, *deal[1])
    assert state.phase_name == "play"
    return state


def test_house_rule_deuce_of_spades():
    """rules.md §8 deuce-of-spades: one joker (BJ), kitty of 5, and 2S is the
    second-highest trump in suit contracts (a trump, not a spade, there); in notrump
    it is an ordinary spade."""
    rules = house("deuce-of-spades")
    assert len(rules.cards) == 53 and "LJ" not in rules.cards and rules.kitty_size == 5
    by0 = ("3 uptown", "pass", "pass", "pass")
    by2 = ("pass", "pass", "3 uptown", "pass")
    # Hearts trump: 2S follows a trump lead and beats the ace of trumps ...
    state = act(deuce_hand(rules, DEUCE_53, by0, "trump H"), "AH")
    assert legal(state) == {"2S", "3H", "2H"}
    act(state, "2S", "3S", "3C")
    assert last_trick(state) == (0, ["AH", "2S", "3S", "3C"], 1)
    # ... but not the big joker.
    state = act(deuce_hand(rules, DEUCE_53, by0, "trump H"), "BJ", "2S", "3S", "3C")
    assert last_trick(state)[2] == 0
    # On a spade lead 2S is not a spade: its holder is void and may play anything; it trumps.
    state = act(deuce_hand(rules, DEUCE_53, by2, "trump H"), "AS", "3C", "4H")
    assert legal(state) == hand(state, 1)
    act(state, "2S")
    assert last_trick(state) == (2, ["AS", "3C", "4H", "2S"], 1)
    # Spades trump: 2S is a trump (its holder follows a trump lead with it), below BJ ...
    state = act(deuce_hand(rules, DEUCE_53, by0, "trump S"), "BJ")
    assert legal(state) == {"2S"}
    act(state, "2S", "AS", "3C")
    assert last_trick(state)[2] == 0
    # ... and above the ace (the declarer lays BJ away and leads a club).
    state = act(new_hand(rules, DEUCE_53), *by0, "trump S", "BJ", "5D", "4D", "3D", "2D", "2C")
    assert legal(state) == {"2S", "3H", "2H"} | set(run("D", "A", "6"))  # void in clubs
    act(state, "2S", "AS", "3C")
    assert last_trick(state) == (0, ["2C", "2S", "AS", "3C"], 1)
    # Notrump: an ordinary spade, the lowest uptown, above 3 downtown.
    nt = ("pass", "pass", "3 notrump", "pass")
    state = act(deuce_hand(rules, DEUCE_53, nt, "direction uptown"), "3S", "3C", "4H")
    assert legal(state) == {"2S"}
    act(state, "2S")
    assert last_trick(state) == (2, ["3S", "3C", "4H", "2S"], 2)
    state = act(deuce_hand(rules, DEUCE_53, nt, "direction downtown"), "3S", "3C", "4H", "2S")
    assert last_trick(state)[2] == 1
    # Downtown too, 2S is above the ace (and the small hearts) of trumps.
    low = ("3 downtown", "pass", "pass", "pass")
    state = act(deuce_hand(rules, DEUCE_53, low, "trump H"), "AH", "2S", "3S", "3C")
    assert last_trick(state) == (0, ["AH", "2S", "3S", "3C"], 1)
    # And on a heart lead in notrump the 2S holder must follow hearts.
    state = act(deuce_hand(rules, DEUCE_53, ("3 notrump", "pass", "pass", "pass"), "direction uptown"), "AH")
    assert legal(state) == {"3H", "2H"}


def test_house_rule_jokers_and_deuce():
    """rules.md §8 jokers-and-deuce: both jokers, 2S the third-highest trump, kitty of 6:
    BJ > LJ > 2S > the ace of trumps."""
    rules = house("jokers-and-deuce")
    assert len(rules.cards) == 54 and rules.kitty_size == 6
    by0 = ("3 uptown", "pass", "pass", "pass")
    state = act(deuce_hand(rules, DEUCE_54, by0, "trump H"), "AH", "2S", "3S")
    assert legal(state) == {"LJ"}  # seat 3's only trump
    act(state, "LJ")
    assert last_trick(state) == (0, ["AH", "2S", "3S", "LJ"], 3)
    state = act(deuce_hand(rules, DEUCE_54, by0, "trump H"), "BJ")
    assert legal(state) == {"2S", "3H", "2H"}
    act(state, "2S", "3S", "LJ")
    assert last_trick(state)[2] == 0
    # 2S over the ace of trumps: seat 3 declares and leads a club, the others are void.
    by3 = ("pass", "pass", "pass", "3 uptown")
    state = act(deuce_hand(rules, DEUCE_54, by3, "trump H"), "4C", "AH", "2S", "3S")
    assert last_trick(state) == (3, ["4C", "AH", "2S", "3S"], 1)


def standard_claimed(rules, bid: str, books: int, declaration="trump S", declarer=0) -> HandState:
    """STD_LONG in ``bid`` by ``declarer`` (0: spades, 1: hearts), one trick won by it,
    the rest claimed so that its side has ``books`` books."""
    if declarer == 0:
        state = act(new_hand(rules, STD_LONG), bid, "pass", "pass", "pass", declaration, *STD_LONG[1])
        act(state, "AS", "2S", "3D", "3C")
    else:
        state = act(new_hand(rules, STD_LONG), "pass", bid, "pass", "pass", declaration, *STD_LONG[1])
        act(state, "AH", "3D", "3C", "3S")
    assert state.tricks[0][2] == declarer
    apply_claim(state, books - 2)
    assert state.books[declarer % 2] == books
    return state


def test_house_rule_defenders_score():
    """rules.md §8 defenders-score: the defending side scores one per book over six it
    took, doubled in notrump wherever the variant doubles notrump."""
    rules = house("defenders-score")
    state = standard_claimed(rules, "4 uptown", 6)
    assert state.books == [6, 7] and state.score == [-4, 1]
    assert standard_claimed(rules, "3 uptown", 9).score == [3, 0]
    nt = standard_claimed(rules, "4 notrump", 5, "direction uptown")
    assert nt.score == [-8, 4]
    assert standard_claimed(STANDARD, "4 uptown", 6).score == [-4, 0]
    # northeast52 does not double notrump: neither the bid nor the books over six.
    ne = load_ruleset("northeast52", ("defenders-score",))
    for declaration in (("trump S", "direction uptown"), ("notrump", "direction uptown")):
        state = act(new_hand(ne, LONG_52), "4", "pass", "pass", "pass", *declaration, "2H", "2D", "2C", "3S")
        assert state.score_books([5, 8]) == [0, 6]


def test_house_rule_boston_x4():
    """rules.md §8 boston-x4: a made bid of 7 scores four times over (28)."""
    rules = house("boston-x4")
    assert standard_claimed(rules, "7 uptown", 13).score == [28, 0]
    assert standard_claimed(rules, "6 uptown", 13).score == [7, 0]
    assert standard_claimed(rules, "7 uptown", 12).score == [-7, 0]
    assert standard_claimed(STANDARD, "7 uptown", 13).score == [7, 0]
    # Decision: in notrump the doubling applies on top (4 x 7 x 2).
    assert standard_claimed(rules, "7 notrump", 13, "direction uptown").score == [56, 0]


def test_house_rule_boston_wins():
    """rules.md §8 boston-wins: taking all 13 books wins the game at once."""
    rules = house("boston-wins")
    sweep = standard_claimed(rules, "3 uptown", 13)
    assert sweep.score == [7, 0]
    assert tally_of(rules, sweep, totals=[-5, 3]) == [([2, 3], 0)]
    assert tally_of(STANDARD, standard_claimed(STANDARD, "3 uptown", 13), totals=[-5, 3]) == [([2, 3], None)]
    twelve = standard_claimed(rules, "3 uptown", 12)
    assert tally_of(rules, twelve, totals=[-5, 3]) == [([1, 3], None)]


def test_house_rule_two_sets():
    """rules.md §8 two-sets: a side set for the third time in a game loses it."""
    rules = house("two-sets")
    set3 = standard_claimed(rules, "3 uptown", 8)
    made4 = standard_claimed(rules, "4 uptown", 10)
    assert (set3.score, made4.score) == ([-3, 0], [4, 0])
    assert tally_of(rules, set3, made4, set3, set3) == [
        ([-3, 0], None), ([1, 0], None), ([-2, 0], None), ([-5, 0], 1)]
    assert tally_of(STANDARD, set3, made4, set3, set3)[-1] == ([-5, 0], None)


def test_house_rule_plain_notrump():
    """rules.md §8 plain-notrump: notrump is not doubled."""
    rules = house("plain-notrump")
    assert standard_claimed(rules, "4 notrump", 11, "direction uptown").score == [5, 0]
    assert standard_claimed(rules, "4 notrump", 8, "direction downtown").score == [-4, 0]
    assert standard_claimed(STANDARD, "4 notrump", 11, "direction uptown").score == [10, 0]


def test_house_rule_to_5():
    """rules.md §8 to-5: game to +5 or -5."""
    rules = house("to-5")
    assert tally_of(rules, standard_claimed(rules, "3 uptown", 11)) == [([5, 0], 0)]
    assert tally_of(rules, standard_claimed(rules, "3 uptown", 10)) == [([4, 0], None)]
    assert tally_of(rules, standard_claimed(rules, "5 uptown", 10)) == [([-5, 0], 1)]
    assert tally_of(STANDARD, standard_claimed(STANDARD, "3 uptown", 11)) == [([5, 0], None)]


def test_house_rule_to_9():
    """rules.md §8 to-9: game to +9 or -9."""
    rules = house("to-9")
    seven = standard_claimed(rules, "3 uptown", 13)
    assert tally_of(rules, seven) == [([7, 0], None)]
    assert tally_of(rules, seven, totals=[2, 0]) == [([9, 0], 0)]
    assert tally_of(rules, standard_claimed(rules, "7 uptown", 12), totals=[-1, 0]) == [([-8, 0], None)]
    assert tally_of(rules, standard_claimed(rules, "7 uptown", 12), totals=[-2, 0]) == [([-9, 0], 1)]


def test_house_rule_eldest_leads():
    """rules.md §8 eldest-leads: the player left of the dealer leads the first trick."""
    rules = house("eldest-leads")
    state = act(new_hand(rules, STD_LONG), "pass", "pass", "3 uptown", "pass", "trump D", *STD_LONG[1])
    assert state.contract["declarer"] == 2 and state.current_player() == 0
    act(state, "AS", "2S", "3D", "3C")
    assert last_trick(state) == (0, ["AS", "2S", "3D", "3C"], 2)
    assert state.current_player() == 2  # then each trick's winner leads
    plain = act(new_hand(STANDARD, STD_LONG), "pass", "pass", "3 uptown", "pass", "trump D", *STD_LONG[1])
    assert plain.current_player() == 2


def test_house_rule_all_pass_redeal():
    """rules.md §8 all-pass-redeal: if all pass, the next dealer deals a new hand."""
    rules = house("all-pass-redeal")
    state = act(new_hand(rules, STD_LONG), "pass", "pass", "pass")
    assert "pass" in legal(state)
    act(state, "pass")
    assert state.is_terminal() and state.contract is None and state.score == [0, 0]
    assert GameTally(rules).next_dealer(state) == 0
    record = hand_record(state, "standard", ["all-pass-redeal"])
    assert record["auction"] == ["pass"] * 4
    assert replay_hand(rules, record).state.is_terminal()
    forced = act(new_hand(STANDARD, STD_LONG), "pass", "pass", "pass")
    assert "pass" not in legal(forced)


def test_all_pass_redeal_on_northeast52_keeps_its_redeal_call_with_the_same_dealer():
    """rules.md §2 and §8: on northeast52, all-pass-redeal governs only a hand where all
    four pass (the next dealer deals); a call of `redeal` by a hand without face cards
    still has the same dealer deal again."""
    rules = load_ruleset("northeast52", ("all-pass-redeal",))
    tally = GameTally(rules)
    called = act(new_hand(rules, NO_FACES_52), "2", "redeal")  # seat 1 holds no face cards
    assert called.is_terminal() and called.contract is None
    assert tally.next_dealer(called) == 3
    passed = act(new_hand(rules, LONG_52), "pass", "pass", "pass", "pass")
    assert passed.is_terminal() and passed.contract is None
    assert tally.next_dealer(passed) == 0


def test_house_rule_kitty_first():
    """rules.md §8 kitty-first: the declarer takes the kitty before naming trump."""
    rules = house("kitty-first")
    state = act(new_hand(rules, STD_LONG), "4 downtown", "pass", "pass", "pass")
    assert state.phase_name == "discard" and len(hand(state, 0)) == 18
    act(state, *STD_LONG[1])
    assert legal(state) == {"trump S", "trump H", "trump D", "trump C"}
    act(state, "trump S")
    assert state.phase_name == "play" and state.contract["direction"] == "downtown"
    nt = act(new_hand(rules, STD_LONG), "4 notrump", "pass", "pass", "pass", *STD_LONG[1])
    assert legal(nt) == {"direction uptown", "direction downtown"}
    act(nt, "direction uptown", "AS", "2S", "3D", "3C")
    apply_claim(nt, 8)
    assert nt.score == [8, 0]
    assert_replays(nt, "standard", ["kitty-first"], claim=8)


def renege_hand(rules):
    """STD_JOKERS in 3 uptown, diamonds, by seat 0, who leads 2H."""
    state = act(new_hand(rules, STD_JOKERS), "3 uptown", "pass", "pass", "pass", "trump D",
                "6H", "5H", "4H", "3H", "4S", "5S", "2H")
    return state


def test_house_rule_renege_penalty():
    """rules.md §8 renege-penalty: a renege stands and is scored: 3 of the reneging
    side's books go to the other side; if it took fewer than 3, the hand is scored as
    if the other side took all 13."""
    rules = house("renege-penalty")
    assert refused(renege_hand(STANDARD), "2C").rule == "follow-suit"
    # A defender reneges (seat 1 holds hearts, plays 2C): 3 of side 1's books move.
    state = act(renege_hand(rules), "2C", "7H", "3D")
    assert last_trick(state) == (0, ["2H", "2C", "7H", "3D"], 3) and state.reneges == [1]
    base = state.clone()
    apply_claim(state, 6)  # side 0: discards + 6 = 7 books, side 1: 1 + 5 = 6
    assert state.books == [10, 3] and state.made is True and state.score == [4, 0]
    record = assert_replays(state, "standard", ["renege-penalty"], claim=6)
    assert record["play"][:4] == ["2H", "2C", "7H", "3D"]
    # Without the penalty those books would have set the contract.
    assert base.clone().score_books([7, 6]) == [4, 0]
    plain = base.clone()
    plain.reneges = []
    assert plain.score_books([7, 6]) == [-3, 0]
    # The reneging side took 2: as if side 0 took all 13.
    short = base.clone()
    apply_claim(short, 10)
    assert short.books == [13, 0] and short.score == [7, 0]
    # The declaring side reneges (seat 2 holds 7H, plays AD) and is left with 2 books.
    state = act(renege_hand(rules), "8H", "AD", "3D")
    assert state.reneges == [2] and last_trick(state)[2] == 2
    apply_claim(state, 0)
    assert state.books == [0, 13] and state.made is False and state.score == [-3, 0]


def test_house_rule_rise_and_fly():
    """rules.md §8 rise-and-fly: a sweep of all 13 books by the declaring side scores
    double."""
    rules = house("rise-and-fly")
    assert standard_claimed(rules, "3 uptown", 13).score == [14, 0]
    assert standard_claimed(rules, "3 uptown", 12).score == [6, 0]
    assert standard_claimed(rules, "3 notrump", 13, "direction uptown").score == [28, 0]
    assert standard_claimed(rules, "4 downtown", 13, "trump H", declarer=1).score == [0, 14]
    assert standard_claimed(STANDARD, "3 uptown", 13).score == [7, 0]


# ============================================================================ records
HOUSE_RULES = ["min-bid-4", "low-beats-high", "level-only", "sport-kitty", "kitty-face-up",
               "jokers-out-in-notrump", "jokers-free-in-notrump", "one-joker", "no-jokers",
               "no-kitty", "deuce-of-spades", "jokers-and-deuce", "defenders-score", "boston-x4",
               "boston-wins", "two-sets", "plain-notrump", "to-5", "to-9", "eldest-leads",
               "all-pass-redeal", "kitty-first", "renege-penalty", "rise-and-fly"]
VARIANTS = [(v, ()) for v in ("standard", "northeast52", "oregon", "cincinnati", "rhode-island",
                              "hawaii", "cutthroat")]
VARIANTS += [("standard", (rule,)) for rule in HOUSE_RULES]
VARIANTS += [("northeast52", ("renege-penalty",)), ("standard", ("kitty-first", "defenders-score", "rise-and-fly"))]


@pytest.mark.parametrize("variant, with_rules", VARIANTS, ids=lambda v: "+".join(v) if isinstance(v, tuple) else v)
def test_random_hand_record_replays_identically(variant, with_rules):
    """records.md: a finished hand's record replays to the same hand: contract, tricks,
    books and score (several seeds, so that some hands reach play)."""
    rules = load_ruleset(variant, with_rules)
    played = 0
    for seed in range(6):
        state = play_hand(rules, seed, 0)
        assert state.is_terminal()
        assert_replays(state, variant, with_rules)
        played += bool(state.tricks)
    assert played

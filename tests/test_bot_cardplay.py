"""The heuristic's card play on hand-made positions (audit regressions).

* it ruffs with a small trump when no opponent still to play can be known to overruff
  it, not with its top trump (a sure trick wasted);
* it does not overtake a partner whose card will probably hold, and ruffs one that is
  likely to be beaten with its cheapest trump that will hold, not its top one;
* a declarer with most of the trumps, though not the top one, draws them before
  cashing side winners the opponents could ruff;
* the chance that a card is beaten (``_risk``) follows what the seat knows: who has
  shown out of the suit led and of trumps, and which higher cards are unseen.
* a defender plays a side-suit winner that only a ruff threatens (it is no safer kept);
  where a seat sits (hand sizes less the shown cards placed with it, shown voids) sets
  the chance it holds a card;
* a defender second hand to a trump lead keeps its sure trump winner and plays low,
  but takes a first trick that carries the discards' book, and ducks nothing where
  no kitty was taken;
* the declaring side stops drawing trumps once the opponents are placed out of them;
* the declaring side leads for partner to ruff only where partner probably still
  holds a trump;
* a defender with nothing to cash makes the declarer ruff a suit it is out of.
"""

from __future__ import annotations

import random

from bidcompiler.pipeline import load_ruleset
from runtime.bots import HeuristicBot
from runtime.bots.cardplay import _risk
from runtime.bots.infer import placement
from runtime.bots.knowledge import card_mask, rules_info
from runtime.bots.track import Track
from runtime.hand import PLAY, HandState


def hand_state(rules, dealer: int, fixed: dict[int, str], kitty: str) -> HandState:
    """A deal with the given hands and kitty (card names); the rest go to the seat not given."""
    ids = {name: i for i, name in enumerate(rules.cards)}
    hands = {seat: [ids[c] for c in text.split()] for seat, text in fixed.items()}
    kitty_cards = [ids[c] for c in kitty.split()]
    used = {c for h in hands.values() for c in h} | set(kitty_cards)
    rest = [c for c in range(rules.n_cards) if c not in used]
    for seat in range(rules.players):
        if seat not in hands:
            hands[seat], rest = rest[:rules.hand_size], rest[rules.hand_size:]
    assert not rest and all(len(hands[s]) == rules.hand_size for s in range(rules.players))
    return HandState(rules, dealer, [hands[s] for s in range(rules.players)], kitty_cards)


def act(state: HandState, *names: str) -> HandState:
    for name in names:
        state.apply_action(state.rules.action_names.index(name))
    return state


def says(state: HandState) -> tuple[str, str]:
    """The heuristic's card and reason (and choose agrees with explain)."""
    action, reason = HeuristicBot(random.Random(0)).explain(state)
    assert action == HeuristicBot(random.Random(0)).choose(state)
    return state.rules.action_names[action], reason


RULES = load_ruleset("standard")
SMALL_HAND = "BJ 3S 2D 3D 4D 5D 6D 2C 3C 4C 5C 6C"  # the top trump, a small one, no hearts


def test_ruffs_with_a_small_trump_not_the_top_one():
    # Seat 1 declares spades and leads a small heart; seat 2 (a defender, out of hearts)
    # holds the BJ and the 3S.  Only seat 0 plays after it, and seat 0 has shown no void:
    # it follows to hearts, so the 3S wins as surely as the BJ.
    state = hand_state(RULES, 3, {1: "AS KS QS JS TS 9S 2H 3H 4H 5H AD KD",
                                  2: SMALL_HAND,
                                  3: "8S 7S 6H 7H 8H 9H TH 7D 8D 7C 8C 9C"},
                       kitty="LJ 4S 5S QD JD TC")
    act(state, "pass", "4 uptown", "pass", "pass", "trump S")
    act(state, "QD", "JD", "TC", "5S", "4S", "AD")  # the declarer lays away six
    act(state, "2H")
    assert state.phase == PLAY and state.seat == 2
    card, reason = says(state)
    assert card == "3S", (card, reason)
    assert "ruff the 2H" in reason and "cheapest trump" in reason


def _partner_leads(lead: str) -> HandState:
    # Seat 0 declares spades and leads a heart; seat 1 follows with the 6H; seat 2
    # (partner, out of hearts) holds the BJ and the 3S; the hearts above the lead are
    # unseen by seat 2 (they are with seat 3).
    hand0 = f"AS KS QS JS TS {lead} 2H 3H AD KD AC KC"
    state = hand_state(RULES, 3, {0: hand0, 2: SMALL_HAND,
                                  1: "8S 7S 6H 7H 8H 9H TH 7D 8D 7C 8C 9C"},
                       kitty="LJ 4S 5S QD JD TC")
    act(state, "4 uptown", "pass", "pass", "pass", "trump S")
    act(state, "QD", "JD", "TC", "2H", "3H", "AD")
    act(state, lead, "6H")
    assert state.phase == PLAY and state.seat == 2
    return state


def test_does_not_ruff_a_partner_whose_card_will_probably_hold():
    # No heart above partner's AH is unseen: only a ruff by the last player beats it,
    # and it has probably not run out of hearts, so seat 2 leaves the trick to partner
    # and throws a small card (it certainly does not ruff with the BJ).
    card, reason = says(_partner_leads("AH"))
    assert card != "BJ" and card != "3S", (card, reason)
    assert card[-1] in "DC", (card, reason)
    assert reason == f"play {card}: partner's AH is winning; no need to overtake"


def test_declaring_side_ruffs_a_partner_beaten_a_third_of_the_time():
    # One heart above partner's KH is unseen: it is with the last player about a third
    # of the time.  The declaring side ruffs from that chance (from 0.4 before) with
    # the cheapest trump that holds: its tricks are the contract.
    card, reason = says(_partner_leads("KH"))
    assert card == "3S", (card, reason)
    assert "likely to be beaten" in reason


def test_ruffs_a_partner_likely_to_be_beaten_with_the_cheapest_trump_that_holds():
    # Three hearts above partner's JH are unseen: the last player probably holds one.
    # The 3S holds as well as the BJ (the last player has shown no void in hearts).
    card, reason = says(_partner_leads("JH"))
    assert card == "3S", (card, reason)
    assert "likely to be beaten" in reason


def test_draws_trumps_when_strong_without_the_top_one():
    # Seat 0 declares spades holding LJ A K Q J T 9 (the BJ is out) and AH KH: seven
    # trumps against about five with the opponents.  Cashing the AH first gets it
    # ruffed; it leads trumps.
    state = hand_state(RULES, 3, {0: "LJ AS KS QS JS TS 9S AH KH 2D 3D 2C",
                                  1: "BJ 8S 3H 4H 5H 6H 7H 4D 5D 6D 7D 3C",
                                  2: "2S 3S 8H 9H TH JH 8D 9D TD 4C 5C 6C"},
                       kitty="QH 2H QD KD 7C 8C")
    act(state, "4 uptown", "pass", "pass", "pass", "trump S")
    act(state, "QH", "2H", "QD", "KD", "7C", "8C")  # lays the kitty away again
    assert state.phase == PLAY and state.seat == 0
    card, reason = says(state)
    assert state.table.suit_of[RULES.cards.index(card)] == state.trump, (card, reason)
    assert "drawing" in reason and "strong in trumps" in reason, reason


def test_the_chance_of_being_beaten_follows_what_is_known():
    info = rules_info(RULES)
    spades, hearts = RULES.suit_names.index("spades"), RULES.suit_names.index("hearts")
    ti = info.tables[(spades, 0)]
    card = {name: i for i, name in enumerate(RULES.cards)}
    mine = {card[c] for c in SMALL_HAND.split()}
    unseen = sum(1 << c for c in range(RULES.n_cards) if c not in mine)
    miss = [dict.fromkeys(ti.suits, 0.7)] * RULES.players
    later = [0]
    no_voids = [0, 0, 0, 0]
    out_of_hearts = [1 << hearts, 0, 0, 0]
    out_of_both = [(1 << hearts) | (1 << spades), 0, 0, 0]
    # A small trump ruffing hearts: overruffed only by a player out of hearts.
    small = _risk(ti, no_voids, unseen, card["3S"], hearts, later, miss)
    assert 0 < small < 0.01
    assert _risk(ti, out_of_hearts, unseen, card["3S"], hearts, later, miss) > 0.9
    assert _risk(ti, out_of_both, unseen, card["3S"], hearts, later, miss) == 0
    # The top trump is never beaten.
    assert _risk(ti, out_of_hearts, unseen, card["BJ"], hearts, later, miss) == 0
    # A heart: beaten by a higher heart, or by a ruff from a player out of hearts.
    assert _risk(ti, no_voids, unseen, card["KH"], hearts, later, miss) > 0.29
    assert _risk(ti, out_of_hearts, unseen, card["AH"], hearts, later, miss) > 0.9
    assert _risk(ti, out_of_both, unseen, card["AH"], hearts, later, miss) == 0
    # No opponent left to play: nothing beats it.
    assert _risk(ti, out_of_hearts, unseen, card["2H"], hearts, [], miss) == 0


def _spades_by_seat_0(hands: dict[int, str], tricks: list[str]) -> HandState:
    """Seat 0 declares 4 uptown in spades, lays the kitty away, then ``tricks`` are played."""
    kitty = "4C 5C 6C 7C 8C 6D"
    state = hand_state(RULES, 3, hands, kitty=kitty)
    act(state, "4 uptown", "pass", "pass", "pass", "trump S", *kitty.split())
    act(state, *tricks)
    assert state.phase == PLAY
    return state


def test_defender_returns_partners_suit():
    # Seat 3 won a diamond and led hearts; seat 1 (its partner) won with the AH and has
    # nothing sure to cash: it returns hearts (the top of its two left) rather than
    # opening diamonds from Q-J or a new suit.
    state = _spades_by_seat_0({0: "AS KS QS JS TS 9S 2D 3H AC KC QC JC",
                               1: "AH 8H 9H 4D QD JD TC 9C 8S 7S 2C 3C",
                               3: "AD 2H 6H 7H TH JH 5S 4S 3S 7D 8D 9D"},
                              ["2D", "4D", "5D", "AD", "2H", "3H", "AH", "4H"])
    assert state.seat == 1
    card, reason = says(state)
    assert card == "9H", (card, reason)
    assert "return partner's hearts" in reason


def test_defender_leads_top_of_a_sequence_not_away_from_a_king():
    # Seat 1 won the first trick with the AD.  Hearts (K-5-4-3) are its longest suit,
    # but a small heart would lead away from the king; the QC heads Q-J-10.
    state = _spades_by_seat_0({0: "AS KS QS JS TS 9S 2D AH AC KC 2C 3C",
                               1: "AD 9D KH 5H 4H 3H QC JC TC 8S 7S 6S",
                               2: "BJ LJ 5S 4S QH JH TH KD QD JD 9C 2H",
                               3: "3S 2S 9H 8H 7H 6H TD 8D 7D 5D 4D 3D"},
                              ["2D", "AD", "JD", "3D"])
    assert state.seat == 1
    card, reason = says(state)
    assert card == "QC", (card, reason)
    assert "top of a sequence" in reason


def test_discard_keeps_the_guard_of_a_king():
    # Notrump: seat 1, out of diamonds, throws a card on the declarer's AD.  Its K-2 of
    # hearts guards the king against the unseen ace; a small club (from 5-4-3) gives up
    # nothing, though hearts are the shorter suit.
    kitty = "BJ LJ 9D 8D 7D 6D"
    state = hand_state(RULES, 3, {0: "AD KD QD JD TD AS KS QS AC KC QC JC",
                                  1: "KH 2H 3C 4C 5C 2S 3S 4S 5S 6S 7S 8S"}, kitty=kitty)
    act(state, "4 notrump", "pass", "pass", "pass")
    while state.phase != PLAY:
        act(state, "direction uptown" if "direction uptown" in
            [state.rules.action_names[a] for a in state.legal_actions()] else kitty.split()[len(state.discards)])
    act(state, "AD")
    assert state.seat == 1
    card, reason = says(state)
    assert card == "3C", (card, reason)


def test_declarer_long_in_trumps_leads_the_top_of_its_sequence():
    # Eight spades from the king down against seven trumps out (both jokers and the
    # ace among them): the KS forces out a higher trump; a small one could lose to a
    # trump the king would have beaten.
    state = _spades_by_seat_0({0: "KS QS JS TS 9S 8S 7S 6S AH AD AC KC"}, [])
    assert state.seat == 0
    card, reason = says(state)
    assert card == "KS", (card, reason)
    assert "long in trumps" in reason


def test_notrump_declarer_sets_up_its_long_suit_before_cashing():
    # K-Q-J-9-8 of hearts and A-K-Q of clubs in notrump: drive out the AH while the
    # clubs, spades and diamonds are still stopped, rather than cash the clubs first.
    kitty = "BJ LJ 9D 8D 7D 6D"
    state = hand_state(RULES, 3, {0: "KH QH JH 9H 8H AS AD AC KC QC 2S 2D"}, kitty=kitty)
    act(state, "4 notrump", "pass", "pass", "pass")
    while state.phase != PLAY:
        act(state, "direction uptown" if "direction uptown" in
            [state.rules.action_names[a] for a in state.legal_actions()] else kitty.split()[len(state.discards)])
    assert state.seat == 0
    card, reason = says(state)
    assert card == "KH", (card, reason)
    assert "setting up the long hearts" in reason


def test_notrump_declarers_partner_returns_the_declarers_suit():
    # The declarer led the KH to set up its hearts; its partner won with the AH and
    # leads hearts back (the top of the two it has left) rather than its own suits.
    kitty = "BJ LJ 9D 8D 7D 6D"
    state = hand_state(RULES, 3, {0: "KH QH JH 9H 8H AS AD AC KC QC 2S 2D",
                                  1: "2H 3H TS 9S 8S 7S 6S 5S 4S 3S TD 5D",
                                  2: "AH 5H 4H KS QS JS KD QD JD 3C 4C 5C"}, kitty=kitty)
    act(state, "4 notrump", "pass", "pass", "pass")
    while state.phase != PLAY:
        act(state, "direction uptown" if "direction uptown" in
            [state.rules.action_names[a] for a in state.legal_actions()] else kitty.split()[len(state.discards)])
    act(state, "KH", "2H", "AH", "6H")
    assert state.seat == 2
    card, reason = says(state)
    assert card == "5H", (card, reason)
    assert "back to partner's hearts" in reason


def test_declarer_with_four_trumps_headed_by_a_sequence_leads_trumps_first():
    # K-Q-J-2 of spades against eleven trumps out (the jokers and the ace above them):
    # the KS starts drawing trumps before the side aces are cashed into a ruff.
    state = _spades_by_seat_0({0: "KS QS JS 2S AH AD AC KC QC 2H 3H 4D"}, [])
    assert state.seat == 0
    card, reason = says(state)
    assert card == "KS", (card, reason)
    assert "top of a sequence in 4 trumps" in reason


def _discards_after(state: HandState) -> tuple[list[str], list[str]]:
    """The declarer's discards, made by the heuristic, and the hand it keeps (card names)."""
    names = state.rules.cards
    while state.phase != PLAY:
        state.apply_action(HeuristicBot(random.Random(0)).choose(state))
    return [names[c] for c in state.discards], [names[c] for c in state.hands[state.declarer]]


def test_discards_void_the_long_weak_side_suit_and_keep_a_guarded_king():
    # Spades trump with seven trumps: the six small clubs are laid away (a void to ruff
    # with), not the KH's guard (the old order threw 2H and KH first, the shortest suit).
    state = hand_state(RULES, 3, {0: "BJ LJ AS KS QS JS TS AD KD QD KH 2H"}, kitty="9C 7C 5C 4C 3C 2C")
    act(state, "4 uptown", "pass", "pass", "pass", "trump S")
    away, kept = _discards_after(state)
    assert sorted(away) == sorted("9C 7C 5C 4C 3C 2C".split()), away
    assert "KH" in kept and "2H" in kept


def test_notrump_discards_keep_the_long_suit_and_a_stopper():
    # Notrump uptown: the jokers cannot win and the small diamonds take nothing; the KH
    # with a guard is a stopper and the long spades are the tricks (the old order laid
    # away the QC, 2C, then both hearts under the king: a bare king and no stopper).
    state = hand_state(RULES, 3, {0: "AS KS QS JS 9S 8S 7S KH 3H 2H QC 2C"}, kitty="BJ LJ 5D 4D 3D 2D")
    act(state, "3 notrump", "pass", "pass", "pass", "direction uptown")
    away, kept = _discards_after(state)
    assert {"BJ", "LJ"} <= set(away), away
    assert "KH" in kept and ("3H" in kept or "2H" in kept), kept
    assert {"AS", "KS", "QS", "JS", "9S", "8S", "7S"} <= set(kept), kept


def test_declarer_with_most_of_the_trumps_draws_them_with_a_small_one():
    # K-10-7-5-3 of spades, no sequence and three trumps above the king: not strong
    # enough to lead the king, but with partner's share the side holds more trumps
    # than the opponents, so a small trump starts drawing them before the side aces
    # are cashed into a ruff (the old play cashed the AH).
    state = _spades_by_seat_0({0: "KS TS 7S 5S 3S AH KH AD KD AC 2H 3D"}, [])
    assert state.seat == 0
    card, reason = says(state)
    assert card == "3S", (card, reason)
    assert "the side holds most of the trumps (5 here" in reason


def test_declarer_with_four_small_trumps_draws_them_too():
    # T-7-5-3 against eleven trumps out: about 7.3 with the opponents, 3.7 with partner,
    # so the side holds more; the side suits' winners keep for later.
    state = _spades_by_seat_0({0: "TS 7S 5S 3S AH KH QH AD KD QD AC 9C"}, [])
    card, reason = says(state)
    assert card == "3S", (card, reason)
    assert "the side holds most of the trumps (4 here" in reason


def test_declarer_with_three_trumps_among_twelve_out_cashes_its_winners():
    # T-7-3 against twelve out: the side's share (3 + about 4) is less than the
    # opponents' (about 8); the declarer cashes a sure winner.
    state = _spades_by_seat_0({0: "TS 7S 3S AH KH QH AD KD QD AC 2H 9C"}, [])
    card, reason = says(state)
    assert card == "AH", (card, reason)


def test_declarer_with_two_trumps_cashes_its_winners_instead():
    # Two trumps are too few to draw with: the declarer cashes a sure winner.
    state = _spades_by_seat_0({0: "KS 3S AH KH QH AD KD QD AC 2H 3D 9C"}, [])
    card, reason = says(state)
    assert card == "AH", (card, reason)
    assert "a sure winner" in reason


def test_defenders_do_not_draw_the_declarers_trumps():
    # Seat 1 (a defender) wins the first trick with the AD and leads with four trumps
    # and the A-K of hearts: it does not lead trumps for the declaring side.
    state = _spades_by_seat_0({0: "AS KS QS JS 2D 3D 4D 5D 2H 3H 2C 3C",
                               1: "TS 7S 5S 3S AH KH AD 8D 7D 9C TC JC",
                               2: "BJ 9S 8S QH JH TH 9H 9D TD QC KC AC",
                               3: "LJ 6S 4S 2S 8H 7H 6H 5H 4H JD QD KD"},
                              ["2D", "AD", "9D", "JD"])
    assert state.seat == 1
    card, reason = says(state)
    assert card == "AH", (card, reason)


def test_declarer_strong_in_trumps_without_a_sequence_draws_with_a_small_one():
    # LJ K Q J T 9 8 of spades with the BJ and the AS out: strong enough to draw trumps,
    # but the LJ does not head a sequence (the AS is out between them).  Leading it
    # would only fall to the BJ that a small trump forces out as well; the old play
    # led the LJ.
    state = _spades_by_seat_0({0: "LJ KS QS JS TS 9S 8S AH KH 2D 3D 2C"}, [])
    assert state.seat == 0
    card, reason = says(state)
    assert card == "8S", (card, reason)
    assert "strong in trumps" in reason


def test_declarer_returns_partners_suit_in_a_trump_contract():
    # Seat 2 (the declarer's partner) won the AD and led hearts; the declarer won with
    # the AH and has no sure winner, two small trumps and no ruff to give: it leads
    # hearts back (the top of the two it has left), not a small diamond or club.
    state = _spades_by_seat_0({0: "3S 2S AH QH 4H QD 9D 8D 7D QC 9C TC",
                               1: "2D 2H KH JH TH 9H AS KS QS JS 4D 5D",
                               2: "AD 5H 6H 7H TS 9S 8S 7S AC KC JC 2C"},
                              ["7D", "2D", "AD", "3D", "5H", "3H", "AH", "2H"])
    assert state.seat == 0
    card, reason = says(state)
    assert card == "QH", (card, reason)
    assert "back to partner's hearts" in reason


def test_a_declarer_without_a_partner_strong_in_trumps_draws_with_the_top():
    # The same trumps in a game of two: no partner plays after the opponent to a small
    # trump, which the opponent would win cheaply while keeping its higher trumps, so
    # the declarer leads the LJ (two-handed lost 0.37 points a hand with a small one).
    rules = load_ruleset("two-handed")
    ids = {name: i for i, name in enumerate(rules.cards)}
    hand0 = [ids[c] for c in "LJ KS QS JS TS 9S 8S AH KH 2D 3D 2C".split()]
    hand1 = [ids[c] for c in "2S 3H 4H 5H 6H 4D 5D 6D 7D 3C 4C 5C".split()]
    kitty = "6C 7C 8C 9C TC JC"
    state = HandState(rules, 1, [hand0, hand1], [ids[c] for c in kitty.split()])
    act(state, "4 uptown", "pass", "trump S", *kitty.split())
    assert state.phase == PLAY and state.seat == 0
    card, reason = says(state)
    assert card == "LJ", (card, reason)
    assert "strong in trumps" in reason


def test_defender_second_hand_keeps_its_top_trump():
    # The declarer leads a small trump; seat 1, second hand, holds the BJ (the top trump:
    # it wins whenever it is played) and two small ones.  It plays low: taking the 2S
    # with the BJ now only spends the best trump on the declarer's smallest, while kept
    # it can still beat a higher one and partner, last to play, may win this trick.
    state = _spades_by_seat_0({0: "AS KS QS JS TS 2S AH KH AD KD AC KC",
                               1: "BJ 3S 4S 2H 3H 4H 2D 3D 4D 9D 2C 3C"},
                              ["2S"])
    assert state.seat == 1
    card, reason = says(state)
    assert card == "3S", (card, reason)
    assert "second hand low in trumps" in reason, reason


def test_defender_takes_a_first_trick_that_carries_the_discards_book():
    # The same duck where the first trick wins the declarer's four discards as a book
    # (52 cards, discards to the first trick's winner): that trick is worth two books,
    # and seat 1 takes it with the AS, its sure trump winner.
    rules = load_ruleset("northeast52")
    state = hand_state(rules, 3, {0: "KS QS JS TS 9S 2S AH KH AD KD AC KC",
                                  1: "AS 3S 4S 2H 3H 4H 2D 3D 4D 9D QC 3C"},
                       kitty="QH QD JC 5S")
    act(state, "4", "pass", "pass", "pass", "trump S", "direction uptown", "QH", "QD", "JC", "5S", "2S")
    assert state.seat == 1 and state.discards_book_pending()
    card, reason = says(state)
    assert card == "AS", (card, reason)


def test_defender_without_a_kitty_in_play_takes_the_trump_lead():
    # No kitty (13 cards each, trump named by the first card led): the declarer's trump
    # leads need not come from a kitty's length, and there the duck measured a loss.
    # Seat 1, second hand to the declarer's second trump lead, takes it with the AS.
    rules = load_ruleset("oregon")
    state = hand_state(rules, 3, {0: "KS QS JS TS 9S 8S 2S AH KH AD KD AC KC",
                                  1: "AS 3S 4S 2H 3H 4H 2D 3D 4D 9D QC 3C 5C",
                                  2: "5S 2C 6H 7H 8H 9H 5D 6D 7D 8D 4C 6C 7C"},
                       kitty="")
    act(state, "4", "pass", "pass", "pass", "KS", "3S", "5S", "6S", "2S")
    assert state.seat == 1 and len(state.tricks) == 1
    card, reason = says(state)
    assert card == "AS", (card, reason)


def test_defender_plays_a_winner_only_a_ruff_threatens():
    # Seat 0 declares spades and has shown out of hearts; its partner (seat 2) cashed the
    # AH and leads the 5H.  Seat 3, second hand, holds the KH (the best heart left) and
    # the 2H: only the declarer's ruff can beat the king, and a king kept is no safer
    # from it.  It plays the KH, not second hand low (the 2H would hand the trick over).
    state = _spades_by_seat_0({0: "AS KS QS JS TS 9S AD 2D 2C KC QC JC",
                               1: "3D 3C 4H 7H 8H 9H 7D 8D 9D 8S 7S 9C",
                               2: "4D AC AH 5H 6H TH JH QH TD JD QD TC"},
                              ["AD", "3D", "4D", "5D", "2C", "3C", "AC", "KD",
                               "AH", "3H", "2D", "4H", "5H"])
    assert state.seat == 3
    card, reason = says(state)
    assert card == "KH", (card, reason)
    assert "only a ruff" in reason, reason


def played_so_far(state) -> int:
    """The mask of the cards played so far, the trick on the table's too, as the heuristic bot gives placement."""
    return Track().sync(state, state.rules.players).played | card_mask(state.trick)


def test_placement_follows_hand_sizes_and_voids():
    # Mid-hand: seat 3 sees 27 unseen cards in three hands of nine (seat 0 and its
    # partner 1, seat 2).  Where seat 0 has shown out of hearts, a heart is never with
    # it and is with seat 1 or 2 half the time each; a club is anywhere a third.
    state = _spades_by_seat_0({0: "AS KS QS JS TS 9S AD 2D 2C KC QC JC",
                               1: "3D 3C 4H 7H 8H 9H 7D 8D 9D 8S 7S 9C",
                               2: "4D AC AH 5H 6H TH JH QH TD JD QD TC"},
                              ["AD", "3D", "4D", "5D", "2C", "3C", "AC", "KD",
                               "AH", "3H", "2D", "4H"])
    hearts = RULES.suit_names.index("hearts")
    clubs = RULES.suit_names.index("clubs")
    unseen = (1 << 27) - 1  # only the count matters
    void = [1 << hearts, 0, 0, 0]
    miss = placement(state, 3, void, unseen, played_so_far(state), [hearts, clubs])
    assert miss[0][hearts] == 1.0 and miss[1][hearts] == 0.5 and miss[2][hearts] == 0.5
    assert abs(miss[0][clubs] - 2 / 3) < 1e-9 and miss[3][clubs] == 1.0


def test_declarer_stops_drawing_when_the_opponents_are_placed_out_of_trumps():
    # Seat 0 laid six spades away, led the BJ and saw seat 1 show out of trumps.  One
    # trump (the TS) is left that it cannot place: seat 1 has none, so it is with
    # partner or seat 3, an even chance; drawing it with the LJ (the old play: the best
    # trump left) would probably only take partner's.  It cashes a side winner instead.
    kitty = "9S 8S 7S 6S 5S 4S"
    state = hand_state(RULES, 3, {0: "BJ LJ AS KS QS JS AH KH AD KD AC KC",
                                  1: "2H 3H 4H 5H 6H 7H 2D 3D 4D 5D 2C 3C",
                                  2: "TS 3S QH JH TH QD JD TD QC JC TC 9C"}, kitty=kitty)
    act(state, "4 uptown", "pass", "pass", "pass", "trump S", *kitty.split())
    act(state, "BJ", "2H", "3S", "2S")
    assert state.phase == PLAY and state.seat == 0
    card, reason = says(state)
    assert card in ("AH", "AD", "AC"), (card, reason)
    assert "a sure winner" in reason, reason


def test_placement_takes_the_shown_kitty_out_of_its_takers_room():
    # The kitty lies face up; seat 0 takes it and lays six cards away (three of them
    # from the kitty).  Seat 1 places the six kitty cards with seat 0 (or its discards),
    # not among the cards it cannot see: of seat 0's twelve cards about four are kitty
    # cards (12 of the 18 it held kept), so only about eight are among the 36 unseen,
    # and a given unseen heart is less likely with seat 0 than with seat 2 or 3.
    rules = load_ruleset("standard+kitty-face-up")
    kitty = "4C 5C 6C 7C 8C 6D"
    mine = "3D 3C 4H 7H 8H 9H 7D 8D 9D 8S 7S 9C"
    state = hand_state(rules, 3, {0: "AS KS QS JS TS 9S AD 2D 2C KC QC JC", 1: mine}, kitty=kitty)
    act(state, "4 uptown", "pass", "pass", "pass", "trump S", "4C", "5C", "6C", "2C", "2D", "JC")
    assert state.phase == PLAY and state.shown_to(1)
    known = set(mine.split()) | set(kitty.split())
    unseen = sum(1 << c for c, name in enumerate(rules.cards) if name not in known)
    hearts = rules.suit_names.index("hearts")
    miss = placement(state, 1, [0, 0, 0, 0], unseen, played_so_far(state), [hearts])
    assert abs(miss[0][hearts] - (1 - 8 / 36)) < 1e-9
    assert abs(miss[2][hearts] - (1 - 12 / 36)) < 1e-9 and miss[3][hearts] == miss[2][hearts]


def test_declarer_gives_no_ruff_to_a_partner_probably_out_of_trumps():
    # Seat 0 laid six spades away and drew two rounds of trumps with the jokers; every
    # seat followed, so one trump (the 8S) is left, as likely with either opponent as
    # with partner.  Partner (seat 2) showed out of hearts on the AH.  A heart for
    # partner to ruff (the old play) would probably only set up the opponents' hearts:
    # partner holds the last trump a third of the time.  It leads from its long diamonds.
    kitty = "8D 7D 6D 9C 8C 7C"
    state = hand_state(RULES, 3, {0: "BJ LJ AS KS QS JS TS 9S AH 9H 8H 9D",
                                  1: "2S 5S 8S 2H KH QH AD KD QD AC KC QC",
                                  2: "3S 6S 2C JD TD 5D 4D 3D 2D JC TC 6C"}, kitty=kitty)
    act(state, "4 uptown", "pass", "pass", "pass", "trump S", "AS", "KS", "QS", "JS", "TS", "9S")
    act(state, "BJ", "2S", "3S", "4S", "LJ", "5S", "6S", "7S", "AH", "2H", "2C", "3H")
    assert state.phase == PLAY and state.seat == 0
    card, reason = says(state)
    assert card == "6D", (card, reason)
    assert "longest suit" in reason, reason


def test_defender_makes_the_declarer_ruff_a_suit_it_is_out_of():
    # Seat 0 declares spades and ruffed seat 1's AH; its partner (seat 2) followed to
    # hearts.  Seat 1 wins the KD and has nothing sure to cash: it leads a small heart,
    # making the declarer spend a trump, not the 8D from 8-7-6 (the old play).
    kitty = "6C 7C 8C 9D 5D 6H"
    state = hand_state(RULES, 3, {0: "9S 8S 7S 6S 5S 4S 2D 3D 2C 3C 4C 5C",
                                  1: "AD KD AH 5H 4H 3S 2S KC QC 8D 7D 6D",
                                  2: "QD TD 2H BJ LJ AS KS QS JS TS AC JC"}, kitty=kitty)
    act(state, "4 uptown", "pass", "pass", "pass", "trump S", *kitty.split())
    act(state, "2D", "AD", "QD", "JD", "AH", "2H", "3H", "4S", "3D", "KD", "TD", "4D")
    assert state.phase == PLAY and state.seat == 1
    card, reason = says(state)
    assert card == "4H", (card, reason)
    assert "make it ruff" in reason, reason


def test_declarers_partner_gives_a_ruff_to_a_declarer_holding_the_shown_kitty_trumps():
    # The kitty lies face up: seat 0 takes it with five small spades and leads the 7S,
    # so seat 2 can place every trump (its own, those played, the kitty's).  Seat 0
    # showed out of hearts; it still holds the kitty's spades unless it laid them all
    # away (each kept 9 times in 15).  Seat 2 leads its heart for the declarer to ruff
    # (the old play, seeing no trump it could not place, led the 5C, a small card
    # from its longest side suit).
    rules = load_ruleset("standard+kitty-face-up")
    kitty = "2S 3S 4S 5S 6S 4H"
    state = hand_state(rules, 3, {0: "7S AD KD QD JD TD AC KC QC JC TC 9C",
                                  1: "AH KH QH JH TH 9D 8D 7D 6D 8C 7C 6C",
                                  2: "BJ LJ AS KS QS JS TS 9S 8S 2H 3H 5C"}, kitty=kitty)
    act(state, "4 uptown", "pass", "pass", "pass", "trump S", "4H", "9C", "TC", "TD", "JD", "QD")
    act(state, "7S", "8C", "8S", "2C", "2H", "5H", "JC", "AH", "9D", "9S", "2D", "KD")
    assert state.phase == PLAY and state.seat == 2 and state.shown_to(2)
    card, reason = says(state)
    assert card == "3H", (card, reason)
    assert "can ruff" in reason, reason


def test_defender_makes_a_declarer_holding_the_shown_kitty_trumps_ruff():
    # The same deal from a defender's chair: the declarer, out of hearts, still holds
    # the kitty's spades unless it laid them all away; they count as trumps it may
    # hold (the shown cards of an opponent still to play stay among the unseen), so
    # seat 1 leads its small heart to make the declarer ruff.
    rules = load_ruleset("standard+kitty-face-up")
    kitty = "2S 3S 4S 5S 6S 4H"
    state = hand_state(rules, 3, {0: "7S AD KD QD JD TD AC KC QC JC TC 9C",
                                  1: "BJ LJ AS KS QS JS TS 9S 8S 2H 3H 5C",
                                  2: "AH KH QH JH TH 9D 8D 7D 6D 8C 7C 6C"}, kitty=kitty)
    act(state, "4 uptown", "pass", "pass", "pass", "trump S", "4H", "9C", "TC", "TD", "JD", "QD")
    act(state, "7S", "8S", "8C", "2C", "2H", "AH", "5H", "JC", "9D", "2D", "KD", "9S")
    assert state.phase == PLAY and state.seat == 1 and state.shown_to(1)
    card, reason = says(state)
    assert card == "3H", (card, reason)
    assert "make it ruff" in reason, reason


def test_defender_gives_no_ruff_and_discard():
    # As above, but the declarer's partner (seat 2) showed out of hearts too and may
    # still hold trumps: a heart would let one of them ruff while the other throws a
    # loser.  Seat 1 leads something else.
    kitty = "6C 7C 8C 9D 5D 6H"
    state = hand_state(RULES, 3, {0: "9S 8S 7S 6S 5S 4S 2D 3D 2C 3C 4C 5C",
                                  1: "AD KD AH 5H 4H 3S 2S KC QC 8D 7D 6D",
                                  2: "QD TD 9C BJ LJ AS KS QS JS TS AC JC"}, kitty=kitty)
    act(state, "4 uptown", "pass", "pass", "pass", "trump S", *kitty.split())
    act(state, "2D", "AD", "QD", "JD", "AH", "9C", "3H", "4S", "3D", "KD", "TD", "4D")
    assert state.phase == PLAY and state.seat == 1
    card, reason = says(state)
    assert not card.endswith("H") and "make it ruff" not in reason, (card, reason)


def test_may_ruff_reads_the_shown_cards_once(monkeypatch):
    # The chance partner holds a trump counts the shown kitty twice (the trumps shown in
    # partner's hand and the room they take): infer.shown_held is read once for both.
    from runtime.bots import cardplay, infer
    from runtime.bots.knowledge import TableInfo

    rules = load_ruleset("standard+kitty-face-up")
    kitty = "4S 5S 6C 7C 8C 6D"
    mine = "3D 3C 4H 7H 8H 9H 7D 8D 9D 8S 7S 9C"
    state = hand_state(rules, 3, {2: "AS KS QS JS TS 9S AD 2D 2C KC QC JC", 0: mine}, kitty=kitty)
    act(state, "pass", "pass", "4 uptown", "pass", "trump S", "6C", "7C", "8C", "2C", "2D", "JC")
    known = set(mine.split()) | set(kitty.split())
    unseen = sum(1 << c for c, name in enumerate(rules.cards) if name not in known)
    ti = TableInfo((state.trump, state.direction), state.table)
    reads = []
    shown_held = infer.shown_held

    def counted(*args):
        reads.append(args)
        return shown_held(*args)

    monkeypatch.setattr(infer, "shown_held", counted)
    monkeypatch.setattr(cardplay, "shown_held", counted)
    played = played_so_far(state)
    # Seat 0 asks about partner seat 2, who took the kitty with its two spades (2 trumps out).
    holds = cardplay._may_ruff(state, ti, 0, [0, 0, 0, 0], unseen, played, 2, 2)
    assert len(reads) == 1
    assert holds  # two trumps shown in partner's hand, most of them still held


def test_a_dealer_bound_to_the_lowest_bid_finds_the_floor_once(monkeypatch):
    from runtime.auction import AuctionRules, auction_rules

    rules = load_ruleset("oregon")
    state = HandState(rules, 0, *_oregon_deal(rules))
    for _ in range(rules.players - 1):
        state.apply_action(rules.pass_action)
    floors = []
    dealer_floor = AuctionRules.dealer_floor

    def counted(self):
        floors.append(1)
        return dealer_floor(self)

    monkeypatch.setattr(AuctionRules, "dealer_floor", counted)
    legal = auction_rules(rules)._legal_calls(state)
    assert len(floors) == 1
    assert legal and all(rules.bids[a - rules.first_bid_action].rank == rules.bids[legal[0] - rules.first_bid_action].rank
                         for a in legal)


def _oregon_deal(rules):
    """The cards in order, dealt round (the deal does not matter to the auction's legal calls)."""
    cards = list(range(rules.n_cards))
    n = rules.hand_size * rules.players
    hands = [cards[s:n:rules.players] for s in range(rules.players)]
    return hands, cards[n:]

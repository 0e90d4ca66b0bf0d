"""House rules that name seats by role (rules.md §9, issue 12 point 4): one vocabulary of seats.

- ``partner-takes-kitty``: ``kitty.taker: partner`` — the declarer's partner takes the
  kitty and discards; the declarer still names trump first and leads;
- ``left-of-declarer-leads``: ``play.first_lead: left-of-declarer``;
- ``first-caller-bids``: ``auction.must_bid: [first-caller]`` — the first caller may not pass.

Each on a hand-made deal where the rule decides the outcome, with records that replay,
the terminal asking a person who is the partner to discard, bots playing each, the
rulebook, ``diff`` and the compile errors.  (A file of its own beside
test_real_table_rules.py, whose helpers it uses, so that parallel work on that file
merges cleanly.)
"""

from __future__ import annotations

import io
import json
import pickle
import subprocess
import sys

import pytest
from rich.console import Console

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import compile_variant, load_ruleset
from runtime.errors import IllegalAction
from runtime.hand import DISCARD, OVER, PLAY
from runtime.records import hand_record, replay_hand
from runtime.ruleset_json import ruleset_from_json, ruleset_to_json
from runtime.seats import SeatRef, describe, resolve
from runtime.session import Session, Settings
from runtime.simulate import play_hand
from tests.clirun import run
from test_real_table_rules import STD_LONG, house, new_hand
from test_rules_variants import act, hand, legal

# STD_LONG: seat 0 spades A-3, seat 1 hearts A-4 and 2S, seat 2 diamonds A-3, seat 3
# clubs A-3; the kitty 2H 3H 2D 2C BJ LJ.  new_hand deals with seat 3 the dealer.
KITTY = STD_LONG[1]


def play_out(state):
    """Play to the end, each seat its highest legal card by id (a suit's ace before its 2, hearts before spades)."""
    while not state.is_terminal():
        state.apply_action(max(state.legal_actions()))
    return state


# ============================================================================ the seat vocabulary
def test_seats_resolve_from_the_dealer_and_the_declarer():
    assert resolve(SeatRef("dealer", 1), dealer=3, declarer=-1, players=4) == 0
    assert resolve(SeatRef("dealer", -1), dealer=0, declarer=-1, players=4) == 3
    assert resolve(SeatRef("declarer", across=True), dealer=3, declarer=1, players=4) == 3
    assert resolve(SeatRef("declarer", 1), dealer=3, declarer=3, players=4) == 0
    assert resolve(SeatRef("declarer", 1), dealer=0, declarer=1, players=3) == 2
    with pytest.raises(ValueError, match="the declarer is not known before the auction is won"):
        resolve(SeatRef("declarer"), dealer=0, declarer=-1, players=4)
    assert describe(SeatRef("declarer", across=True)) == "the declarer's partner"
    assert describe(SeatRef("declarer", 1)) == "the player left of the declarer"


@pytest.mark.parametrize("rule", ["partner-takes-kitty", "left-of-declarer-leads", "first-caller-bids"])
def test_the_ruleset_keeps_seat_values_through_json_and_pickle(rule):
    rules = house(rule)
    again = ruleset_from_json(json.loads(json.dumps(ruleset_to_json(rules))))
    assert again == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert ruleset_to_json(rules)["first_leader"] in ({"anchor": "declarer", "step": 0, "across": False},
                                                      {"anchor": "declarer", "step": 1, "across": False})


def test_a_ruleset_document_with_a_seat_word_of_old_still_loads_and_a_bad_seat_is_named():
    data = ruleset_to_json(house("eldest-leads"))
    assert data["first_leader"] == {"anchor": "dealer", "step": 1, "across": False}
    data["first_leader"] = "eldest"  # documents written before seats were values
    assert ruleset_from_json(data) == house("eldest-leads")
    data["first_leader"] = {"anchor": "nobody"}
    from runtime.ruleset_json import RulesetFormatError
    with pytest.raises(RulesetFormatError, match="first_leader: not a seat"):
        ruleset_from_json(data)


# ============================================================================ partner-takes-kitty
def to_discards(rules, bid="3 uptown", declaration=("trump S",)):
    """STD_LONG: seat 0 (the first caller) bids ``bid``, the others pass, seat 0 declares."""
    return act(new_hand(rules, *STD_LONG), bid, "pass", "pass", "pass", *declaration)


def test_partner_takes_the_kitty_and_discards_and_the_declarer_leads():
    rules = house("partner-takes-kitty")
    state = to_discards(rules)
    assert state.declarer == 0 and state.phase == DISCARD
    # The partner (seat 2) picked the kitty up and is asked to discard; the declarer's hand is as dealt.
    assert state.kitty_taker() == 2 and state.current_player() == 2
    assert hand(state, 2) == set(STD_LONG[0][2]) | set(KITTY)
    assert hand(state, 0) == set(STD_LONG[0][0])
    assert legal(state) == set(STD_LONG[0][2]) | set(KITTY)
    assert state.kitty_visible_to(2) and not state.kitty_visible_to(0)
    with pytest.raises(IllegalAction, match="seat 2 does not hold KS"):
        act(state, "KS")  # a card of the declarer's
    act(state, "AD", "KD", "QD", "JD", "TD", "9D")  # the partner lays away its top diamonds
    assert state.phase == PLAY and state.current_player() == 0  # the declarer leads
    assert state.observation(2)["discards"] == ["AD", "KD", "QD", "JD", "TD", "9D"]
    assert "discards" not in state.observation(0)  # the declarer did not see them
    assert hand(state, 2) == {"8D", "7D", "6D", "5D", "4D", "3D", "2H", "3H", "2D", "2C", "BJ", "LJ"}
    play_out(state)
    # The discards are still the declaring side's first book: 12 tricks of spades and jokers, and it.
    assert state.books == [13, 0]


def test_the_same_deal_under_standard_is_the_declarers_discard():
    state = to_discards(house())
    assert state.current_player() == 0 and state.kitty_taker() == 0
    assert hand(state, 0) == set(STD_LONG[0][0]) | set(KITTY)


def test_partner_takes_the_kitty_after_a_notrump_declaration_and_jokers_out_swap_from_the_taker():
    # jokers-out-in-notrump: the taker (not the declarer) sets its jokers aside; the
    # declarer, holding one, swaps it for a random discard like any other player.
    rules = house("partner-takes-kitty", "jokers-out-in-notrump")
    hands = [list(h) for h in STD_LONG[0]]
    hands[0] = [c for c in hands[0] if c != "AS"] + ["BJ"]
    kitty = ["AS", "2H", "3H", "2D", "2C", "LJ"]
    state = act(new_hand(rules, hands, kitty), "3 notrump", "pass", "pass", "pass", "direction uptown")
    assert state.current_player() == 2 and state.discard_target == 5  # LJ stayed out of the kitty
    act(state, "AS", "2H", "3H", "2D", "2C")
    assert state.phase == PLAY and state.current_player() == 0
    assert sorted(rules.cards[c] for c in state.out) == ["BJ", "LJ"]
    assert "BJ" not in hand(state, 0) and len(state.hands[0]) == 12
    drawn = hand(state, 0) - set(STD_LONG[0][0])
    assert len(drawn) == 1 and drawn <= {"AS", "2H", "3H", "2D", "2C"}


def test_a_partner_takes_kitty_record_replays_and_not_under_standard(tmp_path):
    rules = house("partner-takes-kitty")
    state = play_out(act(to_discards(rules), "AD", "KD", "QD", "JD", "TD", "9D"))
    record = hand_record(state, "standard", ["partner-takes-kitty"])
    assert record["discard"] == ["AD", "KD", "QD", "JD", "TD", "9D"]
    again = replay_hand(rules, record).state
    assert again.history == state.history and again.score == state.score
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["books"] == [13, 0]
    shown = run("replay", str(path))
    assert "taken by seat 2" in shown.stdout and "(seat 2)" in shown.stdout
    # Under standard the declarer discards, and it holds no diamonds: the record is refused there.
    record["with"] = []
    path.write_text(json.dumps(record))
    refused = run("replay", str(path))
    assert refused.exit_code == 1 and "seat 0 discards AD, which it does not hold" in refused.stderr


def human_partner_session(tmp_path):
    """standard+partner-takes-kitty, every seat a person's: the first caller bids 3 uptown and names hearts."""
    rules = load_ruleset("standard", ("partner-takes-kitty",))
    session = Session.new(rules, Settings("standard", ["partner-takes-kitty"], 1, list(range(4)), "random"),
                          tmp_path / "people.jsonl")
    first = session.current_player()
    session.apply(rules.first_bid_action)
    while session.hand.phase == 0:  # AUCTION
        session.apply(rules.pass_action)
    session.apply(rules.action_names.index("trump H"))
    return session, first


def test_the_terminal_asks_the_partner_to_discard_and_says_why(tmp_path):
    from bidcompiler.cli.terminal import Terminal as PlayTerminal
    from bidcompiler.rulebook import rulebook

    session, declarer = human_partner_session(tmp_path)
    partner = (declarer + 2) % 4
    assert session.current_player() == partner and session.hand.phase == DISCARD
    console = Console(record=True, width=100, file=io.StringIO(), highlight=False, markup=False)
    term = PlayTerminal(session, console, fast=True, open_hands=False,
                        rulebook=lambda: rulebook(compile_variant("standard", ("partner-takes-kitty",))))
    prompt = term.prompt(partner)
    assert prompt.startswith(f"You took the kitty for the declarer (seat {declarer} (partner)): discard (1 of 6)")
    obs = session.observation(partner)
    assert len(obs["kitty_taken"]) == 6 and "kitty_taken" not in session.observation(declarer)
    held = session.hand.hands[partner]
    declarers = session.hand.hands[declarer]
    assert term.handle(partner, session.rules.cards[declarers[0]]) is False  # not the partner's card
    assert f"you do not hold {session.rules.cards[declarers[0]]}" in console.export_text()
    assert term.handle(partner, " ".join(session.rules.cards[c] for c in held[:6])) is True
    assert session.hand.phase == PLAY and session.current_player() == declarer
    # The rules of the hand name the kitty's taker.
    start = len(console.export_text(clear=False).splitlines())
    term.show_rules()
    shown = "\n".join(console.export_text(clear=False).splitlines()[start:])
    assert f"taken by seat {partner}" in shown or "taken by you" in shown


# ============================================================================ left-of-declarer-leads
def notrump_hand(rules):
    """STD_LONG in 3 notrump by seat 0, which lays away the kitty's cards again."""
    return act(to_discards(rules, "3 notrump", ("direction uptown",)), *KITTY)


def test_left_of_declarer_leads_and_the_lead_decides_the_hand():
    # In notrump each seat holds one suit: whoever leads first runs its suit.  The
    # declarer leading takes every book; the player on its left leading sets it.
    std = play_out(notrump_hand(house()))
    assert std.tricks[0].leader == 0 and std.books == [13, 0] and std.made
    rules = house("left-of-declarer-leads")
    state = notrump_hand(rules)
    assert state.current_player() == 1 and state.first_lead_seat() == 1
    with pytest.raises(IllegalAction, match="seat 0 is not to act"):
        state.clone().replay([(0, rules.card_id("AS"))])
    play_out(state)
    assert state.tricks[0].leader == 1 and state.tricks[0].winner == 1
    assert state.books == [2, 11] and state.made is False


@pytest.mark.parametrize("declarer_calls, declarer, leader", [
    (["3 uptown", "pass", "pass", "pass"], 0, 1),
    (["pass", "3 uptown", "pass", "pass"], 1, 2),
    (["pass", "pass", "pass", "3 uptown"], 3, 0),
])
def test_the_first_leader_is_left_of_whoever_declares(declarer_calls, declarer, leader):
    rules = house("left-of-declarer-leads")
    state = act(new_hand(rules, *STD_LONG), *declarer_calls, "trump S")
    assert state.declarer == declarer
    while state.phase == DISCARD:
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == leader


def test_a_left_of_declarer_leads_record_replays():
    rules = house("left-of-declarer-leads")
    state = play_out(notrump_hand(rules))
    record = hand_record(state, "standard", ["left-of-declarer-leads"])
    again = replay_hand(rules, record).state
    assert again.books == [2, 11] and again.history == state.history


# ============================================================================ first-caller-bids
def test_the_first_caller_may_not_pass_and_the_others_may():
    rules = house("first-caller-bids")
    state = new_hand(rules, *STD_LONG)  # seat 3 deals: seat 0 calls first
    assert "pass" not in legal(state) and "3 uptown" in legal(state)
    with pytest.raises(IllegalAction, match="seat 0 is the first caller and may not pass") as info:
        act(state, "pass")
    assert info.value.rule == "must-bid"
    act(state, "3 uptown")
    assert "pass" in legal(state)  # seat 1 is no first caller
    act(state, "pass", "pass", "pass")
    assert state.declarer == 0
    # With seat 0 dealing, seat 1 is the first caller.
    other = new_hand(rules, *STD_LONG, dealer=0)
    assert other.current_player() == 1 and "pass" not in legal(other)
    # Under standard the first caller may pass.
    assert "pass" in legal(new_hand(house(), *STD_LONG))


def test_first_caller_bids_with_a_dealer_who_must_bid_both_hold():
    rules = house("first-caller-bids")
    state = act(new_hand(rules, *STD_LONG), "3 uptown", "pass", "pass")
    assert "pass" in legal(state)  # the dealer need not bid: there is a bid
    record = hand_record(play_out(act(state, "pass", "trump S", *KITTY)), "standard", ["first-caller-bids"])
    assert replay_hand(rules, record).state.score == state.score
    record["auction"][0] = "pass"
    from runtime.records import RecordError
    with pytest.raises(RecordError, match="seat 0 is the first caller and may not pass"):
        replay_hand(rules, record)


# ============================================================================ bots, words and errors
@pytest.mark.parametrize("rule", ["partner-takes-kitty", "left-of-declarer-leads", "first-caller-bids"])
def test_bots_play_each_rule(rule):
    rules = house(rule)
    for i in range(40):
        state = play_hand(rules, 7, i, "heuristic")
        assert state.is_terminal() and state.phase == OVER
        if rule == "first-caller-bids":
            first = state.calls[0]
            assert first[1] != rules.pass_action
        if rule == "left-of-declarer-leads" and state.tricks:
            assert state.tricks[0].leader == (state.declarer + 1) % 4
        if rule == "partner-takes-kitty" and state.discards:
            discarders = {s for s, a in state.history_before_play() if a in state.discards}
            assert discarders == {(state.declarer + 2) % 4}


@pytest.mark.parametrize("rule", ["partner-takes-kitty", "left-of-declarer-leads", "first-caller-bids"])
def test_simulate_runs_each_rule(rule):
    result = run("simulate", f"standard+{rule}", "--hands", "200")
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize("spec, line", [
    ("standard+partner-takes-kitty", "The declarer's partner, not the declarer, adds the 6 cards of the kitty to "
                                     "their hand and discards 6 cards face down"),
    ("standard+partner-takes-kitty", "The declarer makes these choices before the declarer's partner takes the "
                                     "kitty."),
    ("standard+left-of-declarer-leads", "The player on the declarer's left leads to the first trick; the winner of "
                                        "each trick leads to the next."),
    ("standard+first-caller-bids", "The first caller (the player on the dealer's left) may not pass: their first "
                                   "call must be a bid."),
])
def test_rulebook_says_the_seat_rule(spec, line):
    result = run("rules", spec)
    assert result.exit_code == 0
    assert line in result.stdout


@pytest.mark.parametrize("b, row", [
    ("standard+partner-takes-kitty", "kitty taken by: the declarer -> the declarer's partner"),
    ("standard+left-of-declarer-leads", "first lead: the declarer -> the player on the declarer's left"),
    ("standard+first-caller-bids", "may not pass on the first call: none -> the first caller"),
])
def test_diff_names_the_seat_rule(b, row):
    result = run("diff", "standard", b)
    assert result.exit_code == 0
    assert result.stdout.strip() == row


def test_partner_needs_partnerships():
    with pytest.raises(CompileError) as info:
        compile_variant("cutthroat", ("partner-takes-kitty",))
    message = str(info.value)
    # both files shipped: named by its shipped name, not by the path it is installed at
    assert "shipped 'partner-takes-kitty', line 7: kitty.taker: partner names a partner, but each of the 3 players " \
           "plays alone" in message
    assert "play in partnerships" in message


def test_a_seat_of_the_declarer_in_the_auction_is_refused(tmp_path):
    bad = tmp_path / "declarer-bids.yaml"
    bad.write_text("name: declarer-bids\nkind: house-rule\ndescription: x\nsource: x\n"
                   "auction:\n  must_bid: [first-caller, left-of-declarer]\n")
    result = run("rules", "standard", "--with", str(bad))
    assert result.exit_code == 1
    out = result.stdout + result.stderr
    assert "declarer-bids.yaml:6:" in out
    assert "left-of-declarer names a seat from the declarer, and the auction has no declarer yet" in out


def test_an_unknown_seat_word_is_a_positioned_schema_error(tmp_path):
    bad = tmp_path / "nobody.yaml"
    bad.write_text("name: nobody\nkind: house-rule\ndescription: x\nsource: x\nkitty:\n  taker: nobody\n")
    result = run("rules", "standard", "--with", str(bad))
    assert result.exit_code == 1
    assert "nobody.yaml:6:10" in result.stdout + result.stderr


def test_the_seat_settings_take_effect_only_with_a_kitty(tmp_path):
    result = run("rules", "standard", "--with", "no-kitty", "--with", "partner-takes-kitty")
    assert result.exit_code == 1
    assert "kitty.taker has no effect: there is no kitty" in result.stdout + result.stderr


def test_whist_syntax_takes_the_seat_settings_and_converts_back(tmp_path):
    text = ("house-rule seats\ndescription \"x\"\nsource \"x\"\n"
            "auction { must_bid first-caller }\nkitty { taker partner }\nplay { first_lead left-of-declarer }\n")
    path = tmp_path / "seats.whist"
    path.write_text(text)
    yaml_out = run("convert", "--to", "yaml", str(path))
    assert yaml_out.exit_code == 0, yaml_out.stderr
    assert "must_bid: [first-caller]" in yaml_out.stdout and "taker: partner" in yaml_out.stdout
    back = tmp_path / "seats.yaml"
    back.write_text(yaml_out.stdout)
    whist_out = run("convert", "--to", "whist", str(back)).stdout
    for line in text.splitlines()[3:]:
        assert line in whist_out
    rules = load_ruleset("standard", (str(path),))
    assert rules.must_bid == (SeatRef("dealer", 1),)


def test_seat_values_in_a_process_without_the_compiler():
    # The runtime reads seat values with no compiler at hand (a worker process, a cache).
    data = json.dumps(ruleset_to_json(house("partner-takes-kitty", "left-of-declarer-leads", "first-caller-bids")))
    code = ("import sys, json; sys.modules['bidcompiler'] = None\n"
            "from runtime.ruleset_json import ruleset_from_json\n"
            "r = ruleset_from_json(json.loads(sys.stdin.read()))\n"
            "print(r.kitty_taken_by, r.first_leader, r.must_bid)")
    out = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ("SeatRef(anchor='declarer', step=0, across=True) "
                                  "SeatRef(anchor='declarer', step=1, across=False) "
                                  "(SeatRef(anchor='dealer', step=1, across=False),)")


def test_bots_deal_unseen_cards_as_the_taker_and_the_declarer_know_them():
    import random

    from runtime.bots.dealing import sample_deal

    for rules_names in (("partner-takes-kitty",), ("partner-takes-kitty", "kitty-face-up")):
        rules = house(*rules_names)
        state = act(to_discards(rules), "AD", "KD", "QD", "JD", "TD", "9D")
        kitty = {rules.card_id(c) for c in KITTY}
        seen_other = False
        for seed in range(20):
            rng = random.Random(seed)
            # The partner took the kitty and laid the cards away: its world keeps both.
            mine = sample_deal(state, 2, rng)
            assert mine.discards == state.discards and mine.hands[2] == state.hands[2]
            # The declarer saw neither: its own hand stays, the discards are any unseen cards
            # (the kitty shown face up is with the partner or among the discards).
            theirs = sample_deal(state, 0, rng)
            assert theirs.hands[0] == state.hands[0] and len(theirs.discards) == 6
            assert len(theirs.hands[2]) == 12
            seen_other |= sorted(theirs.discards) != sorted(state.discards)
            if "kitty-face-up" in rules_names:
                assert kitty <= set(theirs.hands[2]) | set(theirs.discards)
        assert seen_other

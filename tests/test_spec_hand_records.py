"""A hostile reading of records.md for hand records (one JSON object), sentence by sentence.

Each test quotes the sentence it pins and runs the real ``bidwhist replay`` (``--json``
and the text) on a record built by hand, mostly the worked deal of worked_hands.py
(dealer 3, seat 0 bids 4 notrump uptown and takes 12 books to 1: +12).  What earlier
audits already pin (tests/test_record_fields.py, test_records_*.py,
test_hardening_records.py, test_replay.py) is not repeated here.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime.hand import OVER
from runtime.records import _play_error
from runtime.tricks import Trick
from worked_hands import NT_RECORD, with_changes

BASE = NT_RECORD
# jokers-out-in-notrump (test_record_fields.ONE_EACH): seat 0 holds LJ (for 8H, now in the kitty)
# and seat 1 BJ (for 2H, in the kitty); seat 0 lays away LJ and five more, seat 1 draws 2H for BJ.
ONE_EACH = with_changes(
    BASE,
    hands=["AH KH QH JH TH 9H LJ KS QS JS TS 9S".split(), "6H 5H 4H 3H BJ AS 8S 7S 6S 5S 4S 3S".split(),
           BASE["hands"][2], BASE["hands"][3]],
    kitty="2S 3D 2D 2C 8H 2H".split(),
    discard="LJ 2S 3D 2D 2C 2H".split(),
    swaps=[{"seat": 1, "gave": "BJ", "drew": "2H"}],
    **{"with": ["jokers-out-in-notrump"]},
)
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def fancy(card: str) -> str:
    """``card`` as a person might type it: lower case, ``10`` for T, a suit symbol (jokers lower case)."""
    if card[1] not in SUIT_SYMBOL:
        return card.lower()
    return ("10" if card[0] == "T" else card[0].lower()) + SUIT_SYMBOL[card[1]]


def replay(tmp_path, data, *args: str, name: str = "hand.json"):
    """``bidwhist replay FILE ARGS`` of ``data``: click's Result."""
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return run("replay", str(path), *args)


def replay_ok(tmp_path, data) -> dict:
    """The JSON of a legal record (exit 0)."""
    result = replay(tmp_path, data, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = json.loads(result.stdout)
    assert out["error"] is None
    return out


def replay_error(tmp_path, data, at: str) -> str:
    """The error message of an illegal record (exit 1) at ``at``; the text output says the same on stderr."""
    result = replay(tmp_path, data, "--json")
    assert result.exit_code == 1, result.stdout + result.stderr
    out = json.loads(result.stdout)
    assert out["contract"] is None and out["score"] is None
    assert out["error"]["at"] == at, out["error"]
    text = replay(tmp_path, data)
    assert text.exit_code == 1 and text.stdout == ""
    assert text.stderr.count("\n") == 1 and f"{at}: {out['error']['message']}" in text.stderr
    return out["error"]["message"]


# Oregon (no kitty, 13 cards each, bids are bare numbers, the first card led names trump unless
# the declarer declares notrump): dealer 3, seat 0 bids 1 and the others pass; seat 0 leads AH.
OREGON = {
    "format": "bidwhist-hand/1", "variant": "oregon", "dealer": 3,
    "hands": ["AH KH QH JH TH 9H 8H KS QS JS TS 9S 2S".split(), "6H 5H 4H 3H 2H AS 8S 7S 6S 5S 4S 3S 3D".split(),
              "7H AD KD QD JD TD 9D 8D 7D 6D 5D 4D 2D".split(), "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C".split()],
    "auction": ["1", "pass", "pass", "pass"],
    "play": "AH 2H 7H 2C".split(),
}


# ============================================================================ Cards
def test_a_record_in_any_spelling_replays_to_the_canonical_output(tmp_path):
    """"On input also ♠ ♥ ♦ ♣ and lower case", "`10` is accepted for `T`", "Output is always the
    canonical ASCII spelling": the worked hand with every card so spelt gives the same JSON and text."""
    spelt = with_changes(BASE, hands=[[fancy(c) for c in h] for h in BASE["hands"]],
                         kitty=[fancy(c) for c in BASE["kitty"]], discard=[fancy(c) for c in BASE["discard"]],
                         play=[fancy(c) for c in BASE["play"]])
    assert spelt["play"][:2] == ["a♥", "2♥"] and "10♠" in spelt["hands"][0] and "bj" in spelt["kitty"]
    assert replay_ok(tmp_path, spelt) == replay_ok(tmp_path, BASE)
    assert replay(tmp_path, spelt).stdout == replay(tmp_path, BASE).stdout
    # Errors too: seat 1 reneges with 3♠, then plays a card seat 2 holds.
    assert replay_error(tmp_path, with_changes(spelt, play=["a♥", "3♠"]), "play[1]") == \
        "seat 1 must follow hearts (holds 2H, 3H, 4H, 5H, 6H)"
    assert replay_error(tmp_path, with_changes(spelt, play=["a♥", "7♥"]), "play[1]") == "seat 1 does not hold 7H"


# "Output is always the canonical ASCII spelling above" -- error messages included: a card,
# suit, direction or call the record spells its own way is named canonically once it is read.

def test_a_card_after_the_hand_is_over_is_named_canonically(tmp_path):
    msg = replay_error(tmp_path, with_changes(BASE, play=BASE["play"] + ["10♥"]), "play[48]")
    assert msg == "seat 0, who won the last trick, leads TH after the hand was over (48 cards)"


def test_a_discard_not_held_is_named_canonically(tmp_path):
    # 7H is seat 2's: seat 0 cannot lay it away.
    msg = replay_error(tmp_path, with_changes(BASE, discard=["7♥"] + BASE["discard"][1:]), "discard")
    assert msg == "seat 0 discards 7H, which it does not hold"
    msg = replay_error(tmp_path, with_changes(BASE, discard=["bj", "BJ"] + BASE["discard"][2:]), "discard")
    assert msg == "seat 0 discards BJ, which it does not hold (any more: it is listed twice)"
    msg = replay_error(tmp_path, with_changes(BASE, discard=["x♥"] + BASE["discard"][1:]), "discard")
    assert "'x♥'" in msg and "not a card of this deck" in msg


def test_a_call_after_the_auction_is_named_canonically(tmp_path):
    """"A call is one string, case-insensitive on input, canonical lower case on output"."""
    msg = replay_error(tmp_path, with_changes(BASE, auction=BASE["auction"] + ["PASS"]), "auction")
    assert msg == "the auction was over after 4 calls, ended by seat 3's 'pass'; 'pass' follows it"
    msg = replay_error(tmp_path, with_changes(BASE, auction=BASE["auction"] + ["5 HIGH"]), "auction")
    assert msg == "the auction was over after 4 calls, ended by seat 3's 'pass'; '5 uptown' follows it"


def test_a_card_after_a_hand_over_after_one_card_says_1_card():
    """The count is singular where it is one, as "the auction was over after 1 call" is (was:
    "after 1 cards").  No shipped variant ends a hand after one card, so the state is a stand-in
    holding only what the message reads: the tricks played (one, of one card, won by seat 2)
    and that the hand is over."""
    rules = load_ruleset("standard", ())
    state = SimpleNamespace(rules=rules, tricks=[Trick(2, (0,), 2)], trick=[], phase=OVER)
    error = _play_error(state, [rules.cards[0], rules.cards[1]], "")  # type: ignore[arg-type]
    assert (error.at, error.message) == (
        "play[1]", f"seat 2, who won the last trick, leads {rules.cards[1]} after the hand was over (1 card)")


def test_a_contradicted_trump_or_direction_is_named_canonically(tmp_path):
    msg = replay_error(tmp_path, with_changes(BASE, declare={"trump": "♥", "direction": "up"}), "declare")
    assert msg == "seat 0: trump H contradicts the contract (no trump)"
    down = with_changes(BASE, auction=["4 DOWN", "pass", "pass", "pass"], declare={"trump": "h", "direction": "High"})
    msg = replay_error(tmp_path, down, "declare")
    assert msg == "seat 0: direction uptown contradicts the contract (downtown)"


def test_the_first_unknown_key_of_a_declare_as_written_is_named(tmp_path):
    """records.md names the first offending entry as written, for a declare as for a record's
    fields (was: the first in alphabetical order, 'also')."""
    declare = {"trump": None, "direction": "up", "note": 1, "also": 2}
    assert replay_error(tmp_path, with_changes(BASE, declare=declare), "declare").startswith(
        "seat 0: unknown key 'note' in declare")


@pytest.mark.parametrize("declare, fragment", [
    ({"trump": True, "direction": "up"}, "trump true is not a suit of this deck"),
    ({"trump": "hearts", "direction": "up"}, "trump 'hearts' is not a suit of this deck"),
    ({"direction": None}, "direction null is not one of: uptown, downtown"),
], ids=["bool", "word", "null-direction"])
def test_a_declare_value_that_is_no_suit_or_direction_says_so_in_json_terms(tmp_path, declare, fragment):
    """A record is JSON: a value that is not a suit is "not a suit" (not a "contradiction"), and
    values are quoted as JSON writes them (``true``, ``null``), not as Python does."""
    assert fragment in replay_error(tmp_path, with_changes(BASE, declare=declare), "declare")


@pytest.mark.parametrize("call, quoted", [(4, "4"), (True, "true"), (None, "null"), (["4", "nt"], '["4", "nt"]')])
def test_a_call_that_is_not_a_string_is_quoted_as_json(tmp_path, call, quoted):
    """"A call is one string": a JSON number is not the call "4"; the message shows the value as
    the record wrote it and says a call is a string."""
    msg = replay_error(tmp_path, with_changes(BASE, auction=[call, "pass", "pass", "pass"]), "auction[0]")
    assert msg.startswith(f"seat 0: {quoted} is not a call") and "a string" in msg


def test_a_swap_card_that_is_not_a_card_is_quoted_and_cut(tmp_path):
    """records.md: "A message quotes at most 40 characters of a value from the record"."""
    swaps = [{"seat": 1, "gave": "J" * 5000, "drew": "2H"}]
    assert replay_ok(tmp_path, ONE_EACH)["books"] == [12, 1]
    msg = replay_error(tmp_path, with_changes(ONE_EACH, swaps=swaps), "swaps")
    assert "not a card of this deck" in msg and len(msg) < 200


@pytest.mark.parametrize("change, at", [
    ({"play": ["Q" * 100]}, "play[0]"),
    ({"auction": ["7" * 50 + "x" * 50]}, "auction[0]"),
    ({"discard": ["Q" * 100] + BASE["discard"][1:]}, "discard"),
])
def test_a_long_value_is_quoted_by_its_first_40_characters_and_its_own_length(tmp_path, change, at):
    """records.md: "A message quotes at most 40 characters of a value from the record": the
    first 40 in quotes, and how long the value is (100 characters, not its quotes' 102)."""
    value = next(iter(change.values()))[0]
    msg = replay_error(tmp_path, with_changes(BASE, **change), at)
    assert f"'{value[:40]}...' (100 characters)" in msg and value[:41] not in msg


# ============================================================================ in_progress: the contract
# "contract holds what is decided (null while the auction is open)" -- and `trump` null means
# notrump ("contract.trump is the trump suit in force ..., null in notrump"), so a trump not yet
# named is not held at all; nor is a direction not yet chosen.

# The worked deal bid 4 downtown instead: seat 0 must name trump before anything else.
DOWN = with_changes(BASE, auction=["4 downtown", "pass", "pass", "pass"], declare={"trump": "H"})
DOWN_CONTRACT = {"declarer": 0, "side": 0, "bid": 4, "strain": "downtown", "trump": "H", "direction": "downtown"}


@pytest.mark.parametrize("record, declare, words", [
    (DOWN, {"direction": "uptown"}, "seat 0: direction uptown contradicts the contract (downtown)"),
    (BASE, {"trump": "H"}, "seat 0: trump H contradicts the contract (no trump)"),
    (BASE, {"trump": "XX"}, "seat 0: trump 'XX' is not a suit of this deck"),
    (DOWN, {}, "seat 0 must name trump"),
    (BASE, {"trump": None}, "seat 0 must name a direction"),
])
def test_a_declare_is_refused_for_what_it_names_before_what_it_leaves_out(tmp_path, record, declare, words):
    """records.md: what the bid settled "may be repeated but not contradicted" (docs/records.md):
    a declare that contradicts the bid, or names no suit, is told so, before (as a hand in
    progress is) the term it leaves out; one that only leaves a term out is told that."""
    assert replay_error(tmp_path, with_changes(record, declare=declare), "declare") == words


def test_a_trump_not_yet_named_is_not_reported_as_notrump(tmp_path):
    out = replay_ok(tmp_path, with_changes(DOWN, declare=..., discard=..., play=..., in_progress=True))
    assert out["contract"] == {k: v for k, v in DOWN_CONTRACT.items() if k != "trump"}
    text = replay(tmp_path, with_changes(DOWN, declare=..., discard=..., play=..., in_progress=True)).stdout
    assert "no trump" not in text and "trump not yet named" in text
    # Once named, it is held.
    out = replay_ok(tmp_path, with_changes(DOWN, discard=..., play=..., in_progress=True))
    assert out["contract"] == DOWN_CONTRACT


def test_a_direction_not_yet_chosen_is_not_held(tmp_path):
    out = replay_ok(tmp_path, with_changes(BASE, declare=..., discard=..., play=..., in_progress=True))
    assert out["contract"] == {"declarer": 0, "side": 0, "bid": 4, "strain": "notrump", "trump": None}


def test_where_the_first_lead_names_trump_it_is_undecided_until_then(tmp_path):
    """Oregon: before the first lead (and no notrump declared) trump is not decided; the lead decides it."""
    out = replay_ok(tmp_path, with_changes(OREGON, play=[], in_progress=True))
    assert out["contract"] == {"declarer": 0, "side": 0, "bid": 1, "strain": "number", "direction": "uptown"}
    out = replay_ok(tmp_path, with_changes(OREGON, play=OREGON["play"][:1], in_progress=True))
    assert out["contract"]["trump"] == "H"
    assert out["tricks"] == [{"leader": 0, "cards": ["AH"], "winner": None}]
    out = replay_ok(tmp_path, with_changes(OREGON, declare={"trump": None}, play=[], in_progress=True))
    assert out["contract"]["trump"] is None


# ============================================================================ Calls: bare numbers
def test_the_text_says_a_bare_number_contract_as_its_call(tmp_path):
    """"`<n>` for a bare-number bid": the text output names the contract as the call is written
    (``1``), not with the strain's inner name (``1 number``)."""
    text = replay(tmp_path, with_changes(OREGON, play=OREGON["play"][:1], in_progress=True)).stdout
    assert "contract  1 by seat 0 (side 0+2), hearts trump, uptown" in text
    assert "number" not in text


@pytest.mark.parametrize("call", ["1", " 1 ", "01"])
def test_bare_number_bids_in_any_spacing(tmp_path, call):
    out = replay_ok(tmp_path, with_changes(OREGON, auction=[call, "PASS", "Pass", "pass"], in_progress=True))
    assert out["contract"]["bid"] == 1 and out["contract"]["declarer"] == 0


@pytest.mark.parametrize("call", ["1 uptown", "1 notrump", "1 nt", "one"])
def test_a_strain_word_after_a_bare_number_bid_is_no_call(tmp_path, call):
    """Oregon's bids are bare numbers: ``1 uptown`` is not one of its calls."""
    msg = replay_error(tmp_path, with_changes(OREGON, auction=[call, "pass", "pass", "pass"]), "auction[0]")
    assert msg == f"seat 0: {call!r} is not a call of this variant"


def test_analyze_reports_the_same_decided_contract(tmp_path):
    """`bidwhist analyze` of a hand stopped before trump is named says what replay says."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(with_changes(DOWN, declare=..., discard=..., play=..., in_progress=True)))
    result = run("analyze", str(path), "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["contract"] == {k: v for k, v in DOWN_CONTRACT.items() if k != "trump"}


# ============================================================================ reneges
# renege-penalty: seat 1 plays 3S on the first trick (holding hearts) and 2H on the fourth (a
# spade lead: holding spades) -- two reneges of side 1, which took 1 book: fewer than the 3 it
# owes, so the hand is scored as if side 0 took all 13 (+14: 7 over six, doubled in notrump).
TWO_RENEGES = with_changes(
    BASE, **{"with": ["renege-penalty"]},
    play=["3S" if c == "2H" else "2H" if c == "3S" else c for c in BASE["play"]])


def test_every_renege_that_stood_is_listed_and_the_text_says_what_each_moved(tmp_path):
    out = replay_ok(tmp_path, TWO_RENEGES)
    assert out["reneges"] == [{"at": "play[1]", "seat": 1, "suit": "H"}, {"at": "play[13]", "seat": 1, "suit": "S"}]
    assert out["books"] == [13, 0] and out["score"] == [14, 0]
    text = replay(tmp_path, TWO_RENEGES).stdout
    assert ("seat 1 did not follow hearts at play[1] and the renege stood: side 1+3 had only 1 book, so the hand "
            "is scored as if side 0+2 took all 13") in text
    # The second renege is said too, though it moves nothing more.
    assert "seat 1 did not follow spades at play[13] and the renege stood: nothing more moved" in text


def test_reneges_of_a_hand_in_progress_are_listed_and_books_are_the_tricks_so_far(tmp_path):
    """"books are the tricks so far" in progress: the penalty moves books only when the hand is scored."""
    out = replay_ok(tmp_path, with_changes(TWO_RENEGES, play=TWO_RENEGES["play"][:6], in_progress=True))
    assert out["reneges"] == [{"at": "play[1]", "seat": 1, "suit": "H"}]
    assert out["books"] == [2, 0] and out["score"] is None
    # The text says so too (what the penalty moves is known only when the hand is scored).
    text = replay(tmp_path, with_changes(TWO_RENEGES, play=TWO_RENEGES["play"][:6], in_progress=True)).stdout
    assert "seat 1 did not follow hearts at play[1] and the renege stands" in text


def test_a_claim_after_a_renege_scores_the_books_as_the_penalty_moved_them(tmp_path):
    """The claim gives side 0 the 8 tricks left (12 books to 1 before the penalty); side 1 took
    only 1 book, so it is scored as 13 to 0."""
    out = replay_ok(tmp_path, with_changes(TWO_RENEGES, play=TWO_RENEGES["play"][:16], claim=8))
    assert out["books"] == [13, 0] and out["score"] == [14, 0] and len(out["reneges"]) == 2


# ============================================================================ declare
def test_where_the_first_lead_names_trump_a_trump_hand_has_no_declare(tmp_path):
    """"a hand played with trump has no declare": absent, ``null``, or ``{}``, which names nothing
    (docs/records.md's decision, as where the variant asks for nothing: "Omit what the variant
    does not ask for"), or restating only the direction the bid fixed; naming a trump suit is illegal."""
    for declare in (..., None, {}, {"direction": "uptown"}):
        out = replay_ok(tmp_path, with_changes(OREGON, declare=declare, in_progress=True))
        assert out["contract"]["trump"] == "H"
    msg = replay_error(tmp_path, with_changes(OREGON, declare={"trump": "H"}, in_progress=True), "declare")
    assert "a hand played with trump has no declare" in msg


def test_a_declared_notrump_where_the_first_lead_names_trump(tmp_path):
    """"a declared notrump is {"trump": null}"; what the bid fixed (uptown) may be repeated."""
    out = replay_ok(tmp_path, with_changes(OREGON, declare={"trump": None}, in_progress=True))
    assert out["contract"] == {"declarer": 0, "side": 0, "bid": 1, "strain": "number", "trump": None,
                               "direction": "uptown"}
    assert replay_ok(tmp_path, with_changes(OREGON, declare={"trump": None, "direction": "UPTOWN"},
                                            in_progress=True))["contract"]["trump"] is None


# ============================================================================ the order of checking
def test_the_order_of_checking_through_swaps_and_in_progress(tmp_path):
    """records.md's order, with the entries test_replay.py's chain leaves out: `swaps` between
    `discard` and `play[i]`, and `in_progress` after `claim`.  Every entry is broken; fixing
    each moves the error to the next."""
    broken = with_changes(
        ONE_EACH, hands=[ONE_EACH["hands"][0][:11]] + ONE_EACH["hands"][1:],
        auction=["4 nt", "4 high", "pass", "pass"], declare={"trump": None, "direction": "sideways"},
        discard=ONE_EACH["discard"][1:] + ["8H"], swaps=[{"seat": 1, "gave": "BJ", "drew": "AH"}],
        play=["AH", "2H", "AD"] + ONE_EACH["play"][3:8], claim=99, in_progress=True)
    steps = [("hands", ONE_EACH["hands"]), ("auction[1]", ONE_EACH["auction"]), ("declare", ONE_EACH["declare"]),
             ("discard", ONE_EACH["discard"]), ("swaps", ONE_EACH["swaps"]), ("play[2]", ONE_EACH["play"][:8]),
             ("claim", 10), ("in_progress", ...)]
    record = broken
    for at, fix in steps:
        replay_error(tmp_path, record, at)
        record = with_changes(record, **{at.split("[")[0]: fix})
    out = replay_ok(tmp_path, record)
    assert out["books"] == [12, 1] and out["score"] == [12, 0]


def test_a_hand_that_stops_early_is_illegal_at_the_entry_where_it_stops(tmp_path):
    """"`auction` when the calls stop before the auction is over", "`play` when the cards stop
    before the hand is over" (no claim, no in_progress): also when every later entry is absent."""
    assert "has not called" in replay_error(tmp_path, with_changes(BASE, auction=["4 nt", "pass"]), "auction")
    msg = replay_error(tmp_path, with_changes(BASE, play=BASE["play"][:6]), "play")
    assert msg == ("the play stops after 6 cards, with seat 2 to play; the hand is not over and nothing is "
                   "claimed")
    assert "no declare" in replay_error(tmp_path, with_changes(BASE, declare=..., discard=..., play=...), "declare")
    assert "must discard 6" in replay_error(tmp_path, with_changes(BASE, discard=..., play=...), "discard")
    assert "does not say" in replay_error(tmp_path, with_changes(ONE_EACH, swaps=[], play=...), "swaps")
    assert "stops after 0 cards" in replay_error(tmp_path, with_changes(BASE, play=...), "play")


# ============================================================================ discard
def test_a_joker_left_in_the_kitty_is_not_listed_and_the_message_says_why(tmp_path):
    """"a joker left in the kitty never reaches the hand and is not listed" (jokers-out-in-notrump,
    both jokers in the worked deal's kitty): listing them is illegal at `discard`, saying why."""
    out_rule = with_changes(BASE, **{"with": ["jokers-out-in-notrump"]})
    out = replay_ok(tmp_path, with_changes(out_rule, discard="2S 3D 2D 2C".split()))
    assert out["books"] == [12, 1] and out["score"] == [12, 0]
    for discard in (BASE["discard"], ["bj", "2S", "3D", "2D"]):
        msg = replay_error(tmp_path, with_changes(out_rule, discard=discard), "discard")
        assert msg.startswith("seat 0 discards BJ, which stays in the kitty: it leaves play"), msg


# ============================================================================ claim
@pytest.mark.parametrize("claim", [10 ** 300, [10 ** 300, 1]], ids=["number", "shares"])
def test_a_huge_claim_is_illegal_and_quoted_cut(tmp_path, claim):
    """"A claim larger than the tricks remaining is illegal"; records.md: "A message quotes at most
    40 characters of a value from the record"."""
    msg = replay_error(tmp_path, with_changes(BASE, play=BASE["play"][:4], claim=claim), "claim")
    assert "11 remain" in msg and "characters)" in msg and len(msg) < 150


def test_a_claim_of_every_remaining_trick_and_of_none(tmp_path):
    """Two sides: the declaring side takes `claim` of the remaining tricks, the other side the rest."""
    out = replay_ok(tmp_path, with_changes(BASE, play=BASE["play"][:4], claim=11))
    assert out["books"] == [13, 0] and out["score"] == [14, 0] and len(out["tricks"]) == 1
    out = replay_ok(tmp_path, with_changes(BASE, play=BASE["play"][:4], claim=0))
    assert out["books"] == [2, 11] and out["score"] == [-8, 0]
    text = replay(tmp_path, with_changes(BASE, play=BASE["play"][:4], claim=0)).stdout
    assert "side 0+2 2 (declarers)   side 1+3 11, the rest by claim" in text and "result    set" in text


def test_a_claim_of_0_on_a_hand_played_out_changes_nothing(tmp_path):
    """Decision (docs/records.md): every card played, nothing remains, so 0 is the only claim
    there is and it claims nothing; 1 is more than remains."""
    assert replay_ok(tmp_path, with_changes(BASE, claim=0)) == replay_ok(tmp_path, BASE)
    assert "by claim" not in replay(tmp_path, with_changes(BASE, claim=0)).stdout
    assert replay_error(tmp_path, with_changes(BASE, claim=1), "claim") == "seat 0: claim of 1 trick, but only 0 remain"


def test_a_renege_on_a_joker_lead_is_of_the_trump_suit(tmp_path):
    """`"suit"` is the suit the renege failed to follow: a joker led in a suit contract leads trump
    (hearts here), so seat 1, holding hearts, reneges on hearts with 3S."""
    suit_hand = with_changes(BASE, auction=["4 up", "pass", "pass", "pass"], declare={"trump": "H"},
                             discard="2S 3D 2D 2C 9S TS".split(), play=["BJ", "3S", "7H", "3C"], in_progress=True,
                             **{"with": ["renege-penalty"]})
    out = replay_ok(tmp_path, suit_hand)
    assert out["reneges"] == [{"at": "play[1]", "seat": 1, "suit": "H"}]
    assert out["tricks"] == [{"leader": 0, "cards": ["BJ", "3S", "7H", "3C"], "winner": 0}]
    msg = replay_error(tmp_path, with_changes(suit_hand, **{"with": []}), "play[1]")
    assert msg == "seat 1 must follow hearts (holds 2H, 3H, 4H, 5H, 6H)"


def test_analyze_of_a_first_lead_hand_before_its_lead_leaves_trump_undecided(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(with_changes(OREGON, play=[], in_progress=True)))
    result = run("analyze", str(path), "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "trump" not in json.loads(result.stdout)["contract"]


# spades-trump: an uptown or downtown bid names only the direction; spades are trump.
SPADES = with_changes(BASE, **{"with": ["spades-trump"]}, auction=["4 uptown", "pass", "pass", "pass"],
                      play=..., in_progress=True)


@pytest.mark.parametrize("declare", [..., None, {}, {"trump": "S"}, {"trump": "s", "direction": "High"}],
                         ids=["absent", "null", "empty", "restated", "restated-lenient"])
def test_declare_omits_what_the_variant_does_not_ask_for(tmp_path, declare):
    """"Omit what the variant does not ask for": with spades-trump the declarer names nothing after
    an uptown bid; what the bid settled may be repeated, in any spelling."""
    out = replay_ok(tmp_path, with_changes(SPADES, declare=declare))
    assert out["contract"] == {"declarer": 0, "side": 0, "bid": 4, "strain": "uptown", "trump": "S",
                               "direction": "uptown"}


@pytest.mark.parametrize("declare, message", [
    ({"trump": "♥"}, "seat 0: trump H contradicts the contract (spades trump)"),
    ({"trump": None}, "seat 0: trump null contradicts the contract (spades trump)"),
    ({"direction": "down"}, "seat 0: direction downtown contradicts the contract (uptown)"),
])
def test_what_the_bid_settled_may_not_be_contradicted(tmp_path, declare, message):
    assert replay_error(tmp_path, with_changes(SPADES, declare=declare), "declare") == message


# ============================================================================ in_progress: every cut
def _cuts(record: dict):
    """Every point a hand of the worked deal can stop at, with the entry that is then missing."""
    later = ("declare", "discard", "swaps", "play")
    for k in range(len(record["auction"])):
        yield with_changes(record, auction=record["auction"][:k], **{key: ... for key in later}), "auction"
    yield with_changes(record, declare=..., discard=..., play=...), "declare"
    for k in range(len(record["discard"])):
        yield with_changes(record, discard=record["discard"][:k], play=...), "discard"
    for k in range(len(record["play"])):
        yield with_changes(record, play=record["play"][:k]), "play"


def test_a_hand_may_stop_anywhere_with_the_flag_and_nowhere_without(tmp_path):
    """"`play` may stop after any card" (and the hand at any earlier point): with `in_progress`
    it replays (exit 0, score null, books the tricks so far); without, it is illegal at the
    entry where it stops."""
    for cut, missing in _cuts(BASE):
        out = replay_ok(tmp_path, with_changes(cut, in_progress=True))
        assert out["in_progress"] is True and out["score"] is None
        played = len(cut.get("play", []))
        assert sum(out["books"]) == played // 4 + (1 if missing == "play" else 0)  # the discards' book
        assert sum(len(t["cards"]) for t in out["tricks"]) == played
        assert all(t["winner"] is None for t in out["tricks"] if len(t["cards"]) < 4)
        assert (out["contract"] is None) == (missing == "auction")
        result = replay(tmp_path, cut, "--json")
        assert result.exit_code == 1 and json.loads(result.stdout)["error"]["at"] == missing, cut


# ============================================================================ a hand without a contract
def test_a_hand_without_a_contract_scores_zero_in_json_and_text(tmp_path):
    """"`contract` is `null` for a hand that ended without one (and `score` is all zero)"; the text
    says the same facts."""
    thrown = with_changes(BASE, **{"with": ["all-pass-redeal"]}, auction=["PASS"] * 4, declare=..., discard=...,
                          play=...)
    out = replay_ok(tmp_path, thrown)
    assert out == {"contract": None, "tricks": [], "books": [0, 0], "score": [0, 0], "error": None}
    text = replay(tmp_path, thrown).stdout
    assert "none: the hand was thrown in" in text and "score     side 0+2 0   side 1+3 0" in text


def test_an_unknown_field_is_reported_before_the_variant_is_looked_up(tmp_path):
    # docs/records.md (Errors): an unknown field is reported at its own name before anything
    # else is checked -- a hand record as a game record's hands are.
    message = replay_error(tmp_path, {**OREGON, "variant": "no-such-game", "notes": "x"}, "notes")
    assert "unknown field 'notes'" in message


def test_of_two_unknown_fields_the_first_written_is_reported(tmp_path):
    # records.md: `at` names the first offending entry of the record: the first unknown field
    # as the record writes them (the reader reported the first in sorted order).
    assert "unknown field 'zeta'" in replay_error(tmp_path, {**OREGON, "zeta": 1, "alpha": 2}, "zeta")


# A hand in progress that stops at a term still to be named (a notrump bid's direction; a
# downtown bid's trump) is still checked against what is decided (records.md: replay "checks
# everything the record holds") -- found by the session's second read.
NT_STOPPED_AT_DIRECTION = {"format": "bidwhist-hand/1", "variant": "standard", "with": [], "dealer": 0, "hands": [["AS", "4H", "5H", "6H", "TH", "QH", "TD", "QD", "KD", "5C", "TC", "AC"], ["3S", "5S", "8S", "9S", "TS", "3H", "3D", "7D", "AD", "JC", "KC", "BJ"], ["QS", "KS", "7H", "JH", "KH", "2D", "5D", "2C", "6C", "8C", "QC", "LJ"], ["4S", "7S", "2H", "9H", "AH", "6D", "8D", "9D", "3C", "4C", "7C", "9C"]], "kitty": ["8H", "4D", "2S", "6S", "JD", "JS"], "auction": ["3 downtown", "pass", "pass", "3 notrump"], "declare": {"trump": "H"}, "in_progress": True}
DOWN_STOPPED_AT_TRUMP = {"format": "bidwhist-hand/1", "variant": "standard", "with": [], "dealer": 0, "hands": [["2S", "TS", "JS", "3H", "4H", "QH", "AH", "5D", "8D", "7C", "TC", "LJ"], ["7S", "QS", "KS", "5H", "9H", "KH", "QD", "KD", "2C", "3C", "5C", "9C"], ["5S", "9S", "AS", "6H", "JH", "2D", "4D", "TD", "6C", "KC", "AC", "BJ"], ["4S", "8S", "2H", "7H", "8H", "TH", "3D", "6D", "JD", "AD", "4C", "QC"]], "kitty": ["6S", "8C", "3S", "7D", "9D", "JC"], "auction": ["pass", "pass", "pass", "3 downtown"], "declare": {"direction": "sideways"}, "in_progress": True}


def test_a_hand_in_progress_stopping_in_declare_checks_what_it_holds(tmp_path):
    assert replay_error(tmp_path, NT_STOPPED_AT_DIRECTION, "declare") == \
        "seat 0: trump H contradicts the contract (no trump)"
    assert replay_error(tmp_path, DOWN_STOPPED_AT_TRUMP, "declare") == \
        "seat 0: direction 'sideways' is not one of: uptown, downtown"
    restated = {**DOWN_STOPPED_AT_TRUMP, "declare": {"direction": "uptown"}}
    assert replay_error(tmp_path, restated, "declare") == "seat 0: direction uptown contradicts the contract (downtown)"
    # What agrees with the bid stops there as before: in progress, trump still to be named.
    agreed = replay_ok(tmp_path, {**DOWN_STOPPED_AT_TRUMP, "declare": {"direction": "downtown"}})
    assert agreed["in_progress"] is True and "trump" not in agreed["contract"]
    assert replay_ok(tmp_path, {**NT_STOPPED_AT_DIRECTION, "declare": {"trump": None}})["contract"]["trump"] is None


@pytest.mark.parametrize("variant, redeal", [("northeast52", True), ("standard", False)])
def test_a_dealer_who_must_bid_is_told_of_the_redeal_where_it_may_throw_the_hand_in(tmp_path, variant, redeal):
    # rules.md §2: northeast52's dealer, everyone else having passed, bids or throws the hand in.
    records = tmp_path / "sim.jsonl"
    assert run("simulate", variant, "--hands", "1", "--seed", "1", "--records", str(records)).exit_code == 0
    record = json.loads(records.read_text(encoding="utf-8").splitlines()[0])
    for key in ("declare", "discard", "swaps", "play", "claim"):
        record.pop(key, None)
    record["auction"] = ["pass"] * 4
    message = replay_error(tmp_path, record, "auction[3]")
    assert message.endswith(f"is the dealer and must bid{' or call redeal' if redeal else ''}: everyone else passed")

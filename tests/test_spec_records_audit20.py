"""records.md read afresh (audit 20): the places where replay differed from a sentence of it.

Each test names the sentence it checks.  The records are small (tests/worked_hands.py's deal,
or a hand a bot plays under the rules named).
"""

from __future__ import annotations

import json

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime.records import hand_record
from runtime.simulate import play_hand
from worked_hands import NT_RECORD, with_changes, write_record

# A passed-out hand: everyone passes and, under all-pass-redeal, the hand is thrown in.
PASSED_OUT = with_changes(NT_RECORD, auction=["pass"] * 4, declare=..., discard=..., play=...)
PASSED_OUT["with"] = ["all-pass-redeal"]
# A hand in progress, stopped in the auction (seat 1 still to call).
IN_THE_AUCTION = with_changes(NT_RECORD, auction=["4 notrump"], declare=..., discard=..., play=...,
                              in_progress=True)
# Values of the wrong type that Python reads as false: none is an empty list or object.
NOT_EMPTY = [0, "", False]


def replayed(tmp_path, record: dict) -> tuple[int, dict]:
    """``bidwhist replay --json`` of ``record``: its exit status and its JSON."""
    result = run("replay", "--json", str(write_record(tmp_path / "hand.json", record)))
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    return result.exit_code, json.loads(result.stdout)


# --------------------------------------------------------------------------- "has no declare, discard or play"
@pytest.mark.parametrize("key", ["declare", "discard", "swaps", "play"])
@pytest.mark.parametrize("value", NOT_EMPTY)
def test_a_hand_without_a_contract_refuses_a_later_entry_of_the_wrong_type(tmp_path, key, value):
    """records.md: "A hand that ended without a contract (everyone passed, a redeal) has no
    `declare`, `discard` or `play`", and the format rejects "what does not fit it".  An empty
    list (or object, for declare) says nothing; `"play": 0`, `""` or `false` was let pass as if
    absent (Python reads them as false), so a record of no such shape was scored."""
    status, out = replayed(tmp_path, dict(PASSED_OUT, **{key: value}))
    assert status == 1 and out["error"]["at"] == key, out
    assert out["error"]["message"] == f"the hand ended without a contract, so it has no {key}"


@pytest.mark.parametrize("key, value", [("declare", {}), ("discard", []), ("swaps", []), ("play", [])])
def test_a_hand_without_a_contract_lets_an_empty_entry_pass(tmp_path, key, value):
    """The empty value of an entry still says nothing (records.md: `swaps: []` and no `swaps` both
    mean no exchange): the passed-out hand replays, no contract and a score of all zero."""
    status, out = replayed(tmp_path, dict(PASSED_OUT, **{key: value}))
    assert status == 0 and out["contract"] is None and out["score"] == [0, 0], out


@pytest.mark.parametrize("key", ["declare", "discard", "swaps", "play"])
@pytest.mark.parametrize("value", NOT_EMPTY)
def test_a_hand_in_progress_refuses_a_later_entry_of_the_wrong_type(tmp_path, key, value):
    """records.md `in_progress`: "Replay checks everything the record holds".  A hand stopped in the
    auction has no entry after it; one given as 0, "" or false was taken for an absent one."""
    status, out = replayed(tmp_path, dict(IN_THE_AUCTION, **{key: value}))
    assert status == 1 and out["error"]["at"] == key, out
    assert out["error"]["message"].endswith(f"so the record has no {key} yet")


def test_the_hand_in_progress_without_later_entries_replays(tmp_path):
    """The same hand in progress with nothing after its auction (or only empty entries) replays."""
    for extra in ({}, {"declare": {}, "discard": [], "swaps": [], "play": []}):
        status, out = replayed(tmp_path, dict(IN_THE_AUCTION, **extra))
        assert status == 0 and out["in_progress"] is True and out["contract"] is None, out


@pytest.fixture(scope="module")
def kittyless_record() -> dict:
    """A whole hand of oregon (no kitty, hence no discard and no exchange) as a record."""
    rules = load_ruleset("oregon")
    return hand_record(play_hand(rules, 1, 0), "oregon")


@pytest.mark.parametrize("key", ["discard", "swaps"])
@pytest.mark.parametrize("value", NOT_EMPTY + [{}])
def test_a_discard_or_swaps_of_the_wrong_type_where_no_kitty_is_taken_is_refused(tmp_path, kittyless_record,
                                                                                  key, value):
    """records.md `discard` (the cards laid away after taking the kitty) and `swaps` (`swaps: []`
    and no `swaps` both mean no exchange): in a hand that takes no kitty, `"discard": 0`,
    `false`, `""` or `{}` and `"swaps": 0` were scored as if absent."""
    status, out = replayed(tmp_path, kittyless_record)
    assert status == 0, out  # the hand itself is legal
    status, out = replayed(tmp_path, dict(kittyless_record, **{key: value}))
    assert status == 1 and out["error"]["at"] == key, out


# --------------------------------------------------------------------------- "names ... the seat": hands
@pytest.mark.parametrize("seat", [0, 2])
@pytest.mark.parametrize("change, fragment", [
    (lambda hand: hand[:11], "has 11 cards; the variant deals 12"),
    (lambda hand: hand + ["2S"], "has 13 cards; the variant deals 12"),
    (lambda hand: ["XX"] + hand[1:], "holds 'XX', which is not a card of this deck"),
    (lambda hand: " ".join(hand), "must be a list of cards"),
])
def test_a_hand_that_is_not_dealt_right_names_its_seat(tmp_path, seat, change, fragment):
    """records.md: the message "names the rule that was broken and the seat", and `at` is `hands`
    for "a hand of the wrong size" or one not of the deck.  The message named the hand only as
    `hands[s]`; it now says whose hand that is in words, as every other entry names its seat."""
    hands = [list(hand) for hand in NT_RECORD["hands"]]
    hands[seat] = change(hands[seat])
    status, out = replayed(tmp_path, dict(NT_RECORD, hands=hands))
    assert status == 1 and out["error"]["at"] == "hands", out
    message = out["error"]["message"]
    assert message.startswith(f"hands[{seat}] {fragment}") and message.endswith(f"(seat {seat}'s hand)"), message


def test_an_in_progress_flag_that_is_no_boolean_is_said_before_the_auction(tmp_path):
    """docs/records.md's order of checking puts `in_progress` last, but a flag that is neither true
    nor false decides how every entry after the deal is read (may the hand stop?): it is said with
    the deal, before a bad call or card, as the page now says."""
    record = dict(NT_RECORD, in_progress="yes", auction=["9 bogus"] + NT_RECORD["auction"][1:])
    status, out = replayed(tmp_path, record)
    assert status == 1 and out["error"] == {"at": "in_progress", "message": "in_progress must be true or false"}

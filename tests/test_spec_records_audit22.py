"""records.md read afresh (audit 22): the places where replay differed from a sentence of it.

Each test names the sentence it checks.  The records are tests/worked_hands.py's deal.
"""

from __future__ import annotations

import json
import sys

import pytest

from clirun import run
from worked_hands import NT_RECORD, with_changes, write_record

# A passed-out hand under all-pass-redeal: thrown in, so a game record goes on with the next dealer.
PASSED_OUT = with_changes(NT_RECORD, auction=["pass"] * 4, declare=..., discard=..., play=...,
                          **{"with": ["all-pass-redeal"]})


@pytest.mark.parametrize("dealer", [9, -1, 10 ** 4000])
def test_a_later_hands_dealer_that_is_no_seat_is_said_so_not_off_the_rotation(tmp_path, dealer):
    """records.md, Errors: the message "names the rule that was broken", and `at` names
    `hand[k].dealer` for a dealer "not the variant's rotation"; docs/records.md: "A message quotes
    at most 40 characters of a value from the record".  A later hand's dealer 9 (of 4 seats) is no
    seat at all, as the first hand's is: it was said to be off the rotation ("dealer 9 does not
    follow the rotation (expected 0)"), and a dealer of 4,001 digits was quoted whole."""
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # json.dumps of the 4,001-digit dealer
    later = with_changes(PASSED_OUT, dealer=dealer)
    path = write_record(tmp_path / "game.jsonl", [PASSED_OUT, later])
    result = run("replay", "--json", str(path))
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error == {"at": "hand[1].dealer", "message": "dealer must be a seat from 0 to 3"}


def test_a_later_hands_seat_off_the_rotation_is_still_said_so(tmp_path):
    """records.md: a game record's hands have each "`dealer` following the variant's rotation"
    (after a redeal the variant says who deals next: all-pass-redeal, the next seat)."""
    path = write_record(tmp_path / "game.jsonl", [PASSED_OUT, with_changes(PASSED_OUT, dealer=2)])
    result = run("replay", "--json", str(path))
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["at"] == "hand[1].dealer"
    assert error["message"].startswith("dealer 2 does not follow the rotation (expected 0)")
    assert run("replay", "--json", str(write_record(tmp_path / "ok.jsonl", [
        PASSED_OUT, with_changes(PASSED_OUT, dealer=0)]))).exit_code == 0


def test_a_claim_list_of_one_share_is_said_in_the_singular(tmp_path):
    """records.md `claim`: with more than two sides (docs/records.md: with two too) "`claim` is a
    list giving each side's share"; a list of the wrong length is illegal at `claim`, and the
    message said "claim lists 1 shares"."""
    record = with_changes(NT_RECORD, play=NT_RECORD["play"][:4], claim=[11])
    result = run("replay", "--json", str(write_record(tmp_path / "hand.json", record)))
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == {
        "at": "claim", "message": "seat 0: claim lists 1 share; there are 2 sides"}


def test_a_first_hands_dealer_that_is_no_seat_is_said_so_where_the_variant_names_the_first_dealer(tmp_path):
    """As above for the first hand of a variant that names its first dealer (`deal.first_dealer`):
    dealer 9 is "not a seat", not "dealer 9, but seat 1 deals the first hand"; a seat that is
    not the first dealer is still said so."""
    (tmp_path / "fd.yaml").write_text("name: fd\nextends: standard\ndeal:\n  first_dealer: 1\n", encoding="utf-8")
    messages = {}
    for dealer in (9, 3):
        record = with_changes(PASSED_OUT, variant="fd.yaml", dealer=dealer)
        result = run("replay", "--json", str(write_record(tmp_path / "game.jsonl", [record])))
        assert result.exit_code == 1
        error = json.loads(result.stdout)["error"]
        assert error["at"] == "hand[0].dealer"
        messages[dealer] = error["message"]
    assert messages == {9: "dealer must be a seat from 0 to 3",
                        3: "dealer 3, but seat 1 deals the first hand of a game of this variant"}

"""Open ends closed in the eighteenth session.

1. Whether a file is of the kind its name was given for (a house rule where the variant goes, a
   variant where a house rule goes) is read in one place, pipeline.refuse_misnamed: the
   compiler and `check NAME+RULE` both ask it.
2. A card after the hand is over names the seat that plays it (records.py).
3. Hostile input to replay, check and compile: one message, exit 1 or 2.
4. `check` warns of a formula that divides by a constant 0.
"""

from __future__ import annotations

import difflib
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidcompiler.errors import CompileError, close_matches
from bidcompiler.expressions.parser import parse_expression
from bidcompiler.pipeline import (NotAHouseRule, NotAVariant, compile_variant, find_file, load_layer, load_ruleset,
                                   refuse_misnamed)
from clirun import run, stderr_lines, write
from runtime.records import RecordError, _content_lines, check_given_twice, hand_record, read_record_file
from runtime.simulate import play_game
from worked_hands import NT_RECORD



# ============================================================================ 1. one place for the kinds
def test_a_file_of_the_kind_named_passes():
    assert refuse_misnamed(load_layer(find_file("standard")), "variant") is None
    assert refuse_misnamed(load_layer(find_file("to-5", kind="house-rule")), "house-rule", "to-5") is None


def test_a_shipped_house_rule_as_the_variant_is_not_a_variant_named_as_shipped():
    with pytest.raises(NotAVariant) as caught:
        refuse_misnamed(load_layer(find_file("min-bid-4", kind="house-rule")), "variant")
    assert caught.value.diagnostics[0].message.startswith("lay 'min-bid-4' over a variant, after the variant's name")


def test_a_shipped_variant_as_a_house_rule_is_not_a_house_rule_under_the_name_given():
    with pytest.raises(NotAHouseRule) as caught:
        refuse_misnamed(load_layer(find_file("standard")), "house-rule", "standard")
    assert caught.value.rule == "standard"
    assert caught.value.diagnostics[0].message == (
        "name 'standard' as the variant, with house rules after it (VARIANT+RULE): it is a variant, not a house rule")


def test_a_variant_file_of_ones_own_as_a_house_rule_is_the_files_fault(tmp_path):
    mine = write(tmp_path, "mine.yaml", "name: mine\nextends: standard\n")
    with pytest.raises(CompileError) as caught:
        refuse_misnamed(load_layer(find_file(mine, kind="house-rule")), "house-rule", mine)
    assert not isinstance(caught.value, (NotAVariant, NotAHouseRule))
    assert caught.value.diagnostics[0].message == f"'{mine}' is a variant, not a house rule"


def test_check_leaves_a_variant_file_of_ones_own_laid_as_a_house_rule_to_the_check(tmp_path):
    """`check standard+mine.yaml`: not bad usage (the file may lack its kind line), the file's fault, exit 1."""
    mine = write(tmp_path, "mine.yaml", "name: mine\nextends: standard\n")
    result = run("check", f"standard+{mine}")
    assert result.exit_code == 1
    assert f"{mine}:1:1: '{mine}' is a variant, not a house rule" in result.stderr


def test_check_and_compile_refuse_a_misnamed_kind_in_the_same_words():
    for args in (("check", "standard+cutthroat"), ("compile", "standard+cutthroat")):
        result = run(*args)
        assert result.exit_code == 2
        assert stderr_lines(result)[-1].endswith(
            "name 'cutthroat' as the variant, with house rules after it (VARIANT+RULE): it is a variant, not a house rule")


# ============================================================================ 2. a card after the hand's end
def _a_game_whose_hand_ends_with_a_trick_not_seat_0s() -> tuple[list[dict], int, int]:
    """A simulated standard game (heuristic bots), the number of one of its hands played out to the
    end (all 12 tricks) whose last trick a seat other than 0 won, and that seat."""
    rules = load_ruleset("standard", ())
    for game in range(50):
        played = play_game(rules, 5, game, "heuristic")
        for k, state in enumerate(played.hands):
            if k and state.tricks and state.tricks[-1].winner != 0 and len(state.tricks) == 12:
                return [hand_record(s, "standard", []) for s in played.hands], k, state.tricks[-1].winner
    raise AssertionError("no such hand in 50 games")


def test_a_card_after_the_hand_is_over_names_the_seat_that_won_the_last_trick(tmp_path):
    """records.md: a message names the seat.  Nobody's turn comes after the last trick; the extra
    card would lead the next, which the winner of the last trick leads: that seat is named, in the
    text and --json output of a hand record and at hand[k].play[i] of a game record."""
    records, k, seat = _a_game_whose_hand_ends_with_a_trick_not_seat_0s()
    hand = dict(records[k], play=records[k]["play"] + [records[k]["play"][0]])
    message = f"seat {seat}, who won the last trick, leads {hand['play'][0]} after the hand was over (48 cards)"
    single = tmp_path / "hand.json"
    single.write_text(json.dumps(hand))
    result = run("replay", str(single))
    assert (result.exit_code, stderr_lines(result)) == (1, [f"{single}: play[48]: {message}"])
    result = run("replay", "--json", str(single))
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == {"at": "play[48]", "message": message}
    game = tmp_path / "game.jsonl"
    game.write_text("".join(json.dumps(r) + "\n" for r in [*records[:k], hand, *records[k + 1:]]))
    result = run("replay", "--json", str(game))
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == {"at": f"hand[{k}].play[48]", "message": message}


def test_a_card_after_a_hand_over_before_any_trick_is_refused_without_a_seat():
    # No phase ends a hand before its first trick today (a hand without a contract is refused
    # before its cards are read): the message still holds if one ever does, not an IndexError.
    from runtime.hand import HandState
    from runtime.records import _play_error

    rules = load_ruleset("standard+all-pass-redeal")  # four passes end the hand
    deck = list(range(len(rules.cards)))
    state = HandState(rules, 3, [deck[i * 12:(i + 1) * 12] for i in range(4)], deck[48:])
    while not state.is_terminal():
        state.apply_action(rules.pass_action)
    assert not state.tricks
    error = _play_error(state, ["AS"], "")
    assert (error.at, error.message) == ("play[0]", "the hand was over before its first card; AS follows it")


# ============================================================================ 3. hostile input, bounded
def test_a_card_list_past_the_deck_is_read_no_further_than_the_hand_can_play(monkeypatch):
    """A record may list a million cards in `play` (16 MiB allows it); each was read as a card
    (seconds of work) before the first after the hand's end was refused.  No hand plays more
    cards than the deck holds, so no more are read; the error is the same."""
    import runtime.records as records

    read = []
    real = records.parse_card
    monkeypatch.setattr(records, "parse_card", lambda rules, card: read.append(card) or real(rules, card))
    rules = load_ruleset("standard", ())
    record = dict(NT_RECORD, play=NT_RECORD["play"] * 10_000)
    with pytest.raises(RecordError) as caught:
        records.replay_hand(rules, record)
    assert (caught.value.at, caught.value.message) == (
        "play[48]", "seat 0, who won the last trick, leads AH after the hand was over (48 cards)")
    # The deal, kitty and discard, and the play up to one card past the deck (55): not 480,000.
    assert len(read) < 200 < len(record["play"])


def test_a_name_given_twice_is_found_inside_a_long_list():
    """_twice_within no longer stacks the strings of a list, only what may hold an object."""
    text = json.dumps(dict(NT_RECORD, play=[*NT_RECORD["play"], [["x"], ["y"]]])).replace(
        '["y"]', '[{"a": 1, "a": 2}]')
    path_record = read_record_file(text, "r.json")
    with pytest.raises(RecordError) as caught:
        check_given_twice(path_record.records[0])
    assert (caught.value.at, caught.value.message) == ("play", "'play' holds an object that gives 'a' twice "
                                                               "(which one counts is not said)")


@pytest.mark.parametrize("word, words, n, cutoff", [
    ("standrd", ["standard", "oregon", "cutthroat"], 1, 0.6),
    ("STANDARD", ["standard"], 3, 0.6),
    ("x", ["standard", "oregon"], 3, 0.6),
    ("to5", ["to-5", "to-7", "min-bid-4"], 3, 0.75),
    ("", ["a", ""], 3, 0.6),
    ("aaaa", ["a", "aa", "aaaaaaaa", "aaaaaaaaaaaaaaaa"], 3, 0.5),
])
def test_close_matches_says_what_difflib_says(word, words, n, cutoff):
    assert close_matches(word, words, n, cutoff) == difflib.get_close_matches(word, words, n, cutoff)


def test_close_matches_does_not_index_a_name_too_long_to_match(monkeypatch):
    """A 10 MB variant name in a record spent seconds in difflib for each "did you mean"; a name
    more than (2 / cutoff - 1) times the longest possibility's length cannot come within cutoff."""
    monkeypatch.setattr(difflib, "get_close_matches", lambda *args, **kwargs: pytest.fail("difflib asked"))
    assert close_matches("s" * 10_000_000, ["standard", "oregon"]) == []
    assert close_matches("s" * 33, ["standard"], cutoff=0.4) == []  # 2 * 8 / (33 + 8) < 0.4


def test_a_huge_unknown_variant_name_in_a_record_is_one_message(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(dict(NT_RECORD, variant="s" * 5_000_000)))
    result = run("replay", "--json", str(path))
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["at"] == "variant"
    assert error["message"].startswith("unknown variant 'ssssssssss") and "(5000000 characters)" in error["message"]


def _lines_one_by_one(text: str) -> list[tuple[int, str]]:
    """The non-blank lines of ``text`` as the reader found them before (each line looked at)."""
    found, start, n = [], 0, 0
    for n, brk in enumerate(re.finditer("\r\n|[\n\r]", text), 1):
        found.append((n, text[start:brk.start()]))
        start = brk.end()
    if start < len(text):
        found.append((n + 1, text[start:]))
    return [(n, line) for n, line in found if line.strip()]


@settings(max_examples=500, deadline=None, database=None)
@given(st.text(alphabet="\n\r \t\x0b\x0c\x1c\x85\u2028\u00a0\ufeffa{", max_size=40))
def test_the_lines_of_a_record_file_are_those_read_one_by_one(text):
    """_content_lines passes over a run of blank lines in one step: the same lines, the same numbers."""
    assert list(_content_lines(text)) == _lines_one_by_one(text)


def test_ten_million_blank_lines_are_an_empty_file(tmp_path):
    path = tmp_path / "blank.jsonl"
    path.write_text("\n \r\n\t" * 2_000_000)
    result = run("replay", str(path))
    assert (result.exit_code, result.stderr) == (2, f"{path}: empty file, expected a bidwhist-hand/1 record\n")


def test_a_record_after_many_blank_lines_is_found_at_its_line(tmp_path):
    path = tmp_path / "late.jsonl"
    path.write_text("\n" * 1_000_000 + "\r\n \r" + json.dumps(dict(NT_RECORD, dealer=9)) + "\n\n")
    result = run("replay", str(path))
    assert (result.exit_code, result.stderr) == (1, f"{path}:1000003: hand 1, dealer: dealer must be a seat from 0 to 3\n")


@pytest.mark.parametrize("n", [100, 3000])
def test_a_long_chain_of_conditions_is_a_formula_too_deep_not_an_internal_error(tmp_path, n):
    """3,000 `if made then` in a row ran the stack out inside one of the transformer's rules,
    which lark wraps (VisitError): `check` exited 70, "internal error".  Now it is the message
    every formula too deep gets, exit 1 (100 are caught by the depth check after parsing)."""
    formula = "if made then " * n + "base" + " else 0" * n
    with pytest.raises(CompileError) as caught:
        parse_expression(formula)
    assert caught.value.diagnostics[0].message.startswith("formula nested too deeply (more than 64 operators")
    path = write(tmp_path, "deep.whist", f"variant deep\nextends standard\nscoring {{ declarer = {formula} }}\n")
    result = run("check", path)
    assert result.exit_code == 1
    assert stderr_lines(result)[0].startswith(f"{path}:3:") and "formula nested too deeply" in stderr_lines(result)[0]


# ============================================================================ 4. a formula dividing by 0
def test_a_division_by_zero_is_checked_ok_with_a_warning_at_the_formula(tmp_path):
    # `x / 0` is 0 by the language's definition (a formula must not crash a game): allowed,
    # but never what an author means, so `check` says so where it was written.
    path = write(tmp_path, "dz.yaml", "kind: house-rule\nname: dz\nscoring:\n  declarer: base / 0\n")
    result = run("check", path, "--on", "standard")
    assert result.exit_code == 0
    assert "ok (over standard) (1 warning)" in result.stdout
    [line] = [line for line in stderr_lines(result) if "divides by 0" in line]
    assert line.startswith(f"{path}:4:13: warning: scoring.declarer: `(if made then over else -bid) / 0` divides by 0")


def test_a_constant_divisor_of_zero_in_a_named_game_condition_is_found(tmp_path):
    path = write(tmp_path, "dz.yaml", "kind: house-rule\nname: dz\ngame:\n  win:\n    big: score / (2 - 2) >= 1\n")
    result = run("check", path, "--on", "standard")
    assert result.exit_code == 0
    [line] = [line for line in stderr_lines(result) if "divides by 0" in line]
    assert line.startswith(f"{path}:5:10: warning: game.win.big: `score / (2 - 2)` divides by 0")


def test_divisions_by_other_numbers_and_by_names_are_not_warned_of():
    from bidcompiler.checks import divisions_by_zero
    from bidcompiler.expressions.parser import parse_expression as parse

    assert divisions_by_zero(parse("bid / 2 + over / (1 - 2)")) == []
    assert divisions_by_zero(parse("bid / books")) == []  # a name may be 0 in some hand: not a constant
    assert len(divisions_by_zero(parse("(bid / 0) / (3 * 0)"))) == 2


def test_no_shipped_game_divides_by_zero():
    from bidcompiler.checks import warnings
    from bidcompiler.pipeline import shipped_house_rules, shipped_variants

    for spec in sorted(shipped_variants()) + [f"standard+{rule}" for rule in sorted(shipped_house_rules())]:
        assert not [d for d in warnings(compile_variant(spec)) if "divides by 0" in str(d)], spec

"""Numbers are written with the digits 0-9 (records.md's notation): another script's digits are refused, saying so.

Python's int() reads '٤' (Arabic-Indic) and '４' (full width) as 4, and ``\\d`` matches them: click's
integer options took them, as the Trickster import's calls did; where they were already refused
(cards, calls, --set), the refusal now says why the number that looks right was not read.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli
from runtime.cards import digits_note
from test_play import people_session, terminal_for


@pytest.mark.parametrize("text, noted", [("٤", True), ("١٠H", True), ("４", True), ("²", True), ("4", False),
                                         ("TH", False), (4, False)])
def test_the_note_is_for_a_digit_of_another_script(text, noted):
    assert bool(digits_note(text)) is noted


@pytest.mark.parametrize("args", [["simulate", "standard", "--hands", "٣"], ["simulate", "standard", "--games", "４"],
                                  ["simulate", "standard", "--hands", "3", "--seed", "٧"],
                                  ["play", "standard", "--seat", "٢"]])
def test_an_integer_option_in_other_digits_is_bad_usage(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert "is not a whole number written with the digits 0-9" in result.stderr


def test_a_set_value_in_other_digits_says_so():
    result = CliRunner().invoke(cli, ["compile", "standard", "--set", "auction.levels.from=٤"])
    assert result.exit_code == 1
    assert "expected an integer, found '٤' (numbers are written with the digits 0-9)" in result.stderr


@pytest.mark.parametrize("field, change", [("auction", lambda r: r["auction"].__setitem__(0, "٣ uptown")),
                                           ("hands", lambda r: r["hands"][0].__setitem__(0, "١٠S"))])
def test_a_record_with_other_digits_says_so(tmp_path, field, change):
    record = tmp_path / "one.json"
    simulated = CliRunner().invoke(cli, ["simulate", "standard", "--hands", "1", "--seed", "3", "--bots", "random",
                                         "--records", str(record)])
    assert simulated.exit_code == 0, simulated.output
    data = json.loads(record.read_text(encoding="utf-8"))
    change(data)
    record.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(record)])
    assert result.exit_code == 1, result.output
    assert field in result.stderr and "(numbers are written with the digits 0-9)" in result.stderr


@pytest.mark.parametrize("typed", ["٣", "١٠H"])
def test_a_move_typed_in_other_digits_says_so(tmp_path, typed):
    term, _ = terminal_for(people_session(tmp_path))
    actions, refusal = term.parse(typed)
    assert actions == [] and refusal.endswith("(numbers are written with the digits 0-9)")


@pytest.mark.parametrize("value, said", [
    ("north", "expected an integer or random, found 'north'"),  # was: 'north' is not one of: random
    ("2.5", "expected an integer or random, found 2.5"),
    ('"random "', "expected an integer or random, found 'random ' (did you mean 'random'?)"),
])
def test_a_setting_of_a_word_or_a_number_names_both(tmp_path, value, said):
    variant = tmp_path / "v.yaml"
    variant.write_text(f"extends: standard\nname: v\ndeal:\n  first_dealer: {value}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(variant)])
    assert result.exit_code == 1
    assert said in result.stderr

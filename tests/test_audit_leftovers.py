"""Small fixes left by the eleventh session's audits, each proved here.

A record that lacks a required field (docs/records.md: ``variant``, ``dealer``, ``hands``,
``auction``, and ``kitty`` where the variant deals one) is told so by name, at the field,
and the text points at the object that lacks it (FILE:LINE:COLUMN); exit status 1.
A field given as ``null`` is not missing: its own check refuses it, as before.
Replay and analyze word an unfinished or fully played hand alike; a folder name the
CLI prints after writing a schema is escaped as every other name it prints.
"""

from __future__ import annotations

import json

import pytest

from clirun import run
from worked_hands import NT_RECORD

REQUIRED = ["variant", "dealer", "hands", "kitty", "auction"]


def without(field: str) -> dict:
    """The worked notrump hand with ``field`` left out."""
    return {k: v for k, v in NT_RECORD.items() if k != field}


@pytest.mark.parametrize("field", REQUIRED)
def test_missing_field_is_named_in_a_hand_record(tmp_path, field):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(without(field)), encoding="utf-8")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 1, result.stdout + result.stderr
    error = json.loads(result.stdout)["error"]
    assert error["at"] == field
    assert error["message"].startswith(f'no {field}: a hand record needs "{field}"'), error
    text = run("replay", str(path))
    assert text.exit_code == 1
    assert text.stderr.strip().startswith(f"{path}:1:1: {field}: no {field}: "), text.stderr


@pytest.mark.parametrize("field", ["dealer", "variant"])
def test_missing_field_in_a_game_record_points_at_its_object(tmp_path, field):
    # The lacking hand is on line 3, indented by two spaces: its object starts at column 3.
    path = tmp_path / "game.jsonl"
    path.write_text("\n\n  " + json.dumps(without(field)) + "\n", encoding="utf-8")
    result = run("analyze", str(path))
    assert result.exit_code == 1, result.stdout + result.stderr
    assert result.stderr.strip().startswith(f"{path}:3:3: hand 1, {field}: no {field}: "), result.stderr


@pytest.mark.parametrize("command", ["replay", "analyze"])
def test_missing_field_with_each_points_at_its_object(tmp_path, command):
    # --each: the second line is a hand without a dealer, indented by two spaces.
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps({**NT_RECORD, "claim": 0}) + "\n  " + json.dumps(without("dealer")) + "\n",
                    encoding="utf-8")
    result = run(command, "--each", str(path))
    assert result.exit_code == 1, result.stdout + result.stderr
    assert result.stderr.strip() == (f'{path}:2:3: dealer: no dealer: a hand record needs "dealer", '
                                     "the seat that dealt (0 to 3)")


def test_a_null_dealer_is_not_missing(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({**NT_RECORD, "dealer": None}), encoding="utf-8")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == {"at": "dealer", "message": "dealer must be a seat from 0 to 3"}


# ---------------------------------------------------------------- replay and analyze say the same
def test_an_open_auction_in_progress_reads_not_scored(tmp_path):
    # A hand in progress whose auction is still open says "not scored", as one past the auction does.
    path = tmp_path / "hand.json"
    open_auction = {**without("declare"), "auction": ["4 notrump", "pass"], "in_progress": True}
    del open_auction["discard"], open_auction["play"]
    path.write_text(json.dumps(open_auction), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "status    in progress: not scored" in result.stdout


def test_a_claim_of_0_on_a_played_out_hand_is_not_shown_by_analyze(tmp_path):
    # The whole hand is played and claims 0: nothing was left to claim, and replay says
    # nothing of it; analyze's books line now reads as replay's.
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({**NT_RECORD, "claim": 0}), encoding="utf-8")
    replayed = run("replay", str(path))
    analyzed = run("analyze", str(path))
    assert replayed.exit_code == analyzed.exit_code == 0, analyzed.stdout + analyzed.stderr
    books = [line for line in replayed.stdout.splitlines() if line.startswith("  books     ")]
    assert books == [line for line in analyzed.stdout.splitlines() if line.startswith("  books     ")]
    assert books == ["  books     side 0+2 12 (declarers)   side 1+3 1"]


# ---------------------------------------------------------------- a folder's name, escaped
def test_schema_write_escapes_a_control_character_in_the_folder(tmp_path):
    folder = tmp_path / "a\x1bb"
    result = run("schema", "--write", str(folder))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (folder / "variant.schema.json").is_file()
    assert "\x1b" not in result.stdout and "a\\x1bb" in result.stdout


def test_convert_escapes_a_control_character_in_the_schema_it_writes(tmp_path):
    # No schema in the output's folder (outside a source tree): convert writes one and says so.
    source = tmp_path / "mine.whist"
    source.write_text('house-rule mine\ndescription "ours"\nscoring { declarer = base }\n', encoding="utf-8")
    folder = tmp_path / "c\x1bd"
    folder.mkdir()
    result = run("convert", str(source), "--to", "yaml", "-o", str(folder / "mine.yaml"))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "\x1b" not in result.stderr and "c\\x1bd" in result.stderr

"""records.md read afresh (audit 16): the corners audit 15 left, and records a real app writes.

Each test names the sentence it checks.  The records are small (tests/worked_hands.py's deal).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli
from bidcompiler.pipeline import load_ruleset
from clirun import run, script
from runtime.session import Session, Settings, sidecar_path
from worked_hands import NT_RECORD


def replay_json(path, record_text: str) -> tuple[int, dict]:
    """``bidwhist replay --json`` of ``record_text`` written to ``path``: the exit status and the JSON."""
    path.write_text(record_text, newline="")
    result = run("replay", "--json", str(path))
    return result.exit_code, json.loads(result.stdout)


# --------------------------------------------------------------------------- "names the rule ... and the seat"
@pytest.mark.parametrize("declare, fragment", [
    ({"trump": None, "direction": "uptown", "suit": "H"}, "unknown key 'suit' in declare"),
    (["H"], "declare must be an object"),
    ("notrump", "declare must be an object"),
])
def test_the_message_names_the_rule_that_was_broken_and_the_seat_declare(tmp_path, declare, fragment):
    """records.md: "the message names the rule that was broken and the seat".  A declare with an
    unknown key, or one that is no object, said so naming nobody (seat 0 declares here)."""
    status, out = replay_json(tmp_path / "r.json", json.dumps(dict(NT_RECORD, declare=declare)))
    assert status == 1 and out["error"]["at"] == "declare"
    assert out["error"]["message"].startswith(f"seat 0: {fragment}"), out["error"]


@pytest.mark.parametrize("kitty, fragment", [
    (NT_RECORD["kitty"][:5], "kitty has 5 cards"),
    (["AH"] + NT_RECORD["kitty"][1:], "AH is dealt twice"),
    (["XJ"] + NT_RECORD["kitty"][1:], "kitty holds 'XJ'"),
])
def test_the_message_names_the_rule_that_was_broken_and_the_seat_kitty(tmp_path, kitty, fragment):
    """The same sentence for a kitty that is not the deck dealt: the kitty is no seat's hand, so
    the message names the seat that dealt it (docs/records.md, the reading taken)."""
    status, out = replay_json(tmp_path / "r.json", json.dumps(dict(NT_RECORD, kitty=kitty)))
    assert status == 1 and out["error"]["at"] == "kitty"
    message = out["error"]["message"]
    assert message.startswith(fragment) and message.endswith("; seat 3 dealt it"), message


# --------------------------------------------------------------------------- real apps' files
@pytest.mark.parametrize("head, between", [("\ufeff\n\n", "\n\n"), ("\ufeff\r\n", "\r\n"), ("\ufeff", "\r\n\r\n")])
def test_a_game_record_with_a_byte_order_mark_on_a_line_of_its_own_names_the_right_line(tmp_path, head, between):
    """records.md: a game record is "one hand record per line"; blank lines and CR LF ends, as an
    app may write them, are legal (docs/records.md), and so is a UTF-8 byte order mark.  A mark
    alone on the first line was counted as a record's line when the text output names the
    line of the illegal hand, so it named the line of the hand before."""
    # NT_RECORD wins the game (12 points): a second hand is illegal at hand[1], whatever it holds.
    text = head + between.join([json.dumps(NT_RECORD), json.dumps(dict(NT_RECORD, dealer=0))]) + between
    path = tmp_path / "g.jsonl"
    path.write_text(text, newline="")
    line = 1 + [n for n, ln in enumerate(text.replace("\r\n", "\n").split("\n")) if '"format"' in ln][1]
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:{line}: hand 2"), result.stderr
    assert json.loads(run("replay", "--json", str(path)).stdout)["error"]["at"] == "hand[1]"


# --------------------------------------------------------------------------- play's save and --resume
def a_new_save(tmp_path) -> Path:
    """A save as `play --save` makes it before the first move (cheap: no bot moves)."""
    path = tmp_path / "g.jsonl"
    Session.new(load_ruleset("standard"), Settings("standard", [], 1, [0], "heuristic"), path)
    return path


@pytest.mark.parametrize("depth", [100, 986])
def test_a_session_file_nested_deep_is_damaged_not_an_internal_error(tmp_path, depth):
    """records.md's rule for bad input (one clear message, no traceback) for play's own file: a
    session file whose field is nested 986 lists deep was read by json, and the message quoting
    the field ran out of stack ("internal error: RecursionError", status 70, the installed script).
    The limit of a record's JSON now holds for it too: damaged (status 1), the save untouched, said
    in one line (it was two: what is wrong, then what to do)."""
    path = a_new_save(tmp_path)
    side = sidecar_path(path)
    data = json.loads(side.read_text())
    side.write_text(json.dumps(dict(data, seats="@@")).replace('"@@"', "[" * depth + "]" * depth))
    before = path.read_bytes(), side.read_bytes()
    proc = script("play", "--resume", path.name, "--fast", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(
        f"Error: {side.name}: invalid JSON: nested too deeply (arrays and objects inside one another). "
        f"The session file {side.name} is damaged")
    assert (path.read_bytes(), side.read_bytes()) == before


@pytest.mark.parametrize("text, said", [
    ('{"format": "bidwhist-hand/1", "vari', "invalid JSON: Unterminated string starting here"),  # cut mid-write
    ("[1]\n", "expected a JSON object"),
])
def test_a_saves_record_that_is_no_record_is_one_line_exit_2(tmp_path, text, said):
    """records.md: "A file that is not a record at all ... exits with status 2 and one line on
    stderr saying where", for `play --resume FILE` as for replay.  It was click's usage lines and
    "Invalid value for --resume", as if the command were wrong."""
    path = a_new_save(tmp_path)
    path.write_text(text)
    result = run("play", "--resume", str(path), "--fast")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [result.stderr.strip()] and said in result.stderr
    assert result.stderr.startswith(f"{path}:1:") and "Usage" not in result.stderr
    assert path.read_text() == text


def test_a_session_file_with_a_byte_order_mark_resumes(tmp_path):
    """An editor that saves the session file may put a UTF-8 byte order mark before it; a record's
    mark is ignored (docs/records.md), and so is the session file's (it was "damaged", with json's
    advice "decode using utf-8-sig")."""
    path = a_new_save(tmp_path)
    side = sidecar_path(path)
    side.write_text("\ufeff" + side.read_text())
    result = CliRunner().invoke(cli, ["play", "--resume", str(path), "--fast"], input="quit\n")
    assert result.exit_code == 0, result.stderr


def test_a_save_whose_session_file_is_a_folder_names_that_file(tmp_path):
    """`play --save FILE` where FILE.session.json is a folder: the message named FILE ("cannot write
    g.jsonl: Is a directory"), which is not there; it names the session file now."""
    path = tmp_path / "g.jsonl"
    sidecar_path(path).mkdir()
    result = CliRunner().invoke(cli, ["play", "standard", "--seed", "1", "--fast", "--save", str(path)], input="quit\n")
    assert result.exit_code == 2
    assert f"cannot write {sidecar_path(path)}: Is a directory" in result.stderr
    assert not path.exists()


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_resume_of_a_save_that_is_no_regular_file_is_one_line_exit_2(tmp_path, kind):
    """records.md: a file that is no record is one line saying where, status 2; replay says a
    folder or a FIFO is "not a regular file".  `play --resume` of a folder said it in click's usage
    lines ("Invalid value for '--resume': File ... is a directory"); nothing is locked or written."""
    path = tmp_path / "g.jsonl"
    path.mkdir() if kind == "folder" else os.mkfifo(path)
    sidecar_path(path).write_text("{}")
    result = run("play", "--resume", str(path), "--fast")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"{path}: not a regular file" + (" (a directory)" if kind == "folder" else "")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl", "g.jsonl.session.json"]


# --------------------------------------------------------------------------- "`variant`, then `with[i]`"
@pytest.mark.parametrize("changes, at", [
    ({"variant": "nosuch", "with": [5]}, "variant"),  # was with[0]: the shape of with came first
    ({"variant": "nosuch", "with": "to-5"}, "variant"),  # was with
    ({"variant": "nosuch", "with": ["to-5"] * 40}, "variant"),  # was with
    ({"with": ["zzz", 5]}, "with[0]"),  # was with[1]: the first offending entry is the unknown rule
    ({"with": ["to-5", 5]}, "with[1]"),
    ({"with": ["to-5", "to-5", None]}, "with[1]"),  # laid twice, before the entry that is no name
])
def test_at_names_the_first_offending_entry_variant_then_with_i(tmp_path, changes, at):
    """records.md: "`at` names the first offending entry of the record"; refused paths are "at
    `variant` or `with[i]`", and docs/records.md checks `variant`, then `with[i]`.  A `with` of the
    wrong shape, or an entry of it that is no string, was said before an unknown variant, and
    before an earlier entry that cannot be laid (audit 15's f6e29fe kept that order)."""
    status, out = replay_json(tmp_path / "r.json", json.dumps(dict(NT_RECORD, **changes)))
    assert status == 1 and out["error"]["at"] == at, out["error"]


@pytest.mark.parametrize("change, said", [
    ({"auction": ["x" * 100_000]}, "hand[0].auction[0]: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (100000 characters) "
                                   "names nothing in this variant"),
    ({"declare": [1]}, "hand[0].declare: auction, discard and play must be lists, declare an object"),
])
def test_a_saves_hand_that_is_wrong_is_one_short_line_at_its_field(tmp_path, change, said):
    """A save's line that breaks the rules is bad content, one line naming the entry, the value
    quoted as a record's is (at most 40 characters: docs/records.md).  A call of 100,000 characters
    was quoted whole; a declare that is no object was said at `auction`."""
    path = a_new_save(tmp_path)
    line = json.loads(path.read_text())
    path.write_text(json.dumps(dict(line, **change)) + "\n")
    result = run("play", "--resume", str(path), "--fast")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"{path}: {said}"]


@pytest.mark.parametrize("swap, message", [
    ({"seat": 1, "gave": "BJ", "draw": "2H"}, "seat 1: unknown key 'draw' in swaps[0]"),
    ({"seat": 1, "gave": "BJ"}, 'seat 1: swaps[0] has no "drew"'),
    ({"seat": 1, "gave": "XX", "drew": "2H"}, "seat 1: swaps[0].gave is 'XX'"),
    ({"seat": 9, "gave": "BJ", "drew": "2H"}, "swaps[0].seat must be a seat from 0 to 3"),  # no seat to name
])
def test_the_message_names_the_rule_that_was_broken_and_the_seat_swaps(tmp_path, swap, message):
    """The same sentence for an exchange that is malformed: it names the seat the exchange names
    (it named none).  The record: seat 1 holds the big joker, the declarer seat 0 plays notrump
    with jokers-out-in-notrump (tests/test_record_fields.py's ONE_EACH)."""
    from test_record_fields import ONE_EACH
    status, out = replay_json(tmp_path / "r.json", json.dumps(dict(ONE_EACH, swaps=[swap])))
    assert status == 1 and out["error"]["at"] == "swaps"
    assert out["error"]["message"].startswith(message), out["error"]


def test_the_message_names_the_rule_that_was_broken_and_the_seat_claim(tmp_path):
    """The same sentence for a claim: made for the declaring side, it names the declarer (seat 0)."""
    status, out = replay_json(tmp_path / "r.json", json.dumps(dict(NT_RECORD, play=NT_RECORD["play"][:44], claim=2)))
    assert status == 1 and out["error"] == {"at": "claim", "message": "seat 0: claim of 2 tricks, but only 1 remains"}

"""records.md read afresh (audit 16): the corners audit 15 left, and records a real app writes.

Each test names the sentence it checks.  The records are small (tests/worked_hands.py's deal).
"""

from __future__ import annotations

import json

import pytest

from clirun import run
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

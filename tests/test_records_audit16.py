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

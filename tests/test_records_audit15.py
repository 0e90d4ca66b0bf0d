"""records.md read afresh (audit 15): the places where replay differed from a sentence of it.

Each test names the sentence it checks.  The records are small (tests/worked_hands.py's deal).
"""

from __future__ import annotations

import json

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run, script
from runtime.files import MAX_RECORD_NESTING
from runtime.records import hand_record
from runtime.simulate import play_hand
from worked_hands import NT_RECORD


def nested(depth: int) -> str:
    """JSON text of lists ``depth`` deep."""
    return "[" * depth + "]" * depth


def record_text(field: str, value_text: str) -> str:
    """NT_RECORD's JSON with ``field`` set to the raw JSON text ``value_text``."""
    record = dict(NT_RECORD, **{field: "@@"})
    return json.dumps(record).replace('"@@"', value_text)


# --------------------------------------------------------------------------- "deeply nested input"
@pytest.mark.parametrize("field, depth", [("declare", 900), ("play", 979), ("claim", 100), ("dealer", 600)])
def test_a_file_that_is_not_a_record_deeply_nested_exits_2_with_one_line_saying_where(tmp_path, field, depth):
    """records.md: "A file that is not a record at all (bad JSON, ...) exits with status 2 and one
    line on stderr saying where."  A value nested some 980 lists deep was read (json stops near
    the interpreter's recursion limit, which depends on how deep the call is), and the message
    quoting it then ran out of stack: "internal error: RecursionError", status 70; shallower, the
    same value was an illegal record (status 1), deeper not a record (2).  A record needs three
    levels: more than MAX_RECORD_NESTING is not read, wherever it is and however it is run."""
    path = tmp_path / "deep.json"
    path.write_text(record_text(field, nested(depth)))
    for args in (("replay", "--json"), ("replay",), ("replay", "--each", "--json"), ("analyze",)):
        result = run(*args, str(path))
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{path}:1:"), result.stderr
        assert "nested too deeply" in lines[0]


def test_nesting_up_to_the_limit_is_read_as_a_record(tmp_path):
    """The limit counts the record's own object: MAX_RECORD_NESTING levels in all are read (here an
    illegal claim, status 1 at `claim`), one more is not a record (status 2)."""
    inside = MAX_RECORD_NESTING - 1  # the record object is the first level
    path = tmp_path / "at-limit.json"
    path.write_text(record_text("claim", nested(inside)))
    result = run("replay", "--json", str(path))
    assert result.exit_code == 1, result.stdout + result.stderr
    assert json.loads(result.stdout)["error"]["at"] == "claim"
    path.write_text(record_text("claim", nested(inside + 1)))
    result = run("replay", "--json", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    # Where: the first bracket of the deepest level, as for nesting json itself cannot read.
    column = record_text("claim", nested(inside + 1)).index("[" * (inside + 1)) + inside + 1
    assert result.stderr.strip() == f"{path}:1:{column}: invalid JSON: nested too deeply (arrays and objects inside one another)"


def test_deep_nesting_in_a_game_record_line_says_which_line(tmp_path):
    """In a game record the one line on stderr names the line of the file."""
    lines = [json.dumps(NT_RECORD), record_text("declare", nested(300))]
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = script("replay", "--json", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{path}:2:") and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("field", ["declare", "play"])
def test_deep_nesting_near_the_recursion_limit_is_no_internal_error_as_the_installed_script(tmp_path, field):
    """The case found: the installed script, a value some 980 lists deep in `declare` or `play`,
    "bidwhist: internal error: RecursionError ... while encoding a JSON object", status 70."""
    for depth in (979, 981):
        path = tmp_path / f"deep-{depth}.json"
        path.write_text(record_text(field, nested(depth)))
        proc = script("replay", "--json", str(path))
        assert proc.returncode == 2 and proc.stdout == "", proc.stderr
        assert len(proc.stderr.splitlines()) == 1 and "nested too deeply" in proc.stderr


# --------------------------------------------------------------------------- "at `variant` or `with[i]`"
@pytest.mark.parametrize("with_rules, at", [
    ([5], "with[0]"), (["to-5", None], "with[1]"), (["to-5", ["to-9"]], "with[1]"), (["to-5", True, 7], "with[1]"),
])
def test_a_with_entry_that_is_no_name_is_illegal_at_with_i(tmp_path, with_rules, at):
    """records.md: "`with`: house rules layered on it, in order" ... "`at` `variant` or `with[i]`",
    "`at` names the first offending entry".  An entry that is not a string was reported at `with`,
    the list that holds it, where a call that is no string is `auction[i]`."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(dict(NT_RECORD, **{"with": with_rules})))
    result = run("replay", "--json", str(path))
    assert result.exit_code == 1, result.stdout + result.stderr
    error = json.loads(result.stdout)["error"]
    assert error["at"] == at and error["message"].startswith(f"{at} is ")
    # A game record prefixes the hand.
    game = tmp_path / "g.jsonl"
    game.write_text(json.dumps(dict(NT_RECORD, **{"with": with_rules})) + "\n")
    assert json.loads(run("replay", "--json", str(game)).stdout)["error"]["at"] == f"hand[0].{at}"


def test_with_that_is_no_list_or_too_long_is_still_illegal_at_with(tmp_path):
    """`with` itself offends when it is not a list, or lists more than 32 (before its entries)."""
    for value in ("to-5", {"0": "to-5"}, [5] * 40):
        path = tmp_path / "r.json"
        path.write_text(json.dumps(dict(NT_RECORD, **{"with": value})))
        result = run("replay", "--json", str(path))
        assert result.exit_code == 1 and json.loads(result.stdout)["error"]["at"] == "with"


# --------------------------------------------------------------------------- "the message names ... the seat"
def test_a_discard_where_no_kitty_is_taken_names_the_seat(tmp_path):
    """records.md: "the message names the rule that was broken and the seat".  A `discard` in a
    hand with no kitty to take (no-kitty: 52 cards, 13 each) said "this variant has no discard
    here", naming no seat."""
    rules = load_ruleset("standard", ["no-kitty"])
    rec = next(r for r in (hand_record(play_hand(rules, seed, 0), "standard", ["no-kitty"]) for seed in range(20))
               if r.get("play"))  # a hand with a contract (standard: the dealer must bid, so the first)
    declarer = json.loads(run("replay", "--json", str(_write(tmp_path / "ok.json", rec))).stdout)["contract"]["declarer"]
    bad = dict(rec, discard=[rec["hands"][declarer][0]])
    result = run("replay", "--json", str(_write(tmp_path / "bad.json", bad)))
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["at"] == "discard" and error["message"].startswith(f"seat {declarer} has no kitty to take")


def _write(path, record: dict):
    path.write_text(json.dumps(record))
    return path

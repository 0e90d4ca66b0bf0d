"""``kitty.discards: defenders-book`` (docs/tutorial.md §6: "the discards count for the
defenders"): the laid-away cards are one book of the side against the declarer.

A worked record replayed with and without the rule (the book moves from the declarers to
the defenders, and the score with it), bots playing it (every hand's defenders hold the
book), and the check that refuses it where "the defenders" are more than one side.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bidcompiler.cli.hand_rules import score_table
from bidcompiler.pipeline import load_ruleset
from runtime.simulate import play_hand
from test_replay import replay_ok
from tests.clirun import run
from worked_hands import NT_RECORD

RULE = "name: defenders-discards\nkind: house-rule\ndescription: x\nkitty: {discards: defenders-book}\n"


def _rule(folder: Path) -> Path:
    path = folder / "defenders-discards.yaml"
    path.write_text(RULE, encoding="utf-8")
    return path


def test_the_discards_book_moves_to_the_defenders_in_a_replayed_record(tmp_path):
    # NT_RECORD: seat 0 declares 4 notrump and its side takes 11 tricks, seat 1 one.
    plain = replay_ok(tmp_path, NT_RECORD)
    assert plain["books"] == [12, 1]  # standard: the discards are the declarers' book
    _rule(tmp_path)
    ruled = replay_ok(tmp_path, {**NT_RECORD, "with": ["defenders-discards.yaml"]})
    assert ruled["books"] == [11, 2]
    assert ruled["score"][0] < plain["score"][0]  # one book fewer over six for the declarers


@pytest.mark.parametrize("bot, hands", [("heuristic", 2), ("random", 100)])
def test_every_hand_gives_the_defenders_the_discards_book(tmp_path, bot, hands):
    rules = load_ruleset("standard", (str(_rule(tmp_path)),))
    for i in range(hands):
        state = play_hand(rules, 5, i, bot)
        if state.contract_value is None:
            continue  # thrown in: no book at all
        side = state.contract_value.side
        won = [0, 0]
        for _, _, winner in state.tricks:
            won[rules.side_of[winner]] += 1
        assert won[side] == state.books[side] and won[1 - side] + 1 == state.books[1 - side], i
        if bot == "heuristic":  # play's `rules` screen: the declarers' books go up to the tricks only
            assert [row[0] for row in score_table(state, notrump=False)] == list(range(13))


def test_defenders_book_needs_two_sides(tmp_path):
    rule = _rule(tmp_path)
    result = run("check", f"cutthroat+{rule}")
    assert result.exit_code == 1
    assert "defenders-book gives the discards' book to the side against the declarer, which needs two sides, " \
           "not 3" in result.stdout + result.stderr
    assert run("check", f"two-handed+{rule}").exit_code == 0


def test_diff_and_rules_say_it(tmp_path):
    rule = _rule(tmp_path)
    assert run("diff", "standard", f"standard+{rule}").stdout == \
        "kitty discards: a book of the declaring side -> a book of the defending side\n"
    assert "The discards count as a book of the defenders" in run("rules", f"standard+{rule}").stdout
    assert json.loads(json.dumps(load_ruleset("standard", (str(rule),)).discards_book)) == "defenders"

"""`bidwhist diff A B`: rule-level differences of two compiled variants, in words or JSON."""

from __future__ import annotations

import functools
import itertools
import json

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli
from bidcompiler.irdiff import diff, label_of
from bidcompiler.pipeline import compile_variant, shipped_variants


@functools.cache
def compiled(spec: str):
    return compile_variant(spec)


def run(*args: str):
    result = CliRunner().invoke(cli, ["diff", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_min_bid_4_is_one_line():
    result = run("standard", "standard+min-bid-4")
    assert result.exit_code == 0
    assert result.stdout == "lowest bid: 3 -> 4\n"


def test_json_shape():
    result = run("standard", "standard+min-bid-4", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == [{"path": "auction.min_level", "label": "lowest bid", "a": 3, "b": 4}]


def test_json_of_many_differences_is_plain_data():
    rows = json.loads(run("standard", "northeast52", "--json").stdout)
    formula_rows = {"scoring.declarer", "scoring.defender", "scoring.multiplier", "game.win", "game.lose"}
    assert rows and all(set(row) == {"path", "label", "a", "b"} for row in rows if row["path"] not in formula_rows)
    assert all(set(row) == {"path", "label", "a", "b", "a_words", "b_words"}
               for row in rows if row["path"] in formula_rows)
    by_path = {row["path"]: row for row in rows}
    assert by_path["scoring.declarer"]["b_words"] == "made: the declarers' books over six; set: nothing"
    assert by_path["deck.extra"]["a"] == ["BJ", "LJ"] and by_path["deck.extra"]["b"] == []
    assert by_path["scoring.declarer"]["b"] == "if made then over else 0"  # formulas as canonical text
    assert by_path["auction.strains[number]"]["a"] is None
    assert by_path["auction.strains[number]"]["b"]["trump"] == "suit-or-none"
    assert by_path["game.floor"] == {"path": "game.floor", "label": "score floor", "a": None, "b": 0}


def test_standard_against_northeast52():
    result = run("standard", "northeast52")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    for expected in (
        "deck: 54 cards -> 52 cards (no BJ, LJ)",
        "kitty: 6 cards -> 4 cards",
        "lowest bid: 3 -> 1",
        "dealer may take by matching: no -> yes",
        "redeal allowed holding none of: none -> K, Q, J",
        "strains: uptown, downtown, notrump -> number",
        "bid ranking at one number: uptown = downtown < notrump -> number",
        "kitty discards: a book of the declaring side -> to the winner of the first trick",
        "declarers score: `if made then over else -bid` -> `if made then over else 0`",
        "  before: made: the declarers' books over six; set: minus the bid",
        "  after:  made: the declarers' books over six; set: nothing",
        "multiplier: `if notrump then 2 else 1` -> `1`",
        "game target: 7 -> 21",
        "score floor: none -> 0",
    ):
        assert expected in lines, expected
    # What names the file is not a rule.
    assert not any(line.startswith(("name:", "title:", "source:", "house_rules:")) for line in lines)
    # Settings that are the same on both sides are not listed.
    assert not any(line.startswith(("highest bid:", "players:", "first lead:")) for line in lines)
    # A multiplier of 1 reads as 1: only the side with words says more.
    at = lines.index("multiplier: `if notrump then 2 else 1` -> `1`")
    assert lines[at + 1:at + 3] == ["  before: 2 in no trump, otherwise 1", "  after:  1"]


def test_identical_variants():
    result = run("standard", "standard")
    assert result.exit_code == 0
    assert result.stdout == "no rule differences\n"
    assert json.loads(run("standard", "standard", "--json").stdout) == []


def test_house_rule_words():
    assert run("standard", "standard+sport-kitty").stdout == "kitty shown: never -> in suit contracts\n"
    assert run("standard", "standard+boston-x4").stdout == (
        "declarers score: `if made then over else -bid` -> "
        "`if made then (if bid == 7 then 4 * over else over) else -bid`\n"
        "  before: made: the declarers' books over six; set: minus the bid\n"
        "  after:  made: the declarers' books over six, quadrupled on a bid of 7; set: minus the bid\n")


def test_an_auction_going_round_until_passed_has_no_count_of_passes_before(tmp_path):
    """Was "passes that end the auction: 0 -> 3": a game going round once has no such count."""
    rule = tmp_path / "rounds.yaml"
    rule.write_text("name: rounds\nkind: house-rule\ndescription: x\nauction: {rounds: until-passed}\n")
    assert run("standard", f"standard+{rule}").stdout.splitlines()[1] == \
        "passes that end the auction: none (once round) -> 3"


BONUS = ('house-rule bonus\n'
         'scoring { declarer = if made and bid == 7 then 14 else if made and bid == 5 then base + 5 else base }\n')


def test_the_issue_house_rule_is_simplified_and_read(tmp_path):
    path = tmp_path / "bonus.whist"
    path.write_text(BONUS, encoding="utf-8")
    assert run("standard", f"standard+{path}").stdout == (
        "declarers score: `if made then over else -bid` -> "
        "`if made then (if bid == 7 then 14 else if bid == 5 then over + 5 else over) else -bid`\n"
        "  before: made: the declarers' books over six; set: minus the bid\n"
        "  after:  made: 14 points on a bid of 7, the declarers' books over six plus 5 on a bid of 5, "
        "otherwise the declarers' books over six; set: minus the bid\n")
    row, = json.loads(run("standard", f"standard+{path}", "--json").stdout)
    assert row["b"].startswith("if made and bid == 7 then 14")  # JSON keeps the compiled formula
    assert row["b_words"].startswith("made: 14 points on a bid of 7")


def test_formulas_written_differently_but_equal_once_simplified_are_no_difference(tmp_path):
    path = tmp_path / "same.whist"
    path.write_text("house-rule same\nscoring { declarer = if not made then -bid + 0 else over * 1 }\n",
                    encoding="utf-8")
    assert run("standard", f"standard+{path}").stdout == "no rule differences\n"


def test_game_formulas_read_in_words():
    # two-sets adds the named condition `sets` to game.lose: the row names it.
    assert run("standard", "standard+two-sets").stdout == (
        "game lost when (sets): none -> `sets >= 3`\n"
        "  after:  the side has been set at least 3 times\n")
    assert run("standard+two-sets", "standard+two-sets+ten-hands").stdout == (
        "game won when: `score >= target` -> `played >= 10 and score > opponent_score`\n"
        "  before: the side's score is at least the target\n"
        "  after:  at least 10 hands have been played with a contract and the side's score is more than the best "
        "other score\n"
        "game lost when (target): `score <= -target` -> `false`\n"
        "  before: the side's score is at most minus the target\n"
        "  after:  never\n")


def test_with_applies_to_both_sides():
    # (standard+min-bid-4 with --with min-bid-4 would lay the rule twice on B: refused, test_authoring.py)
    assert run("standard", "standard+sport-kitty", "--with", "min-bid-4").stdout.startswith("kitty shown:")
    lines = run("standard", "northeast52", "--with", "min-bid-4").stdout.splitlines()
    assert not any(line.startswith("lowest bid:") for line in lines)


def test_a_path_names_a_variant(tmp_path):
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "variants" / "standard.yaml").read_text(encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text(text.replace("name: standard", "name: mine").replace("target: score >= target", "target: score >= 8"),
                    encoding="utf-8")
    assert run("standard", str(path)).stdout == (
        "game won when: `score >= target` -> `score >= 8`\n"
        "  before: the side's score is at least the target\n"
        "  after:  the side's score is at least 8\n")


@pytest.mark.parametrize("args, param", [(("nope", "standard"), "A"), (("standard", "nope"), "B"),
                                         (("standard", "standard+nope"), "B")])
def test_bad_names_are_usage_errors(args, param):
    result = run(*args)
    assert result.exit_code == 2
    assert "nope" in result.stderr and f"for {param}" in result.stderr
    assert result.stdout == ""


def test_diff_is_symmetric_over_shipped_variants():
    names = sorted(shipped_variants())
    for a, b in itertools.combinations(names, 2):
        forward = {(d.path, repr(d.a), repr(d.b)) for d in diff(compiled(a), compiled(b))}
        backward = {(d.path, repr(d.b), repr(d.a)) for d in diff(compiled(b), compiled(a))}
        assert forward == backward, (a, b)
        assert forward, (a, b)  # shipped variants all differ somewhere


def test_unlabelled_paths_fall_back_to_the_dotted_path():
    assert label_of("auction.min_level") == "lowest bid"
    assert label_of("auction.strains[notrump].trump") == "strain notrump trump"
    assert label_of("auction.something_new") == "auction.something_new"


def test_the_defenders_named_terms_differ_one_row_each_and_a_single_formula_is_one_row():
    rows = {d.path: d for d in diff(compiled("standard"), compiled("cutthroat")) if "defender" in d.path}
    assert list(rows) == ["scoring.defender[score]", "scoring.defender[over-six]"]
    score, over_six = rows.values()
    assert (score.label, score.a.text, score.b.text) == ("defenders score (score)", "0", "min(own_books, 6)")
    assert score.a_words == "nothing"  # the terms are points, as the sum is
    assert over_six.a is None and over_six.b_words == "the larger of 0 and their own books over six"
    # A term changed under the same others: that term's row alone.
    changed = [d.path for d in diff(compiled("rhode-island"), compiled("rhode-island+defenders-score"))
               if "defender" in d.path]
    assert changed == ["scoring.defender[over-six]"]
    # No side with more than one term adding something: the sum is one row, as before terms.
    plain = [(d.path, d.label) for d in diff(compiled("standard"), compiled("standard+defenders-score"))]
    assert plain == [("scoring.defender", "defenders score")]
    payload = json.loads(run("--json", "standard", "cutthroat").stdout)
    assert [r["path"] for r in payload if "defender" in r["path"]] == list(rows)

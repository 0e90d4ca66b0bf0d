"""House rules written by a player from the docs (session 21's authoring audit).

Each case is a rule a table plays or a mistake an author makes; it is written as a
file in tmp_path and run through ``bidwhist check`` / ``rules`` / ``diff`` as the
author would, and the test pins what the author is told.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clirun import run


def write(tmp_path: Path, name: str, text: str) -> str:
    """Write a rule file in tmp_path and return its path as text."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def whist_rule(tmp_path: Path, name: str, body: str) -> str:
    """A .whist house rule NAME with a description and BODY, written in tmp_path."""
    return write(tmp_path, f"{name}.whist", f'house-rule {name}\ndescription "x"\n{body}\n')


# -- negative numbers as settings in .whist -----------------------------------------


def test_a_negative_floor_can_be_written_in_whist(tmp_path):
    path = whist_rule(tmp_path, "floor-minus-ten", "game { floor -10 }")
    result = run("check", path, "--on", "standard")
    assert result.exit_code == 0, result.stderr
    rules = run("rules", f"standard+{path}")
    assert "no side's total goes below -10" in rules.stdout


def test_convert_writes_a_negative_floor_that_whist_reads_back(tmp_path):
    yaml_path = write(tmp_path, "f.yaml", "name: f\nkind: house-rule\ndescription: x\ngame: {floor: -10}\n")
    converted = run("convert", yaml_path, "--to", "whist")
    assert converted.exit_code == 0
    assert "game { floor -10 }" in converted.stdout
    whist_path = write(tmp_path, "f.whist", converted.stdout)
    assert run("check", whist_path, "--on", "standard").exit_code == 0


def test_a_negative_number_in_whist_is_checked_against_its_setting(tmp_path):
    path = whist_rule(tmp_path, "neg-target", "game { target -5 }")
    result = run("check", path, "--on", "standard")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].endswith("neg-target.whist:3:15: -5 is too small: must be at least 1")


def test_the_quoted_number_hint_can_be_followed(tmp_path):
    quoted = whist_rule(tmp_path, "quoted", 'game { floor "-10" }')
    result = run("check", quoted, "--on", "standard")
    assert "write -10 without them" in result.stderr
    followed = whist_rule(tmp_path, "followed", "game { floor -10 }")
    assert run("check", followed, "--on", "standard").exit_code == 0


def test_a_minus_in_a_formula_is_still_a_minus(tmp_path):
    path = whist_rule(tmp_path, "minus", "scoring { declarer = if made then bid -1 else base }")
    result = run("diff", "standard", f"standard+{path}")
    assert "`if made then bid - 1 else -bid`" in result.stdout


# -- a game no side can win ------------------------------------------------------------


def check_over_standard(path: str):
    """``bidwhist check PATH --on standard``: click's Result."""
    return run("check", path, "--on", "standard")


def test_a_win_written_false_is_refused_as_removing_every_win_is(tmp_path):
    path = write(tmp_path, "never.yaml", "name: never\nkind: house-rule\ndescription: x\n"
                                         "game: {win: \"false\", lose: \"false\"}\n")
    result = check_over_standard(path)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:2] == [
        f"{path}:4:13: game.win is always false, so no side could ever win",
        "    to fix: write a condition a side can meet (e.g. `score >= target`)",
    ]


@pytest.mark.parametrize("name, text, said", [
    ("one-above-two", "game { win = 1 > 2; lose = false }", "3:14: game.win is always false"),  # folds to false
    ("lose-fold", "game { lose { any = 1 < 2 } }", "3:21: game.lose is always true"),  # a named lose folds to true
])
def test_an_end_that_folds_to_no_game_is_refused_where_it_is_written(tmp_path, name, text, said):
    path = whist_rule(tmp_path, name, text)
    result = check_over_standard(path)
    assert result.exit_code == 1
    assert f"{path}:{said}" in result.stderr


def test_a_game_that_ends_only_by_its_losing_condition_is_kept(tmp_path):
    """A win plainly false was refused whatever game.lose said ("no side could ever win"), but a
    side meeting a losing condition leaves the side still standing the winner: standard with
    `--set game.win=false`, or every named win off, still ends at -7."""
    off = whist_rule(tmp_path, "target-off", "game { win { target = false } }")  # standard's lose stays
    assert check_over_standard(off).exit_code == 0
    variant = write(tmp_path, "lose-only.yaml", "kind: variant\nname: lose-only\nextends: standard\n"
                                                "game: {win: \"false\", lose: \"score <= -7\"}\n")
    assert run("check", variant).exit_code == 0
    ran = run("simulate", "standard", "--set", "game.win=false", "--games", "3", "--seed", "1", "--bots", "random")
    assert ran.exit_code == 0, ran.stderr
    assert "game.win is always false" not in ran.stderr
    # no losing end under it either: refused
    neither = write(tmp_path, "no-end.yaml", "kind: variant\nname: no-end\nextends: standard\n"
                                             "game: {win: \"false\", lose: \"false\"}\n")
    result = run("check", neither)
    assert result.exit_code == 1 and f"{neither}:4:13: game.win is always false" in result.stderr
    both_off = whist_rule(tmp_path, "both-off", "game { win { target = false }; lose { target = false } }")
    result = check_over_standard(both_off)
    assert result.exit_code == 1 and f"{both_off}:3:23: game.win is always false" in result.stderr


def test_a_win_that_can_happen_is_kept(tmp_path):
    path = whist_rule(tmp_path, "sweep-wins", "game { win { sweep = swept and last_declarer } }")
    assert check_over_standard(path).exit_code == 0


# -- a floor above the starting score ---------------------------------------------------


def test_a_floor_above_zero_is_refused_with_its_reason(tmp_path):
    path = whist_rule(tmp_path, "floor-hundred", "game { floor 100 }")
    result = check_over_standard(path)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:2] == [
        f"{path}:3:14: game.floor: 100 is not below game.target (7), so every total would be 100 or more "
        "after the first hand, whatever was scored, and every game would end on its first hand",
        "    to fix: set game.floor below 7, or remove `floor` from `game`",
    ]


def test_a_floor_above_zero_below_the_target_is_a_game_that_starts_there(tmp_path):
    """A floor above 0 was refused outright, though a game to 21 over a floor of 5 does not end
    at once: every side is at 5 after the first hand and plays on to 21."""
    path = whist_rule(tmp_path, "floor-five", "game { floor 5; target 21 }")
    assert check_over_standard(path).exit_code == 0
    ran = run("simulate", f"standard+{path}", "--games", "2", "--seed", "1", "--bots", "random")
    assert ran.exit_code == 0, ran.stderr
    at_target = whist_rule(tmp_path, "floor-seven", "game { floor 7 }")  # standard's target is 7
    result = check_over_standard(at_target)
    assert result.exit_code == 1 and "game.floor: 7 is not below game.target (7)" in result.stderr


def test_a_floor_of_zero_or_below_is_kept(tmp_path):
    for floor in ("0", "-3"):
        path = whist_rule(tmp_path, f"floor{floor}", f"game {{ floor {floor} }}")
        assert check_over_standard(path).exit_code == 0, floor


# -- a house rule that tries to change what the bids count -----------------------------


def test_a_rule_changing_what_bids_count_is_told_how_it_can_be_done(tmp_path):
    rule = whist_rule(tmp_path, "books-outright", "auction { levels { counts books; from 9; to 13 } }")
    result = check_over_standard(rule)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert "so the two do not combine" in lines[0]
    assert lines[1] == ("    to fix: lay 'books-outright' over a game whose bids count books outright, or, to "
                        "change what the bids of 'standard' count, write a variant (`extends: standard`, "
                        "not a house rule)")
    # the way the hint gives works
    variant = write(tmp_path, "outright.whist",
                    "variant outright\nextends standard\nauction { levels { counts books; from 9; to 13 } }\n")
    assert run("check", variant).exit_code == 0


# -- a game every side loses -------------------------------------------------------------


def test_a_lose_written_true_is_refused_not_played_to_the_hand_limit(tmp_path):
    path = whist_rule(tmp_path, "lose-always", "game { lose = true }")
    result = check_over_standard(path)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:2] == [
        f"{path}:3:15: game.lose is always true, so every side would lose every hand, no side would be left "
        "standing to win, and the game would never end",
        "    to fix: write a condition only some sides meet (e.g. `score <= -target`), or `false` for no losing end",
    ]
    assert run("simulate", f"standard+{path}", "--games", "1").exit_code == 1


# -- a list with an item written twice ----------------------------------------------------


def test_an_item_written_twice_is_named(tmp_path):
    path = whist_rule(tmp_path, "jokers-twice", "play { trumps_above BJ BJ LJ }")
    result = check_over_standard(path)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == f"{path}:3:21: 'BJ' is listed twice: each item is written once"


def test_items_twice_are_compared_as_json_schema_compares_them_at_every_depth():
    """`{a: 1}` and `{a: true}` were named as one item written twice (the types were compared at
    the top only); JSON Schema, which refused the list, tells `true` from `1` at every depth."""
    from bidcompiler.schemacheck import _first_repeated

    assert _first_repeated([{"a": 1}, {"a": True}]) is None
    assert _first_repeated([[1], [True]]) is None
    assert _first_repeated([1, True]) is None
    assert _first_repeated([{"a": [1, {"b": "x"}]}, {"a": [1.0, {"b": "x"}]}]) == {"a": [1, {"b": "x"}]}
    assert _first_repeated(["BJ", "LJ", "BJ"]) == "BJ"


def test_a_negative_value_that_is_no_whole_number_is_told_so(tmp_path):
    path = whist_rule(tmp_path, "floor-fraction", "game { floor -1.5 }")
    result = check_over_standard(path)
    assert result.stderr.splitlines()[0] == f"{path}:3:14: expected an integer or `remove floor`, found '-1.5'"


# -- a house rule stating what bids count, over a stack with a house rule ------------------


def test_the_hint_for_what_bids_count_names_the_variant_not_a_house_rule_below(tmp_path):
    """Over standard+min-bid-4 the hint said `extends: min-bid-4`: a house rule, which a variant
    cannot extend.  It names the variant at the bottom of the stack."""
    rule = write(tmp_path, "tr.yaml", "kind: house-rule\nname: tr\ndescription: x\n"
                                      "auction: {levels: {counts: books}}\n")
    result = run("compile", f"standard+min-bid-4+{rule}")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert "but 'min-bid-4' (shipped, line 9) counts books over six" in lines[0]
    assert lines[1] == ("    to fix: lay 'tr' over a game whose bids count books outright, or, to change what "
                        "the bids of 'standard' count, write a variant (`extends: standard`, not a house rule)")


def test_a_floor_is_judged_against_the_score_game_win_says_not_the_word_target(tmp_path):
    """Review: a floor of 10 under a win at `score >= target + 10` (17) was refused as "not below
    game.target (7)", and a floor of 100 under `score >= 50` let every game end on its first hand."""
    above = write(tmp_path, "f1.yaml", "name: f1\nextends: standard\ngame:\n  floor: 10\n  win: score >= target + 10\n")
    assert run("check", above).exit_code == 0
    result = run("simulate", "standard", "--set", "game.floor=100", "--set", "game.win=score >= 50", "--games", "2")
    assert result.exit_code != 0
    assert "game.floor: 100 is not below the score game.win is met at (50)" in result.stderr
    over = run("check", write(tmp_path, "f2.yaml", "name: f2\nextends: standard\ngame:\n  floor: 8\n"
                                                   "  win: score > 7 or hands >= 30\n"))
    assert over.exit_code == 1 and "is not below the score game.win is met at (8)" in over.stderr

"""Formulas for people: the simplified code and the plain-English reading of bidcompiler.formula_text."""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formula_strategies import typed_trees
from bidcompiler.errors import CompileError
from bidcompiler.expressions import (
    BOOL, INT, parse_expression, simplify,
)
from bidcompiler.formula_text import Wording, formula_code, reading
from bidcompiler.pipeline import compile_variant, shipped_house_rules, shipped_variants
from runtime.variables import GAME_VARIABLES, HAND_VARIABLES, MADE_VARIABLE

POINTS = Wording(points=True)


PLAIN = Wording()


def words(text: str, wording: Wording = PLAIN) -> str:
    return reading(parse_expression(text), wording)


# The issue's formula, as the compiler leaves it after inlining `base` (see
# tests/test_rulebook.py for the same through a house-rule file).
BONUS = ("if made and bid == 7 then 14 else if made and bid == 5 then (if made then over else -bid) + 5 "
         "else if made then over else -bid")


def test_the_issue_example_is_simplified_and_read():
    assert formula_code(parse_expression(BONUS)) == \
        "if made then (if bid == 7 then 14 else if bid == 5 then over + 5 else over) else -bid"
    assert words(BONUS, POINTS) == (
        "made: 14 points on a bid of 7, the declarers' books over six plus 5 on a bid of 5, "
        "otherwise the declarers' books over six; set: minus the bid")


@pytest.mark.parametrize("text, wording, expected", [
    ("if made then over else -bid", POINTS, "made: the declarers' books over six; set: minus the bid"),
    ("if made then over else -bid", Wording(declarers="the declarer", points=True),
     "made: the declarer's books over six; set: minus the bid"),
    ("if made then 1 else 0", POINTS, "made: 1 point; set: nothing"),
    ("if notrump then 2 else 1", Wording(), "2 in no trump, otherwise 1"),
    ("if made then (if bid == 7 then 4 * over else over) else -bid", POINTS,
     "made: the declarers' books over six, quadrupled on a bid of 7; set: minus the bid"),
    ("if sweep then 2 * (if made then over else -bid) else if made then over else -bid", POINTS,
     "made: the declarers' books over six; set: minus the bid; all doubled if the declarers took every book they could take"),
    ("(if made then 0 else bid) + max(0, own_books - 6)", POINTS,
     "made: nothing; set: the bid; in every case plus the larger of 0 and their own books over six"),
    ("if made then over else 2 * -bid", POINTS, "made: the declarers' books over six; set: minus twice the bid"),
    ("if bid >= 6 then 3 else if bid < 4 then 1 else 2", Wording(),
     "3 on a bid of 6 or more, 1 on a bid below 4, otherwise 2"),
    ("books >= 6 + bid", Wording(), "the declarers' books are at least 6 plus the bid"),
    ("defender_books < 8 - bid", Wording(), "the defenders' books are less than 8 minus the bid"),
    ("score <= -7 or sets >= 3", Wording(), "the side's score is at most -7 or the side has been set at least 3 times"),
    ("score >= 7 or swept", Wording(), "the side's score is at least 7 or the side took every book it could take in the hand"),
    ("score >= 7 and opponent_score == 0 or score - opponent_score >= 11", Wording(),
     "the side's score is at least 7 and the best other score is 0; "
     "or the side's score minus the best other score is at least 11"),
    ("not (swept or hands >= 10)", Wording(),
     "the side did not take every book it could take in the hand and fewer than 10 hands have been played"),
    ("hands >= 1 and (swept or games == 1)", Wording(),
     "at least 1 hands have been played and (the side took every book it could take in the hand or the side has won exactly 1 game)"),
    ("2 * over + 5 - bid / 2", Wording(),
     "twice the declarers' books over six plus 5 minus (half the bid (rounded down))"),
    ("(bid + 1) * over", Wording(), "(the bid plus 1) times the declarers' books over six"),
    ("-(bid + 3)", Wording(), "minus (the bid plus 3)"),
    ("abs(over - bid)", Wording(), "the absolute value of (the declarers' books over six minus the bid)"),
    ("max(bid, over, 2)", Wording(), "the largest of 2, the bid and the declarers' books over six"),
    ("if notrump then score >= 5 else score >= 7", Wording(),
     "in no trump, the side's score is at least 5; otherwise the side's score is at least 7"),
])
def test_readings(text, wording, expected):
    assert words(text, wording) == expected


def test_names_no_table_knows_are_shown_as_code():
    assert reading(parse_expression("flag and mystery > 2"), condition=True) == "`flag` is true and `mystery` is more than 2"
    assert reading(parse_expression("if flag then mystery else 0"), condition=False) == \
        "`mystery` if `flag` is true, otherwise 0"


def test_grouping_in_words_follows_the_formula():
    # English cannot say "a plus b times c" unambiguously: the operand in parentheses is the one grouped.
    assert words("bid + over * books") == "the bid plus (the declarers' books over six times the declarers' books)"
    assert words("(bid + over) * books") == "(the bid plus the declarers' books over six) times the declarers' books"
    assert words("bid / (over - books)") == \
        "the bid divided by (the declarers' books over six minus the declarers' books) (rounded down)"
    # A sum inside a sum is one sum: said left to right.
    assert words("bid - (over - books)") == "the bid minus the declarers' books over six plus the declarers' books"


# ----------------------------------------------------------------- every shipped formula


@functools.cache
def shipped_specs() -> list[str]:
    specs = sorted(shipped_variants())
    specs += [f"{v}+{r}" for v in sorted(shipped_variants()) for r in sorted(shipped_house_rules())]
    return specs


def formulas(v):
    s, g = v.scoring, v.game
    return [("made", s.made), ("declarer", s.declarer), ("defender", s.defender), ("multiplier", s.multiplier),
            ("win", g.win), ("lose", g.lose)]


def test_every_formula_of_every_shipped_variant_and_house_rule_reads_in_words():
    compiled = 0
    for spec in shipped_specs():
        try:
            v = compile_variant(spec)
        except CompileError:
            continue  # a house rule that does not fit that variant
        compiled += 1
        for key, f in formulas(v):
            text = reading(parse_expression(f.text), POINTS if key in ("declarer", "defender") else Wording())
            # Words, not code: every shipped name has its words, nothing falls back to `code`.
            assert text and "`" not in text, (spec, key, f.text, text)
    assert compiled > 100


# ----------------------------------------------------------------- any formula at all


ALL_TYPES = {**{n: INT for n, (t, _) in {**HAND_VARIABLES, **GAME_VARIABLES}.items() if t == "int"},
             **{n: BOOL for n, (t, _) in {**HAND_VARIABLES, **GAME_VARIABLES}.items() if t == "bool"},
             MADE_VARIABLE[0]: BOOL, "mystery": INT, "flag": BOOL}
INTS = sorted(n for n, t in ALL_TYPES.items() if t is INT)
BOOLS = sorted(n for n, t in ALL_TYPES.items() if t is BOOL)


def trees(kind, depth: int):
    """Well-typed formulas over every variable (and names no table knows)."""
    return typed_trees(kind, depth, tuple(INTS), tuple(BOOLS), top=8, max_args=3)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from([INT, BOOL]), data=st.data(), points=st.booleans())
def test_any_formula_gets_a_reading_and_code_that_means_the_same(kind, data, points):
    tree = data.draw(trees(kind, 4))
    text = reading(tree, Wording(points=points), condition=kind is BOOL)
    assert isinstance(text, str) and text
    assert reading(tree)  # guessing the type from the shape never fails either
    assert text.count("(") == text.count(")")
    code = formula_code(tree)
    assert parse_expression(code) == simplify(tree)


def test_compile_rules_and_diff_print_one_formula_alike(tmp_path):
    """`compile`'s summary printed the formula as written (``2 * -bid``) where `rules` and
    `diff` print it simplified (``-2 * bid``): all three now print it one way."""
    from click.testing import CliRunner

    from bidcompiler.cli import cli

    rule = tmp_path / "double-set.yaml"
    rule.write_text("name: double-set\nkind: house-rule\ndescription: x\n"
                    "scoring:\n  declarer: if made then over else 2 * -bid\n", encoding="utf-8")
    outputs = [CliRunner().invoke(cli, argv).output
               for argv in (["compile", f"standard+{rule}"], ["rules", f"standard+{rule}"],
                            ["diff", "standard", f"standard+{rule}"])]
    for out in outputs:
        assert "if made then over else -2 * bid" in out, out
        assert "2 * -bid" not in out

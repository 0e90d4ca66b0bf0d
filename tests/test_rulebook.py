"""`bidwhist rules`: the Markdown rulebook made from the compiled IR.

Each shipped variant (and one variant with house rules) is pinned to a golden
rulebook in ``tests/golden/rules``.  To accept an intended change, run
``BIDWHIST_UPDATE_GOLDEN=1 pytest tests/test_rulebook.py`` and review the diff.
The other tests check that a house rule changes the rulebook where it should and
nowhere else, and that the command prints the Markdown untouched.
"""

from __future__ import annotations

import difflib
import functools
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli
from bidcompiler.errors import CompileError
from bidcompiler.pipeline import compile_variant, shipped_house_rules, shipped_variants
from bidcompiler.rulebook import formula_words, rulebook
from runtime.variables import GAME_VARIABLES, HAND_VARIABLES

GOLDEN = Path(__file__).parent / "golden" / "rules"
REPO = Path(__file__).resolve().parent.parent
# Variants with house rules that also get a golden rulebook.
COMBINED = ["standard+min-bid-4+sport-kitty"]
SPECS = sorted(shipped_variants()) + COMBINED


@functools.cache
def book(spec: str) -> str:
    """The rulebook of a variant named as on the command line (compiled once per run)."""
    return rulebook(compile_variant(spec))


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines only in ``before`` and the lines only in ``after``."""
    old, new = [], []
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        (old if line.startswith("-") else new).append(line[1:])
    return old, new


def section(text: str, heading: str) -> str:
    """The body of the ``## heading`` section."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


@pytest.mark.parametrize("spec", SPECS)
def test_rulebook_matches_its_golden_file(spec):
    actual = book(spec)
    golden = GOLDEN / f"{spec}.md"
    if os.environ.get("BIDWHIST_UPDATE_GOLDEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"no golden rulebook for {spec}: run with BIDWHIST_UPDATE_GOLDEN=1"
    assert actual == golden.read_text(encoding="utf-8")


def test_every_golden_rulebook_has_a_variant():
    assert {p.name.removesuffix(".md") for p in GOLDEN.glob("*.md")} <= set(SPECS)


def test_rulebook_is_deterministic():
    assert rulebook(compile_variant("standard")) == rulebook(compile_variant("standard"))


def test_standard_says_the_key_rules():
    text = book("standard")
    assert text.startswith("# Bid Whist (54 cards)\n")
    for sentence in (
        "Four players in two partnerships: seats 0 and 2 against 1 and 3.",
        "The deck: 52 cards and the jokers BJ, LJ (54 cards).",
        "Each player gets 12 cards; 6 go face down to the kitty.",
        "The bids, lowest first: 3 uptown = 3 downtown < 3 notrump < 4 uptown = 4 downtown < 4 notrump",
        "If everyone before the dealer passes, the dealer must bid.",
        "- **notrump**: no trump; the declarer chooses the order: uptown or downtown.",
        "The discards count as the declaring side's first book.",
        "In a suit contract BJ and LJ are the highest trumps",
        "- **Declarers score**: `if made then over else -bid`",
        "- **A side wins** when: `score >= target`",
        "- House rules: none.",
    ):
        assert sentence in text, sentence
    for heading in ("Players and cards", "Rank orders", "The auction", "Declaration", "The kitty", "Play",
                    "Scoring", "Game end", "Words used in the formulas"):
        assert f"\n## {heading}\n" in text


def test_min_bid_4_changes_the_bid_lines_and_the_header_only():
    old, new = changed_lines(book("standard"), book("standard+min-bid-4"))
    assert len(old) == len(new) == 4
    assert "The rules of `standard+min-bid-4` as bidwhist compiles them." in new
    assert "- House rules: `min-bid-4`." in new
    assert "Bids are a number from 4 to 7 and one of: uptown (also high, up); downtown (also low, down); " \
           "notrump (also nt, no)." in new
    ladder = [line for line in new if line.startswith("The bids, lowest first: ")]
    assert ladder == ["The bids, lowest first: 4 uptown = 4 downtown < 4 notrump < 5 uptown = 5 downtown < "
                      "5 notrump < 6 uptown = 6 downtown < 6 notrump < 7 uptown = 7 downtown < 7 notrump."]


@pytest.mark.parametrize("rule, heading, gone, added", [
    ("sport-kitty", "The kitty", "The other players do not see the kitty.",
     "In a suit contract the kitty is shown to all once trump is named"),
    ("kitty-first", "Declaration", "The declarer makes these choices before taking the kitty.",
     "The declarer takes the kitty and discards first"),
    ("eldest-leads", "Play", "The declarer leads to the first trick",
     "The player on the dealer's left leads to the first trick"),
    ("plain-notrump", "Scoring", "`if notrump then 2 else 1`", "- **Multiplier**: none"),
    ("boston-x4", "Scoring", "`if made then over else -bid`", "quadrupled on a bid of 7"),
    ("to-9", "Game end", "score is at least 7", "score is at least 9"),
    ("level-only", "The auction", "3 uptown = 3 downtown < 3 notrump",
     "3 uptown = 3 downtown = 3 notrump < 4 uptown"),
    ("low-beats-high", "The auction", "3 uptown = 3 downtown", "3 uptown < 3 downtown < 3 notrump"),
    ("jokers-out-in-notrump", "Play", "A joker may be played only by a player who cannot follow",
     "In no trump the jokers BJ, LJ leave play"),
    ("renege-penalty", "Play", "a player who cannot may play any card",
     "the reneging side gives 3 of its books"),
])
def test_a_house_rule_changes_its_own_section(rule, heading, gone, added):
    before, after = book("standard"), book(f"standard+{rule}")
    assert gone in section(before, heading) and gone not in section(after, heading)
    assert added in section(after, heading) and added not in before
    # Nothing else moves: every other section reads the same.
    for other in ("Players and cards", "Rank orders", "The auction", "Declaration", "The kitty", "Play",
                  "Scoring", "Game end"):
        if other != heading:
            assert section(before, other) == section(after, other), other


def test_house_rules_are_named_in_order():
    text = book("standard+min-bid-4+sport-kitty")
    assert "The rules of `standard+min-bid-4+sport-kitty` as bidwhist compiles them." in text
    assert "- House rules: `min-bid-4`, `sport-kitty`." in text


def test_glossary_lists_only_the_names_the_formulas_use():
    glossary = section(book("standard"), "Words used in the formulas")
    for name in ("bid", "books", "over", "notrump", "made", "score"):
        assert f"- `{name}`: " in glossary
    for name in ("sweep", "sets", "swept", "own_books", "opponent_score"):
        assert f"`{name}`" not in glossary
    assert f"- `bid`: {HAND_VARIABLES['bid'][1]}" in glossary
    assert f"- `sets`: {GAME_VARIABLES['sets'][1]}" in section(book("standard+two-sets"), "Words used in the formulas")


@pytest.mark.parametrize("text, kind, words", [
    ("if made then over else -bid", "int", "made: the declarers' books over six; set: minus the bid"),
    ("books >= 6 + bid", "bool", "the declarers' books are at least 6 plus the bid"),
    ("score <= -7", "bool", "the side's score is at most -7"),
    ("if notrump then 2 else 1", "int", "2 in no trump, otherwise 1"),
    ("score >= 7 or swept", "bool", "the side's score is at least 7 or the side took every book it could take in the hand"),
])
def test_formulas_are_said_in_words(text, kind, words):
    v = compile_variant("standard")
    formula = type(v.scoring.made)(text=text, type=kind, ast=None)
    assert formula_words(formula) == words


def test_a_formula_built_on_base_is_shown_simplified_with_its_reading():
    text = book("standard+boston-x4")
    assert ("- **Declarers score**: `if made then (if bid == 7 then 4 * over else over) else -bid` — "
            "made: the declarers' books over six, quadrupled on a bid of 7; set: minus the bid.") in text
    assert "if made then over else -bid) else" not in text  # `base` inlined, then folded away


def test_a_one_player_side_is_the_declarer():
    scoring = section(book("cutthroat"), "Scoring")
    assert "made: the declarer's books; set: minus the bid" in scoring
    assert "declarers'" not in scoring


BONUS = ('house-rule bonus\n'
         'description "a made 7 scores 14, a made 5 scores five more"\n'
         'scoring { declarer = if made and bid == 7 then 14 else if made and bid == 5 then base + 5 else base }\n')


def test_the_issue_house_rule_reads_in_the_rulebook(tmp_path):
    path = tmp_path / "bonus.whist"
    path.write_text(BONUS, encoding="utf-8")
    result = CliRunner().invoke(cli, ["rules", f"standard+{path}"])
    assert result.exit_code == 0, result.stderr
    assert ("- **Declarers score**: `if made then (if bid == 7 then 14 else if bid == 5 then over + 5 else over) "
            "else -bid` — made: 14 points on a bid of 7, the declarers' books over six plus 5 on a bid of 5, "
            "otherwise the declarers' books over six; set: minus the bid.") in result.stdout
    # The rest of the rulebook is the standard one.
    old, new = changed_lines(book("standard"), result.stdout)
    assert len(old) == len(new) == 3  # the header, the house rules and the declarers' score


def test_a_house_rule_that_simplifies_away_shows_the_simple_formula():
    # two-sets over cutthroat (which cannot lose): `false or sets >= 3` is `sets >= 3`.
    games = section(book("cutthroat+two-sets"), "Game end")
    assert "- **A side loses** when: `sets >= 3` — the side has been set at least 3 times;" in games


@pytest.mark.parametrize("rule", sorted(shipped_house_rules()))
def test_every_house_rule_over_standard_gets_a_rulebook(rule):
    try:
        v = compile_variant(f"standard+{rule}")
    except CompileError:
        pytest.skip(f"{rule} does not fit standard")
    text = rulebook(v)
    assert f"`{rule}`" in text and text.endswith("\n") and "\n\n\n" not in text


# ------------------------------------------------------------------------------ the command


def test_rules_command_prints_the_rulebook_untouched():
    result = CliRunner().invoke(cli, ["rules", "standard"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == book("standard")
    assert result.stderr == ""


def test_rules_command_takes_house_rules_both_ways():
    with_option = CliRunner().invoke(cli, ["rules", "standard", "--with", "min-bid-4", "--with", "sport-kitty"])
    named = CliRunner().invoke(cli, ["rules", "standard+min-bid-4+sport-kitty"])
    assert with_option.exit_code == named.exit_code == 0
    assert with_option.stdout == named.stdout == book("standard+min-bid-4+sport-kitty")


def test_rules_command_applies_set():
    result = CliRunner().invoke(cli, ["rules", "standard", "--set", "auction.levels.from=5"])
    assert result.exit_code == 0, result.stderr
    assert "Bids are a number from 5 to 7" in result.stdout


def test_rules_command_keeps_brackets(tmp_path):
    # rich would read "[house]" as markup and drop it; the rulebook must print as is.
    text = (REPO / "variants" / "standard.yaml").read_text(encoding="utf-8")
    text = text.replace("title: Bid Whist (54 cards)", "title: Whist [house] *rules*")
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["rules", str(path)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# Whist \\[house\\] \\*rules\\*\n")


def test_rules_command_unknown_variant_is_a_usage_error():
    result = CliRunner().invoke(cli, ["rules", "no-such-game"])
    assert result.exit_code == 2
    assert "no-such-game" in result.stderr and result.stdout == ""


def test_rules_command_bad_house_rule_combination_is_bad_content():
    result = CliRunner().invoke(cli, ["rules", "standard+no-kitty+kitty-first"])
    assert result.exit_code == 1
    assert "declaration.when has no effect" in result.stderr and result.stdout == ""


def _terms_rule(tmp_path: Path, terms: str) -> str:
    """A house rule file whose defenders' score is the named ``terms`` (YAML, indented four spaces)."""
    path = tmp_path / "terms.yaml"
    path.write_text(f"kind: house-rule\nname: terms\nscoring:\n  defender:\n{terms}", encoding="utf-8")
    return str(path)


def test_the_defenders_named_terms_read_one_a_line_in_their_order(tmp_path):
    terms = _terms_rule(tmp_path, "    lost-bid: if made then 0 else bid\n    nil: 0\n"
                                  "    books: max(0, own_books - 6)\n")
    scoring = section(rulebook(compile_variant("standard", (terms,))), "Scoring")
    assert ("- **Defenders score** the sum of these terms:\n"
            "  - lost-bid: `if made then 0 else bid` — made: nothing; set: the bid;\n"
            "  - books: `max(0, own_books - 6)` — the larger of 0 and their own books over six.\n") in scoring
    # The sum is not also written out as one formula, and a term plainly 0 (or standard's
    # own `score: 0`, kept under the rule's terms) is left out as adding nothing.
    defenders = scoring[scoring.index("- **Defenders"):scoring.index("- **Multiplier")]
    assert " + " not in defenders and "nil" not in defenders and "score:" not in defenders


def test_one_term_that_adds_something_reads_as_a_single_formula(tmp_path):
    terms = _terms_rule(tmp_path, "    nil: 0\n    books: max(0, own_books - 6)\n")
    line = "- **Defenders score**: `max(0, own_books - 6)` — the larger of 0 and their own books over six."
    assert line in book("standard+defenders-score").splitlines()
    assert line in rulebook(compile_variant("standard", (terms,))).splitlines()
    assert "- **Defenders score**: `0`." in book("standard").splitlines()


@pytest.mark.parametrize("name, partners", [("standard", True), ("cutthroat", False)])
def test_the_rulebook_diff_and_hand_end_name_the_declaring_side_from_one_place(name, partners):
    # bidcompiler.seatwords.declarer_words: singular or plural worked out once, not in each module.
    from bidcompiler import irdiff, rulebook as book_module
    from bidcompiler.cli.hand_rules import _declarer_words
    from bidcompiler.pipeline import load_ruleset
    from bidcompiler.seatwords import declarer_words

    v = compile_variant(name)
    words = declarer_words(partners)
    assert book_module._wording(v).declarers == words[0]
    assert _declarer_words(load_ruleset(name)) == words
    assert f"{words[1]} books" in irdiff._reading(v.scoring.made, v, "scoring.made")

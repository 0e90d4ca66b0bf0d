"""Mistakes made writing house rules from the docs: each gets one clear message (exit 1).

The files are in tests/data/authoring-mistakes (its README says what they are); each is
checked laid over the standard game, as the tutorial checks a rule.  One message each:
``file:line:col: …`` (the file at fault: a cycle of ``extends`` is placed in the file that
closes it), then at most its source line with a caret and a ``to fix:`` line, and never a
traceback.  Also here: the house rules of real tables in tests/data/table-rules fit the
games they are written for, and a rule checked over several games is told which one it
does not fit.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clirun import run

DATA = Path(__file__).parent / "data"
MISTAKES = DATA / "authoring-mistakes"
TABLE_RULES = DATA / "table-rules"
SUMMARY = "1 of 1 file(s) have errors"


def expected_messages() -> dict[str, str]:
    """File name -> the stderr ``check`` prints for it (its summary line left out), from expected.txt."""
    found: dict[str, list[str]] = {}
    for line in (MISTAKES / "expected.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("== "):
            current = found.setdefault(line[3:], [])
        else:
            current.append(line)
    return {name: "\n".join(lines) for name, lines in found.items()}


EXPECTED = expected_messages()
SOURCES = sorted(p.name for p in MISTAKES.iterdir() if p.suffix in (".yaml", ".whist"))


def test_the_mistakes_are_many_and_each_has_its_message():
    assert len(EXPECTED) >= 40
    assert set(EXPECTED) <= set(SOURCES)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_mistake_gets_one_placed_message(name, monkeypatch):
    monkeypatch.chdir(MISTAKES)
    result = run("check", name, "--on", "standard")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[-1] == SUMMARY
    heads = [line for line in lines[:-1] if not line.startswith(" ")]
    assert len(heads) == 1, heads
    assert re.match(r"[\w.-]+\.(yaml|whist):\d+:\d+: \S", heads[0]), heads[0]
    assert "\n".join(lines[:-1]) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(set(SOURCES) - set(EXPECTED)))
def test_what_only_looks_like_a_mistake_is_accepted(name, monkeypatch):
    monkeypatch.chdir(MISTAKES)
    result = run("check", name, "--on", "standard")
    assert (result.exit_code, result.stderr) == (0, "")


def test_a_continued_formula_is_blamed_on_the_line_of_the_mistake(monkeypatch):
    """`\\` continues a .whist formula: a misspelt name on the second line was placed past
    the end of the first (3:56); CRLF line ends alike."""
    monkeypatch.chdir(MISTAKES)
    text = (MISTAKES / "62-continued.whist").read_text(encoding="utf-8").splitlines()
    line, col = (int(n) for n in EXPECTED["62-continued.whist"].split(":")[1:3])
    assert text[line - 1][col - 1:].startswith("bsae")


@pytest.mark.parametrize("name", sorted(p.name for p in TABLE_RULES.iterdir() if p.suffix in (".yaml", ".whist")))
def test_each_table_rule_fits_the_standard_game(name, monkeypatch):
    monkeypatch.chdir(TABLE_RULES)
    result = run("check", name, "--on", "standard")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"{name}: ok")


def test_a_rule_over_several_games_is_told_which_it_does_not_fit(monkeypatch):
    """`overcall_partner` has no effect in a game without partners: said once, naming
    both such games, and not the partnership game it fits."""
    monkeypatch.chdir(TABLE_RULES)
    result = run("check", "dealer-take.yaml", "--on", "standard", "--on", "cutthroat", "--on", "two-handed")
    assert result.exit_code == 1
    heads = [line for line in result.stderr.splitlines() if not line.startswith(" ")]
    assert heads == ["dealer-take.yaml:6:21: auction.overcall_partner has no effect: no player has a partner "
                     "(laid over cutthroat, two-handed)", SUMMARY]


def test_a_game_named_twice_is_checked_once(monkeypatch):
    # Was: "(laid over cutthroat, cutthroat)" and "ok (over standard, standard)".
    monkeypatch.chdir(TABLE_RULES)
    twice = run("check", "dealer-take.yaml", "--on", "cutthroat", "--on", "cutthroat")
    assert twice.stderr == run("check", "dealer-take.yaml", "--on", "cutthroat").stderr
    assert "(laid over" not in twice.stderr
    assert run("check", "partner-leads.yaml", "--on", "standard", "--on", "standard").stdout == \
        "partner-leads.yaml: ok (over standard)\n"


def test_each_game_a_rule_does_not_fit_is_checked(monkeypatch):
    """Every base is tried, not only up to the first that fails: two games, two messages,
    each naming its game; with one base, the message is as it always was."""
    monkeypatch.chdir(TABLE_RULES)
    both = run("check", "nt-from-5.yaml", "--on", "hawaii", "--on", "cutthroat").stderr.splitlines()
    assert [line.rsplit("(laid over ", 1)[-1] for line in both if not line.startswith(" ")][:2] == \
           ["hawaii)", "cutthroat)"]
    alone = run("check", "nt-from-5.yaml", "--on", "cutthroat").stderr.splitlines()
    assert alone[0] == both[2].replace(" (laid over cutthroat)", "")


@pytest.mark.parametrize("change, message", [
    # A name of the hand's scoring in the game's end: what the game's formulas see instead.
    ("game.lose.broke=books < 3", "`books` cannot be used here: it is a name of a hand's scoring (scoring.*), "
                                  "not of the game's end, which sees the hand just played as last_bid, "
                                  "last_declarer, last_made and swept"),
    # A key written with `-` for `_`, or in capitals: the setting it is, not the nearest spelling.
    ("auction.dealer-may-take=true", "unknown key 'dealer-may-take' (did you mean 'dealer_may_take'?)"),
    ("auction.if_all_pass=Redeal", "(did you mean 'redeal'?)"),
])
def test_set_mistakes_are_told_what_was_meant(change, message):
    result = run("compile", "standard", "--set", change)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].startswith(f"--set {change}: ")
    assert message in result.stderr.splitlines()[0]


def test_a_stuck_dealers_floor_below_the_ladder_is_one_message(monkeypatch):
    """`dealer_bids_from 4` over a game whose bids start at 7: out of range, said once (it was
    also "has no effect", whose fix, above 7, the first message's range contradicted)."""
    monkeypatch.chdir(TABLE_RULES)
    result = run("check", "stuck-4.whist", "--on", "cutthroat")
    heads = [line for line in result.stderr.splitlines() if not line.startswith(" ")]
    assert heads == ["stuck-4.whist:5:20: dealer_bids_from must be a number the auction has, from 7 to 18", SUMMARY]


def test_a_deal_that_does_not_add_up_counts_its_cards_in_words(monkeypatch):
    monkeypatch.chdir(TABLE_RULES)
    result = run("check", "our-52.whist", "--on", "cutthroat")
    assert "make the kitty 1 card (deal.kitty)" in result.stderr


@pytest.mark.parametrize("args, option", [
    (("compile", "standard+to-5", "--with", "standard"), "--with"),
    (("compile", "standard", "--with", "standard"), "--with"),
    (("compile", "standard+cutthroat"), "VARIANT"),
], ids=["with", "with-the-base", "plus"])
def test_a_variant_given_as_a_house_rule_is_told_how_to_play_it(args, option):
    """`--with standard` was told to give the shipped file `kind: house-rule`, then (exit 1)
    led with the shipped file's place ("shipped 'standard', line 9"): a name misused on the
    command line is bad usage (exit 2), and the message leads with what to do."""
    result = run(*args)
    assert result.exit_code == 2
    rule = args[-1].rsplit("+", 1)[-1]
    assert result.stderr.splitlines()[-1] == (
        f"Error: Invalid value for {option}: name '{rule}' as the variant, with house rules after it "
        "(VARIANT+RULE): it is a variant, not a house rule")
    assert "shipped" not in result.stderr and "kind: house-rule" not in result.stderr


def test_a_set_that_is_not_yaml_names_no_line_of_text_the_user_never_wrote():
    result = run("compile", "standard", "--set", "auction.ranking=[[uptown")
    assert result.exit_code == 2
    assert "(parsing a flow sequence)" in result.stderr and "line" not in result.stderr.replace("\n", " ")

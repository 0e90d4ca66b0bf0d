"""A player writing house rules of their own, from the README and the docs alone.

Each test is a rule a table might write (not one of the shipped files) and what the
commands must say of it: the compiled rules it means, or one clear message with the
file, line and column and what to do (exit 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clirun import run


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# ----------------------------------------------------------------- a ladder no hand can make
def test_a_ladder_above_every_book_of_a_hand_is_refused_where_it_is_written(tmp_path):
    """`levels { from 4; to 8 }` over standard: a bid of 8 over six asks for 14 of the 13 books.

    Was: accepted (the bound was the 13 books themselves, as if bids counted books
    outright), so the auction offered bids no side could ever make.
    """
    rule = _write(tmp_path, "ladder.whist", "house-rule ladder-4-8\nauction { levels { from 4; to 8 } }\n")
    result = run("rules", "standard", "--with", rule)
    assert result.exit_code == 1
    first, fix = result.stderr.splitlines()[:2]
    assert first == f"{rule}:2:31: levels: to 8 (a bid of 14 books) is more than the 13 books of a hand"
    assert fix.strip() == "to fix: set auction.levels.to to at most 7"


def test_a_smaller_deck_brings_the_highest_bid_down_with_it(tmp_path):
    """A deck without sevens (11 cards each, 12 books): a bid of 7 asks for 13, so the rule must
    end the ladder at 6; written so, it compiles and plays."""
    text = "house-rule no-sevens\ndeck { without 7S 7H 7D 7C }\ndeal { hand 11 }\n"
    rule = _write(tmp_path, "no-sevens.whist", text)
    result = run("rules", "standard", "--with", rule)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{rule}:3:13: levels: to 7 (a bid of 13 books) is more than the 12 books "
                                    "of a hand")
    assert "to fix: set auction.levels.to to at most 6" in result.stderr
    fixed = _write(tmp_path, "no-sevens-fixed.whist", text + "auction { levels { to 6 } }\n")
    assert run("simulate", f"standard+{fixed}", "--hands", "5", "--seed", "1", "--json").exit_code == 0


# ----------------------------------------------------------------- the names a formula may use
def test_the_readme_gives_every_formula_name_with_the_engines_own_meaning():
    """The README's table of formula names is the engine's: each name, its type and its meaning.

    Was: the README listed the names bare, so a player writing "the defenders score their
    books over six" reached for `defender_over`, which is below 0 on most made hands (the
    shipped rule is `max(0, own_books - 6)`): a rule that costs the defenders points.
    """
    import re

    from runtime.variables import GAME_VARIABLES, HAND_VARIABLES, MADE_VARIABLE

    from bidcompiler.build import BUILD_CONSTANTS

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    rows = {m[0]: (m[1], m[2], m[3]) for m in
            re.findall(r"^\| `(\w+)` \| ([^|]+) \| (int|bool) \| ([^|]+) \|$", readme, re.M)}
    engine = {**{n: ("hand", *v) for n, v in HAND_VARIABLES.items()},
              MADE_VARIABLE[0]: ("hand (not in `scoring.made`)", *MADE_VARIABLE[1]),
              **{n: ("game", *v) for n, v in GAME_VARIABLES.items()},
              **{n: ("both", *v) for n, v in BUILD_CONSTANTS.items()}}
    assert rows == engine
    assert "below 0" in HAND_VARIABLES["defender_over"][1]


# ----------------------------------------------------------------- one rule named twice
def test_a_house_rule_named_twice_is_refused_naming_it(tmp_path):
    """`standard+boston-x4+boston-x4`: was accepted, and a made 7 scored 16 times over (the
    rule's `4 * base` laid on itself). Now one message at the rule's file, exit 1, in every
    command, however the rule is named (shipped name, path, --with)."""
    result = run("rules", "standard+boston-x4+min-bid-4+boston-x4")
    assert result.exit_code == 1
    first, fix = result.stderr.splitlines()
    # A shipped file is named by its shipped name, not by the path it is installed at.
    assert first == ("shipped 'boston-x4', line 2: house rule 'boston-x4' is laid twice over one variant "
                     "(as 'boston-x4' both times)")
    assert fix.strip() == "to fix: name each house rule once: a house rule applies once"
    rule = _write(tmp_path, "to-11.whist", "house-rule to-11\ngame { target 11 }\n")
    other = f"{tmp_path}/./to-11.whist"
    again = run("simulate", f"standard+{rule}", "--with", other, "--hands", "2")
    assert again.exit_code == 1
    assert again.stderr.startswith(f"{rule}:1:12: house rule 'to-11' is laid twice over one variant "
                                   f"(first as '{rule}', then as '{other}')")


# ----------------------------------------------------------------- the commonest slips
def test_a_house_rule_that_forgot_its_kind_gets_one_message_saying_so(tmp_path):
    """Was: one "missing required key" line per section of a whole game (nine of them), and not
    a word about `kind: house-rule`."""
    rule = _write(tmp_path, "nokind.yaml", "name: red\ndeck:\n  without: [2H, 2D]\ndeal:\n  kitty: 4\n")
    result = run("check", rule)
    assert result.exit_code == 1
    first, fix, summary = result.stderr.splitlines()
    assert first == (f"{rule}:1:1: missing required keys 'auction', 'declaration', 'game', 'kitty', 'orders', "
                     "'play', 'players', 'scoring', 'sides': a variant of its own gives every section")
    assert fix.strip() == ("to fix: if this file changes a game, make it a house rule (`kind: house-rule`); "
                           "if it is a variant built on another, name it (`extends: VARIANT`)")
    whist = _write(tmp_path, "v.whist", "variant red\ndeal { kitty 4 }\n")
    out = run("rules", "standard", "--with", whist).stderr
    assert out.count("\n") == 2 and "(`house-rule NAME` as its first line)" in out


def test_a_misspelt_word_gets_a_suggestion_and_a_misspelt_kind_only_that(tmp_path):
    """Was: `kind: houserule` also drew ten "missing required key" lines (the file read as a
    whole variant), and no misspelt word of a list of words had a "did you mean"."""
    rule = _write(tmp_path, "kind.yaml", "name: k\nkind: houserule\ndeal:\n  rotation: rigth\n")
    result = run("check", rule)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:2] == [
        f"{rule}:2:7: 'houserule' is not one of: variant, house-rule (did you mean 'house-rule'?)",
        f"{rule}:4:13: 'rigth' is not one of: left, right (did you mean 'right'?)"]
    seat = _write(tmp_path, "seat.whist", "house-rule s\nplay { first_lead left-of-decalrer }\n")
    assert run("check", seat).stderr.startswith(
        f"{seat}:2:19: expected a seat (dealer, declarer, partner, left-of-dealer, right-of-declarer ...), "
        "found 'left-of-decalrer' (did you mean 'left-of-declarer'?)")


def test_a_file_in_the_other_syntax_is_named_as_such(tmp_path):
    """The syntax goes by the file's extension. Was: a .whist rule saved as .yaml read as "expected
    a mapping of variant settings at the top level", a YAML rule saved as .whist as "expected the
    end of the setting or `variant` or `house-rule`, found `name`": neither said why."""
    yaml_named = _write(tmp_path, "mine.yaml", "# our table\nhouse-rule mine\ndeal { kitty 4 }\n")
    result = run("rules", "standard", "--with", yaml_named)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{yaml_named}:2:1: this file is written in the .whist syntax (`house-rule mine`), but its name does not "
        "end in .whist, so it is read as YAML",
        "    to fix: rename it mine.whist, or write it in YAML (`name: ...`, `kind: house-rule`)"]
    whist_named = _write(tmp_path, "theirs.whist", "name: theirs\nkind: house-rule\ndeal:\n  kitty: 4\n")
    result = run("check", whist_named)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:2] == [
        f"{whist_named}:1:1: this file is written in YAML (`name: theirs`), but its name ends in .whist, which is "
        "read as the .whist syntax",
        "    to fix: rename it theirs.yaml, or write it in the .whist syntax (docs/whist-syntax.md)"]


def test_one_word_is_a_list_of_one_inside_a_block_of_a_word_or_block_setting(tmp_path):
    """`kitty { show { when declaration; contracts suit } }` is sport-kitty, as the docs say one
    value where the schema wants a list is a list of one. Was: "expected a list, found 'suit'"
    (kitty.show is a word or a block, and the block's keys were not looked up)."""
    from bidcompiler.pipeline import compile_variant

    rule = _write(tmp_path, "sk.whist", "house-rule sk\nkitty { show { when declaration; contracts suit } }\n")
    assert compile_variant("standard", (rule,)).kitty == compile_variant("standard", ("sport-kitty",)).kitty


def test_a_rule_naming_a_strain_its_game_lacks_is_told_which_strains_there_are(tmp_path):
    """"notrump from 4" over a game whose bids are bare numbers. Was: two lines, "missing required
    key 'trump'" and "... 'direction'", with no word of why a rule that only changes levels would
    need them (strains merge by name: a name the game lacks makes a new strain)."""
    rule = _write(tmp_path, "nt4.whist", "house-rule nt4\nauction { strains { notrump { levels { from 4 } } } }\n")
    result = run("rules", "rhode-island", "--with", rule)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{rule}:2:21: auction.strains: strain 'notrump': missing required keys 'trump', 'direction'",
        "    to fix: the other strains are 'number': to change one of them, use its name; to add strain 'notrump', "
        "give it 'trump' and 'direction'"]


def test_a_setting_written_in_the_wrong_block_is_told_where_it_belongs(tmp_path):
    """`auction { first_lead eldest }`: was "unknown key 'first_lead' (did you mean 'first_caller'?)",
    a suggestion that compiles to another rule. Now the block the setting belongs to."""
    rule = _write(tmp_path, "lead.whist", "house-rule lead\nauction { first_lead eldest }\n")
    result = run("check", rule)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (f"{rule}:2:11: unknown key 'first_lead' here: it is a setting of play "
                                             "(`play.first_lead`)")
    yaml_rule = _write(tmp_path, "red.yaml", "name: red\nkind: house-rule\ndeal:\n  kitty: 4\n  without: [2H, 2D]\n")
    assert run("check", yaml_rule).stderr.splitlines()[0] == (
        f"{yaml_rule}:5:3: unknown key 'without' here: it is a setting of deck (`deck.without`)")


# ----------------------------------------------------------------- the settings reference
def test_the_settings_page_is_the_schema():
    """docs/settings.md lists every setting with what it takes, its default and its meaning, as the
    schema says (was: only the JSON Schema itself, so `kitty.taker: partner` or `deal.rotation:
    right` could be found only by reading JSON). Rewrite it with `python tests/settings_reference.py`."""
    from settings_reference import PAGE, render

    from bidcompiler import vocabulary

    page = PAGE.read_text(encoding="utf-8")
    assert page == render()
    for path in vocabulary.vocabulary().by_schema:
        assert path.endswith("[]") or f"| `{path}` |" in page


def test_a_variant_extending_a_house_rule_is_told_so_at_its_extends_line(tmp_path):
    """Was: six "missing required key/section" lines placed in the shipped house rule's file."""
    mine = _write(tmp_path, "mine.whist", "variant mine\nextends kitty-first\n")
    result = run("rules", mine)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (f"{mine}:2:9: extends 'kitty-first', which is a house rule, not a "
                                             "variant: a variant extends a variant")
    assert len(result.stderr.splitlines()) == 2


def test_base_in_a_named_term_says_what_to_write_instead(tmp_path):
    """`defender { extra = base + 1 }`: was "to add to the score, add a term of its own name beside
    'extra'", which 'extra' already is. Now: the terms are added up, so write what it adds."""
    rule = _write(tmp_path, "extra.whist", "house-rule extra\nscoring { defender { extra = base + 1 } }\n")
    result = run("rules", "standard", "--with", rule)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"{rule}:2:30: scoring.defender.extra: a named term is written whole and cannot say `base`; the terms are "
        "added up: write only what 'extra' adds to the score")


def test_a_ten_may_be_written_10_in_a_list_of_cards_as_anywhere_else(tmp_path):
    """`deck { without 10H 10D }`: the ranks take `10` and play takes `10h`, but a list of cards
    refused `10H` ("expected a card"), though the builder already read it as TH. Written twice
    (TS and 10S) it is one card named twice."""
    from bidcompiler.pipeline import compile_variant

    rule = _write(tmp_path, "tens.whist", "house-rule tens\ndeck { without 10H 10D }\ndeal { kitty 4 }\n"
                                          "play { trumps_above BJ LJ 10S }\n")
    variant = compile_variant("standard", (rule,))
    assert (variant.deck.without, variant.play.trumps_above) == (("TH", "TD"), ("BJ", "LJ", "TS"))
    twice = _write(tmp_path, "twice.whist", "house-rule twice\ndeck { without TS 10S }\ndeal { kitty 5 }\n")
    result = run("rules", "standard", "--with", twice)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (f"{twice}:2:16: deck.without names TS 2 times (10 and T are the same "
                                             "rank)")


def test_the_readmes_rule_without_jokers_is_the_shipped_no_jokers(tmp_path):
    """The README's example of a rule that takes cards away (and the base's settings about them)
    compiles, over standard, to the shipped `no-jokers`."""
    import re

    from bidcompiler.pipeline import compile_variant

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    (text,) = [b for b in re.findall(r"```yaml\n(.*?)```", readme, re.S) if "name: our-52" in b]
    rule = _write(tmp_path, "our-52.yaml", text)
    mine, shipped = compile_variant("standard", (rule,)), compile_variant("standard", ("no-jokers",))
    assert (mine.deck, mine.deal, mine.play) == (shipped.deck, shipped.deal, shipped.play)


def test_the_ladders_top_is_judged_by_the_variants_own_made_formula(tmp_path):
    """A three-handed game of one's own whose bids count books outright in its `made` formula
    (`books >= bid`), without `auction.levels.counts`: its bid of 18 of the 18 books can be made,
    so it is no error; the same ladder scored over six (`books >= 6 + bid`) is."""
    head = ("variant cut\nextends standard\nplayers 3\nsides individual\ndeal { hand 17; kitty 3 }\n"
            "auction { levels { from 7; to 18 } }\n")
    outright = _write(tmp_path, "cut.whist", head + "scoring { made = books >= bid; declarer = if made then books "
                                                   "else -bid }\n")
    assert run("rules", outright).exit_code == 0
    over_six = _write(tmp_path, "cut2.whist", head)
    result = run("rules", over_six)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{over_six}:6:31: levels: to 18 (a bid of 24 books) is more than the 18 books of a hand",
        "    to fix: set auction.levels.to to at most 12"]


def test_a_name_or_card_in_the_wrong_case_is_told_the_right_spelling(tmp_path):
    """Was: "'our friday rule' does not match the pattern ^[a-z0-9][a-z0-9-]*$" (a regular
    expression, no example), and "expected a card ..., found 'bj'" with no suggestion."""
    rule = _write(tmp_path, "n.yaml", "name: our friday rule\nkind: house-rule\nplay:\n  trumps_above: [bj, LJ]\n")
    result = run("check", rule)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:2] == [
        f"{rule}:1:7: expected a name (lower case letters, digits and -, e.g. our-rule), found 'our friday rule' "
        "(did you mean 'our-friday-rule'?)",
        f"{rule}:4:18: expected a card (rank then suit, e.g. AS, or a name such as BJ), found 'bj' "
        "(did you mean 'BJ'?)"]


def test_check_of_a_house_rule_alone_says_it_was_not_laid_over_a_game():
    # notrump-from-4 fits no bare-number game; checked alone a bare "ok" read as "it fits".
    alone = run("check", "notrump-from-4")
    assert alone.exit_code == 0
    assert alone.stdout == ("notrump-from-4: ok on its own; not laid over any game "
                            "(--on VARIANT checks that it fits one)\n")
    assert run("check", "notrump-from-4", "--on", "standard").stdout == "notrump-from-4: ok (over standard)\n"
    assert run("check", "notrump-from-4", "--on", "oregon").exit_code == 1


_DOUBLES = "if made then base else 2 * base"


@pytest.mark.parametrize("name, text", [
    ("bom.whist", f"\ufeffhouse-rule doubles\nscoring {{ declarer = {_DOUBLES} }}\n"),
    ("tab.whist", f"house-rule\tdoubles\nscoring {{ declarer = {_DOUBLES} }}\n"),
    ("crlf.whist", f"house-rule doubles\r\nscoring {{ declarer = {_DOUBLES} }}\r\n"),
    ("bom.yaml", f"\ufeffkind: house-rule\nname: doubles\nscoring:\n  declarer: {_DOUBLES}\n"),
    ("quoted.yaml", f"kind: 'house-rule'  # ours\r\nname: doubles\r\nscoring:\r\n  declarer: {_DOUBLES}\r\n"),
    ("flow.yaml", f"{{kind: house-rule, name: doubles, scoring: {{declarer: {_DOUBLES}}}}}\n"),
])
def test_check_knows_a_house_rule_however_its_kind_line_is_written(tmp_path, name, text):
    # Was: a byte order mark, a tab after `house-rule`, a quoted kind or a flow mapping had
    # check take the file for a variant, and refuse it: "'doubles' is a house rule, not a variant".
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    result = run("check", str(path), "--on", "standard")
    assert (result.exit_code, result.stdout) == (0, f"{path}: ok (over standard)\n"), result.stderr


# ----------------------------------------------------------------- a block's settings not indented
def test_settings_not_indented_under_their_empty_block_get_one_message(tmp_path):
    """`auction:` and then `levels: …` at the left margin: one message at `levels` saying to indent it.

    Was two: `auction` "expected a mapping, found nothing" and `levels` "unknown key here"
    (and where the block may be empty, `play:` then `first_lead:`, only the second).
    """
    rule = _write(tmp_path, "flat.yaml", "name: flat\nkind: house-rule\ndescription: x\nauction:\n"
                                         "levels: {from: 4}\nrounds: until-passed\n")
    result = run("check", rule, "--on", "standard")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:-1] == [
        f"{rule}:5:1: 'levels' and 'rounds' are settings of 'auction' (line 4), which is empty: indent them "
        "under 'auction' (with spaces)"]
    rule = _write(tmp_path, "flat-play.yaml", "name: flat\nkind: house-rule\ndescription: x\nplay:\n"
                                              "first_lead: partner\n")
    result = run("check", rule)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (f"{rule}:5:1: 'first_lead' is a setting of 'play' (line 4), which is "
                                             "empty: indent it under 'play' (with spaces)")
    # A name of one's own under a block of named conditions: was "found nothing" and "unknown key".
    rule = _write(tmp_path, "flat-lose.yaml", "name: flat\nkind: house-rule\ndescription: x\ngame:\n  lose:\n"
                                              "  set-on-seven: last_bid == 7\n")
    result = run("check", rule)
    assert result.stderr.splitlines()[:-1] == [f"{rule}:6:3: 'set-on-seven' is a setting of 'lose' (line 5), "
                                               "which is empty: indent it under 'lose' (with spaces)"]


# ----------------------------------------------------------------- one message for a deck without jokers
def test_promoted_trumps_missing_from_the_deck_are_one_message(tmp_path):
    """`trumps_above: [BJ, LJ, 2D, 2S]` (the deuces below the jokers) over a 52-card game.

    Was one message for BJ and another for LJ, at the same place with the same fixes.
    """
    rule = _write(tmp_path, "big-deuces.yaml", "name: big-deuces\nkind: house-rule\ndescription: x\n"
                                               "play:\n  trumps_above: [BJ, LJ, 2D, 2S]\n")
    assert run("check", rule, "--on", "standard").exit_code == 0
    result = run("rules", "northeast52", "--with", rule)
    assert result.exit_code == 1
    assert [line for line in result.stderr.splitlines() if not line.startswith(" ")] == [
        f"{rule}:5:17: trumps_above names BJ, LJ, which are not in the deck"]
    assert "take BJ, LJ out of play.trumps_above" in result.stderr


# ----------------------------------------------------------------- compile's summary shows the rule
def test_compiles_summary_names_the_house_rules_and_a_strains_own_levels():
    """`compile standard+notrump-from-4`: was the summary of standard itself, word for word (the title
    line named no house rule, the bids line had no notrump from 4), so an author saw no sign of the rule."""
    result = run("compile", "standard+notrump-from-4")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "standard + notrump-from-4 — Bid Whist (54 cards)"
    assert lines[4].startswith("  bids      3-7 (notrump 4-7), at one number: ")
    assert run("compile", "standard").stdout.splitlines()[0] == "standard — Bid Whist (54 cards)"


def test_compiles_summary_names_the_settings_given_with_set():
    """`compile standard --set auction.levels.from=4`: the heading said only "standard" above a
    ladder of 4-7, so nothing showed where the 4 came from."""
    lines = run("compile", "standard", "--set", "auction.levels.from=4").stdout.splitlines()
    assert lines[0] == "standard --set auction.levels.from=4 — Bid Whist (54 cards)"
    assert lines[4].startswith("  bids      4-7, ")


def test_the_rulebook_names_the_settings_given_with_set_beside_the_house_rules():
    """`rules standard+min-bid-4 --set game.target=9`: the rulebook named the house rule, not the
    --set whose target its game section states."""
    book = run("rules", "standard+min-bid-4", "--set", "game.target=9").stdout.splitlines()
    assert "- House rules: `min-bid-4`." in book
    assert "- Changed with `--set`: `game.target=9`." in book
    assert not [line for line in run("rules", "standard").stdout.splitlines() if "--set" in line]


# ----------------------------------------------------------------- the tutorial's table of real-table rules
def _tutorial_rows() -> list[tuple[str, str]]:
    text = (Path(__file__).resolve().parents[1] / "docs" / "tutorial.md").read_text(encoding="utf-8")
    table = text.split("## 6. More rules from real tables", 1)[1].split("\n## ", 1)[0]
    import re

    return re.findall(r"^\| ([^|`]+?) \| `([^`]+)` \|$", table, re.M)


def test_the_tutorials_real_table_rules_are_there():
    assert len(_tutorial_rows()) >= 20


def test_each_real_table_rule_of_the_tutorial_compiles_over_standard_and_changes_it(tmp_path):
    """docs/tutorial.md §6: each line, written as a house rule the way the table shows, is accepted over
    standard and changes something `diff` names (a line that compiled to standard would be a rule that
    does nothing)."""
    for i, (said, line) in enumerate(_tutorial_rows()):
        rule = _write(tmp_path, f"r{i}.yaml", f"name: r{i}\nkind: house-rule\ndescription: {json.dumps(said)}\n{line}\n")
        result = run("diff", "standard", f"standard+{rule}")
        assert result.exit_code == 0, (line, result.stderr)
        assert result.stdout.strip() and result.stdout != "No rule differences\n", line


# 3 notrump: side 1 takes all 13 books (tests/data/nt-sweep-by-side-1.json, standard scores it 14),
# and side 1 set with 7 books (nt-set-of-side-1.json, -6); hands of `simulate standard --seed 5`.
REAL_TABLE_SCORES = [
    # (the tutorial's rule, score of the sweep, score of the set), [side 0, side 1]
    ("scoring: {multiplier: if notrump then 3 else 1}", [0, 21], [0, -9]),
    ("scoring: {multiplier: if notrump and made then 2 else 1}", [0, 14], [0, -3]),
    ("scoring: {declarer: if made then bid else base}", [0, 6], [0, -6]),
    ("scoring: {declarer: if made then base else books - 6 - bid}", [0, 14], [0, -4]),
    ("scoring: {defender: {set-bonus: if made then 0 else bid}}", [0, 14], [6, -6]),
    ("scoring: {declarer: if sweep then 7 else base}", [0, 14], [0, -6]),
]


def test_real_table_scoring_rules_replay_a_sweep_and_a_set_as_the_rule_says(tmp_path):
    data = Path(__file__).parent / "data"
    rows = {line for _, line in _tutorial_rows()}
    for i, (line, sweep, set_) in enumerate(REAL_TABLE_SCORES):
        assert line in rows, line  # the tutorial's own line
        _write(tmp_path, f"r{i}.yaml", f"name: r{i}\nkind: house-rule\ndescription: x\n{line}\n")
        for name, score in (("nt-sweep-by-side-1.json", sweep), ("nt-set-of-side-1.json", set_)):
            record = json.loads((data / name).read_text())
            record["with"] = [f"r{i}.yaml"]
            path = _write(tmp_path, f"{i}-{name}", json.dumps(record))
            result = run("replay", path, "--json")
            assert result.exit_code == 0, result.stderr
            assert json.loads(result.stdout)["score"] == score, (line, name)


# ----------------------------------------------------------------- a rule that gives no setting
def test_a_house_rule_that_gives_no_setting_is_refused(tmp_path):
    """Only `name`, `kind` and a description: was "ok", a rule that changes nothing (a file cut
    short, its block forgotten). Now one message at `kind` (the `house-rule` line in .whist)."""
    rule = _write(tmp_path, "empty.yaml", "name: empty\nkind: house-rule\ndescription: a set costs double\n")
    result = run("check", rule)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == f"{rule}:2:1: this house rule changes nothing: it gives no setting"
    rule = _write(tmp_path, "empty.whist", 'house-rule empty\ndescription "a set costs double"\n')
    result = run("rules", "standard", "--with", rule)
    assert result.exit_code == 1
    assert "`scoring { multiplier = if notrump then 3 else 1 }`" in result.stderr
    # Blocks left empty give no setting either (was "ok").
    rule = _write(tmp_path, "blocks.whist", "house-rule blocks\ngame { }\nscoring { }\n")
    result = run("check", rule)
    assert result.stderr.splitlines()[0] == f"{rule}:1:1: this house rule changes nothing: it gives no setting"
    # Nor do blocks holding only empty blocks (was "ok": the README says "only empty blocks").
    for name, text in (("nested.whist", "house-rule nested\nauction { levels { } }\n"),
                       ("nested.yaml", "name: nested\nkind: house-rule\nauction: {levels: {}}\nplay: {roles: {}}\n")):
        rule = _write(tmp_path, name, text)
        result = run("check", rule, "--on", "standard")
        assert result.exit_code == 1
        line = 2 if name.endswith(".yaml") else 1
        assert result.stderr.splitlines()[0] == f"{rule}:{line}:1: this house rule changes nothing: it gives no setting"
    # An empty block beside a setting is no error: the setting changes the game.
    rule = _write(tmp_path, "beside.whist", "house-rule beside\nauction { levels { } }\ngame { target 9 }\n")
    assert run("check", rule, "--on", "standard").exit_code == 0


# ----------------------------------------------------------------- places named in a message
def test_a_message_names_only_the_settings_a_file_wrote_not_defaults_inside_its_blocks():
    """`two-handed+no-kitty`: the deal's count named "deck.without at shipped 'standard', line 17"
    (standard's `deck` block, which does not say `without`: its default applies) and likewise
    "deal.undealt at shipped 'standard', line 22" over a game that gives no undealt cards."""
    result = run("compile", "two-handed+no-kitty")
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith("shipped 'no-kitty', line 10: the deal uses 50 cards")
    assert "deal.undealt at shipped 'two-handed', line 18" in first  # written there: named
    assert "deck.ranks at shipped 'standard', line 18" in first
    assert "deck.without" not in first
    result = run("compile", "oregon+jokers-and-deuce")
    assert result.exit_code == 1
    assert "deal.undealt" not in result.stderr and "deck.without" not in result.stderr
    assert "deal.hand at shipped 'oregon', line 13" in result.stderr


def test_a_tie_break_after_the_one_that_always_decides_is_refused(tmp_path):
    """docs/settings.md: first-from-dealers-left "always decides last". Written before another
    (`tie first-from-dealers-left higher`), the other was dropped without a word: a setting that
    can never take effect. Now refused at game.tie (exit 1); written last it is accepted."""
    rule = _write(tmp_path, "tie.whist", "house-rule tie\ngame { tie first-from-dealers-left higher }\n")
    result = run("check", rule, "--on", "standard")
    assert result.exit_code == 1
    first, fix = result.stderr.splitlines()[:2]
    assert first == (f"{rule}:2:12: game.tie: higher after first-from-dealers-left has no effect: "
                     "first-from-dealers-left always decides, so no tie-break after it is reached")
    assert fix.strip() == ("to fix: put first-from-dealers-left last, or leave it out (it decides after the "
                           "others anyway)")
    rule = _write(tmp_path, "tie.yaml", "name: tie\nkind: house-rule\ngame: {tie: [higher, first-from-dealers-left]}\n")
    assert run("check", rule, "--on", "standard").exit_code == 0

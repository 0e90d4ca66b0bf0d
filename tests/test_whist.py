"""The .whist syntax: parsing, errors in words, and round trips with YAML to the same IR."""

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidcompiler.cli import cli
from bidcompiler.convert import schema_shape, to_whist, to_yaml
from bidcompiler.errors import CompileError
from bidcompiler.irjson import to_data
from bidcompiler.pipeline import (
    compile_file, compile_text, compile_variant, load_layer, load_layer_text, shipped_house_rules, shipped_variants,
    variant_schema,
)

ROOT = Path(__file__).resolve().parents[1]
SHAPE = schema_shape(variant_schema())
ALL_FILES = {**shipped_variants(), **shipped_house_rules()}


def whist_errors(text: str) -> list:
    with pytest.raises(CompileError) as info:
        compile_text(text, "t.whist")
    return list(info.value.diagnostics)


# ----------------------------------------------------------------- round trips
@pytest.mark.parametrize("name", sorted(shipped_variants()))
def test_every_shipped_variant_compiles_to_the_same_ir_in_both_syntaxes(name, tmp_path):
    data = load_layer(shipped_variants()[name]).data
    original = to_data(compile_variant(name))
    for suffix, text in (("whist", to_whist(data, SHAPE)), ("yaml", to_yaml(data))):
        path = tmp_path / f"{name}.{suffix}"
        path.write_text(text, encoding="utf-8")
        assert to_data(compile_file(path)) == original


@pytest.mark.parametrize("name", sorted(shipped_house_rules()))
def test_every_house_rule_compiles_to_the_same_ir_in_both_syntaxes(name, tmp_path):
    data = load_layer(shipped_house_rules()[name]).data
    original = to_data(compile_variant("standard", (name,)))
    for suffix, text in (("whist", to_whist(data, SHAPE)), ("yaml", to_yaml(data))):
        path = tmp_path / f"{name}.{suffix}"
        path.write_text(text, encoding="utf-8")
        converted = to_data(compile_variant("standard", (str(path),)))
        assert {k: v for k, v in converted.items() if k != "house_rules"} == \
               {k: v for k, v in original.items() if k != "house_rules"}


@pytest.mark.parametrize("name", sorted(ALL_FILES))
def test_conversion_is_canonical_and_stable(name, tmp_path):
    data = load_layer(ALL_FILES[name]).data
    whist, yaml_text = to_whist(data, SHAPE), to_yaml(data)
    (tmp_path / "a.whist").write_text(whist, encoding="utf-8")
    (tmp_path / "a.yaml").write_text(yaml_text, encoding="utf-8")
    again_whist = load_layer(tmp_path / "a.whist").data
    again_yaml = load_layer(tmp_path / "a.yaml").data
    # whist -> whist and yaml -> yaml print the same text; across syntaxes too
    assert to_whist(again_whist, SHAPE) == whist
    assert to_yaml(again_yaml) == yaml_text
    assert to_yaml(again_whist) == yaml_text
    assert to_whist(again_yaml, SHAPE) == whist


def test_convert_command_writes_to_stdout_and_to_a_file(tmp_path):
    runner = CliRunner()
    out = runner.invoke(cli, ["convert", str(ALL_FILES["standard"]), "--to", "whist"])
    assert out.exit_code == 0 and out.stdout.startswith("# Bid Whist as pagat.com's Bid Whist page plays it")
    assert "\nvariant standard\n" in out.stdout  # after the header comments
    target = tmp_path / "s.whist"
    done = runner.invoke(cli, ["convert", str(ALL_FILES["standard"]), "--to", "whist", "-o", str(target)])
    assert done.exit_code == 0 and done.stdout == ""
    assert target.read_text(encoding="utf-8") == out.stdout
    back = runner.invoke(cli, ["convert", str(target), "--to", "yaml"])
    assert back.exit_code == 0 and back.stdout.startswith("# yaml-language-server: $schema=")


def test_convert_refuses_a_broken_file(tmp_path):
    bad = tmp_path / "bad.whist"
    bad.write_text("variant x\ndeck {\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["convert", str(bad), "--to", "yaml"])
    assert result.exit_code == 1
    assert "missing `}` after the deck block" in result.stderr


@pytest.mark.parametrize("example, variant", [("hawaii.whist", "hawaii"), ("northeast52.whist", "northeast52")])
def test_examples_are_the_seed_variants(example, variant):
    mine = to_data(compile_file(ROOT / "examples" / example))
    shipped = to_data(compile_variant(variant))
    assert {k: v for k, v in mine.items() if k not in ("name", "title")} == \
           {k: v for k, v in shipped.items() if k not in ("name", "title")}


# ----------------------------------------------------------------- the syntax
def test_blocks_lists_ladders_formulas_and_removal():
    text = (ALL_FILES["standard"].read_text(encoding="utf-8"))
    base = to_whist(load_layer(ALL_FILES["standard"]).data, SHAPE)
    assert "ranking uptown = downtown < notrump" in base
    v = compile_text(base, "s.whist")
    assert v.auction.ranking == (("uptown", "downtown"), ("notrump",))
    assert v.deck.ranks[8] == "T" and v.deck.extra == ("BJ", "LJ")
    assert v.scoring.declarer.text == "if made then over else -bid"
    assert "extra" in text  # the YAML says the same


def test_one_value_where_a_list_is_wanted_is_a_list_of_one(tmp_path):
    rule = tmp_path / "r.whist"
    rule.write_text("house-rule r\nplay { trumps_above BJ }\n", encoding="utf-8")
    v = compile_variant("standard", (str(rule),))
    assert v.play.trumps_above == ("BJ",)


@pytest.mark.parametrize("word, hint", [("first-from-dealers-left", True), ("foo", False)])
def test_a_tie_break_that_only_the_list_takes_is_told_the_list_of_one(tmp_path, word, hint):
    """`game { tie first-from-dealers-left }` and its YAML: that word is an item of the list form
    only; told how a list of one is written, in both syntaxes.  A word no item is (foo) is not."""
    said = "expected a list or declarer or higher, found " + repr(word)
    said += f" (a list of one is written [{word}])" if hint else ""
    diags = whist_errors(f"variant t\nextends standard\ngame {{ tie {word} }}\n")
    assert [d.message for d in diags] == [said]
    path = tmp_path / "t.yaml"
    path.write_text(f"name: t\nextends: standard\ngame: {{tie: {word}}}\n", encoding="utf-8")
    with pytest.raises(CompileError) as info:
        compile_file(path)
    assert [d.message for d in info.value.diagnostics] == [said]


def test_comments_semicolons_and_continued_lines(tmp_path):
    rule = tmp_path / "r.whist"
    rule.write_text("# a comment\nhouse-rule r   # trailing\n"
                    "game { win = score >= 5 \\\n   or swept; lose = score <= -5 }\n", encoding="utf-8")
    v = compile_variant("standard", (str(rule),))
    assert v.game.win.text == "score >= 5 or swept"
    assert v.game.lose.text == "score <= -5"


def test_quoted_text_keeps_unicode_and_escapes(tmp_path):
    rule = tmp_path / "r.whist"
    rule.write_text('house-rule r\ndescription "Läuft \\"gut\\" — ok"\ngame { target 9 }\n', encoding="utf-8")
    assert load_layer(rule).data["description"] == 'Läuft "gut" — ok'


# ----------------------------------------------------------------- errors in words
def test_missing_closing_brace_names_the_block():
    [d] = whist_errors("variant x\nauction {\n  levels { from 3; to 7 }\n")
    assert str(d.pos) == "t.whist:3:26"
    assert d.message == "missing `}` after the auction block (opened at line 2)"
    assert d.source_line == "  levels { from 3; to 7 }"
    assert str(d).endswith("^")


def test_wrong_suit_is_named_in_words():
    messages = [d.message for d in whist_errors("variant x\ndeck {\n  suits S H X C\n}\n")]
    assert "expected a suit (S, H, D or C), found 'X'" in messages


def test_unexpected_token_says_what_was_expected():
    [d] = whist_errors("variant x\ndeck {\n  suits S H = C\n}\n")
    assert d.pos.line == 3 and d.pos.col == 13
    assert d.message.startswith("expected a value") and d.message.endswith("found `=`")


def test_a_plain_value_written_as_a_formula_says_the_equals_sign_made_it_one():
    """`from = 4` is read as the formula "4": the error does not say "found '4'" of an integer."""
    [d] = whist_errors("variant x\nextends standard\nauction { levels { from = 4 } }\n")
    assert (d.pos.line, d.pos.col) == (3, 27)
    assert d.message == "expected an integer, found the formula `4` (`=` starts a formula; write `from 4`)"


def test_a_formula_written_without_its_equals_sign_is_told_to_add_it():
    """`multiplier if notrump then 3 else 1`: the words of a formula, read as a list of values
    (or stopped at an operator or `(`), are shown with the `=` they lack."""
    [d] = whist_errors("house-rule x\nscoring { multiplier if notrump then 3 else 1 }\n")
    assert (d.pos.line, d.pos.col) == (2, 22)
    assert d.message == "`multiplier` takes a formula, which follows `=`: write `multiplier = if notrump then 3 else 1`"
    [d] = whist_errors("house-rule x\nscoring { declarer if made then base else 2 * base }\n")
    assert d.message.endswith("found `*` (a formula follows `=`: `declarer = if made then base else 2 * base`)")
    # A named term or condition (any key of the block) takes a formula too.
    [d] = whist_errors("house-rule x\ngame { lose { set-on-seven last_bid == 7 } }\n")
    assert d.message.endswith("(a formula follows `=`: `set-on-seven = last_bid == 7`)")
    [d] = whist_errors("house-rule x\nscoring { defender { over-six max(0, own_books - 6) } }\n")
    assert d.message.endswith("(a formula follows `=`: `over-six = max(0, own_books - 6)`)")
    # Not where no formula is taken: a ladder's mistake is only a syntax error.
    [d] = whist_errors("house-rule x\nauction { ranking uptown = downtown < < notrump }\n")
    assert "formula" not in d.message


def test_the_words_of_one_name_written_apart_in_a_list_are_one_message():
    """`must_bid first caller`: was two messages, 'first' and 'caller', the first with no suggestion."""
    [d] = whist_errors("house-rule x\nauction { must_bid first caller }\n")
    assert d.message.endswith("found 'first' (did you mean 'first-caller'? the words of one name are joined by -)")
    [d] = whist_errors("house-rule x\nauction { must_bid left of dealer }\n")
    assert d.message.endswith("(did you mean 'left-of-dealer'? the words of one name are joined by -)")


def test_commas_outside_brackets_are_told_how_a_list_is_written():
    """Was only "expected a value, the end of the setting, `<`, `=` or …, found `,`"."""
    [d] = whist_errors("house-rule x\nplay { trumps_above BJ, LJ }\n")
    assert (d.pos.line, d.pos.col) == (2, 23)
    assert d.message.endswith("found `,` (a list is written `BJ LJ`, or `[BJ, LJ]` with the commas inside brackets)")


def test_an_error_after_a_formula_on_its_line_is_the_files_not_the_formulas():
    """`game { lose = sets >= 3 } }`: the second `}` closes no block (was "unknown character `}`"
    at the first, the formula read on to the error's place)."""
    [d] = whist_errors("house-rule x\ngame { lose = sets >= 3 } }\n")
    assert (d.pos.line, d.pos.col, d.message) == (2, 27, "unexpected `}`: no block is open here")
    # Inside the formula, still the formula's own message.
    [d] = whist_errors("house-rule x\ngame { lose = sets >= 3 >= 2 }\n")
    assert d.message.startswith("comparisons cannot be chained")


def test_a_removal_among_named_conditions_is_not_told_a_formula_follows_an_equals_sign():
    """`lose { remove target sweep }`: `remove` takes one name (was told to write `remove = target sweep`)."""
    [d] = whist_errors("house-rule x\ngame { lose { remove target sweep } }\n")
    assert d.message == "expected the end of the setting or `}`, found `sweep`"


def test_a_comma_after_a_block_is_not_told_how_a_list_is_written():
    """The list hint belongs after a setting's value only: `deal { kitty 6 } ,` has no list to
    write (was told 'a list is written `BJ LJ`')."""
    [d] = whist_errors("house-rule x\ndeal { kitty 6 } ,\n")
    # No block is open there, so `}` is not offered (it was, from lark's `expected`).
    assert d.message == "expected the end of the setting or the end of the file, found `,`"


def test_a_line_that_starts_with_no_setting_name_is_not_told_how_a_file_starts():
    """`"deal" { hand 3 }` or a stray `=` on a line of its own, after the first line: was told "a .whist
    file starts with `house-rule NAME` ..., found ``"deal"``" (doubled backticks), of a file that did."""
    [d] = whist_errors('house-rule x\n"deal" { hand 3 }\n')
    assert (d.pos.line, d.pos.col) == (2, 1)
    assert d.message == 'expected the end of the setting, the end of the file, a setting name or `remove`, found `"deal"`'
    [d] = whist_errors("house-rule x\ndeal {\n  = 3 }\n")
    assert (d.pos.line, d.pos.col) == (3, 3)
    assert d.message == "expected the end of the setting, a setting name, `}` or `remove`, found `=`"
    # The first line itself still gets the first line's message, its word quoted once.
    [d] = whist_errors('"x"\ndeal { kitty 4 }\n')
    assert d.message == 'a .whist file starts with `house-rule NAME` or `variant NAME`, found `"x"`'


def test_a_quoted_number_or_several_words_where_one_value_belongs_are_named():
    [d] = whist_errors('house-rule x\ngame { target "7" }\n')
    assert d.message == "expected an integer, found the text '7' (the quotes make it text: write 7 without them)"
    [d] = whist_errors("house-rule x\nplay { first_lead left of declarer }\n")
    assert d.message.endswith("found the list [left, of, declarer] (did you mean 'left-of-declarer'?)")


def test_formula_errors_point_inside_the_line():
    [d] = whist_errors("variant x\nextends standard\nscoring {\n  made = books >= \n}\n")
    # Just after `>=`, as in YAML (the formula's own message: the file's parser said "found the end
    # of the line" one column further on).
    assert (d.pos.line, d.pos.col) == (4, 18)
    assert d.message == "unexpected end of expression, expected a number, a name or `(`"


def test_unknown_name_in_a_formula_is_positioned_like_yaml():
    [d] = whist_errors("variant x\nextends standard\nscoring {\n  made = bokks >= 6 + bid\n}\n")
    assert (d.pos.line, d.pos.col) == (4, 10)
    assert "bokks" in d.message and "books" in d.message


def test_stray_closing_brace_and_bad_characters():
    [d] = whist_errors("variant x\n}\n")
    assert d.message == "unexpected `}`: no block is open here"
    [d] = whist_errors("variant x\ntitle 'single'\n")
    assert "unexpected character `'`" in d.message and "double quotes" in d.message


def test_duplicate_settings_name_both_lines():
    [d] = whist_errors("variant x\nextends standard\ndeal { kitty 6 }\ndeal { kitty 6 }\n")
    assert d.pos.line == 4 and "duplicate key 'deal' (first at line 3)" in d.message


# ----------------------------------------------------------------- generated variants
LEVELS = st.tuples(st.integers(1, 4), st.integers(4, 7))
FORMULAS = st.sampled_from([
    "if made then over else -bid", "if made then books else 0", "max(0, over) * 2 - bid",
    "if sweep then 2 * (if made then over else -bid) else (if made then over else -bid)",
    "(if made then 1 else 0) + abs(defender_over) / 2",
])
CONDITIONS = st.sampled_from(["score >= 7", "score >= 5 or swept", "score - opponent_score >= 11",
                              "sets >= 3 or score <= -9", "false", "hands >= 20 and score > opponent_score"])


@st.composite
def generated_variant(draw):
    """Variant data built from the standard game with random, valid choices."""
    data = load_layer(ALL_FILES["standard"]).data
    data = {k: v for k, v in data.items()}
    lo, hi = draw(LEVELS)
    kitty = draw(st.sampled_from([2, 6, 10]))
    data["deal"] = {"hand": (54 - kitty) // 4, "kitty": kitty}
    groups = draw(st.sampled_from([[["uptown", "downtown"], ["notrump"]], [["uptown"], ["downtown"], ["notrump"]],
                                   [["uptown", "downtown", "notrump"]], [["notrump"], ["downtown", "uptown"]]]))
    data["auction"] = dict(data["auction"], levels={"from": lo, "to": hi}, ranking=groups,
                           if_all_pass=draw(st.sampled_from(["dealer-must-bid", "redeal", "dealer-bids-lowest"])))
    data["scoring"] = {"made": "books >= 6 + bid", "declarer": draw(FORMULAS),
                       "defender": draw(st.sampled_from(["0", "max(0, own_books - 6)", "own_books"])),
                       "multiplier": draw(st.sampled_from(["1", "if notrump then 2 else 1", "3"]))}
    data["game"] = {"win": draw(CONDITIONS), "lose": draw(CONDITIONS), "tie": draw(st.sampled_from(["declarer", "higher"]))}
    data["play"] = dict(data["play"], first_lead=draw(st.sampled_from(["declarer", "eldest"])),
                        notrump_extras=draw(st.sampled_from(["no-suit", "free", "out"])))
    data["kitty"] = {"discards": draw(st.sampled_from(["declarer-book", "first-trick"])),
                     "show": draw(st.sampled_from(["never", "auction", "suit-contracts"]))}
    data["title"] = draw(st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=20))
    return data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=generated_variant())
def test_generated_variants_compile_to_the_same_ir_in_both_syntaxes(tmp_path, data):
    yaml_path, whist_path = tmp_path / "g.yaml", tmp_path / "g.whist"
    yaml_path.write_text(to_yaml(data), encoding="utf-8")
    whist_path.write_text(to_whist(data, SHAPE), encoding="utf-8")
    try:
        from_yaml = to_data(compile_file(yaml_path))
    except CompileError as exc:  # the same problems must be found in the other syntax
        with pytest.raises(CompileError) as other:
            compile_file(whist_path)
        assert [d.message for d in other.value.diagnostics] == [d.message for d in exc.diagnostics]
        return
    assert to_data(compile_file(whist_path)) == from_yaml


def test_a_continued_formula_converts_with_single_blanks():
    text = "house-rule r\ngame {\n  win = score >= 5 \\\n        or swept\n}\n"
    layer = load_layer_text(text, "r.whist")
    assert "  win: score >= 5 or swept\n" in to_yaml(layer.data)
    assert "win = score >= 5 or swept" in to_whist(layer.data, SHAPE)


def test_a_formula_s_syntax_error_gets_the_formula_language_s_own_message():
    """In .whist the file's parser named what the file could hold next ("expected the end of the
    setting, `and`, a comparison, `else` or …, found `=`"); the message is now the one a YAML file
    gets for the same formula, at the same place in it."""
    [d] = whist_errors("house-rule x\nscoring { declarer = if made = true then base else 0 }\n")
    assert (d.pos.line, d.pos.col) == (2, 30)
    assert d.message == "unknown character `=`; to compare, write `==`"
    [d] = whist_errors("house-rule x\nscoring { declarer = 3 < bid < 5 }\n")
    assert d.message.startswith("comparisons cannot be chained")
    [d] = whist_errors("house-rule x\nscoring { declarer = if made then base else 2 * base else 0 }\n")
    assert (d.pos.col, d.message) == (54, "`else` without an `if` of its own: write `if CONDITION then A else B`")


@pytest.mark.parametrize("line, message", [
    ("extends ../base.whist", "unexpected character `.` (text with spaces or symbols goes in double quotes: "
                              "`extends \"../base.whist\"`)"),
    ("source www.pagat.com/x  # where", "expected a value, the end of the setting, the end of the file, `<` or …, "
                                        "found `/` (text with spaces or symbols goes in double quotes: "
                                        "`source \"www.pagat.com/x\"`)"),
    ("title My game: the best", "unexpected character `:` (text with spaces or symbols goes in double quotes: "
                                "`title \"My game: the best\"`)"),
    ("play { notrump_extras ~ }", "unexpected character `~` (the .whist syntax takes a setting away with "
                                  "`remove notrump_extras`; `~` is YAML's)"),
    # In a list, the item goes in quotes (the hint was `aliases "[nt, n/t]"`, one alias of that name).
    ("auction { strains { nt { aliases [nt, n/t] } } }",
     "expected `,` or `]`, found `/` (text with spaces or symbols goes in double quotes: `aliases [nt, \"n/t\"]`)"),
])
def test_a_value_that_needs_quotes_or_a_removal_is_told_how_to_write_it(line, message):
    """A path (`extends ../base.whist`: docs/settings.md, "a path relative to this file"), an address
    or a sentence with a colon written bare, or YAML's `~`: was "unexpected character `.`" and no more
    (the `:` was told "the .whist syntax writes no `:` after a key", which it did not follow)."""
    [d] = whist_errors(f"variant mine\n{line}\n")
    assert d.message == message


@pytest.mark.parametrize("text", ["house-rule mine\ntitle x [", "house-rule mine\ndeck { extra [BJ"])
def test_a_file_that_ends_inside_a_setting_s_list_gets_a_message(text):
    """A file cut short in a list, with no line end after it: the hint for a value that needs quotes
    looked at the character after the file's end (IndexError, "internal error", exit 70)."""
    [d] = whist_errors(text)
    assert (d.pos.line, d.pos.col) == (2, len(text.splitlines()[1]) + 1)
    assert d.message.startswith("expected ") and "double quotes" not in d.message


def test_a_colon_right_after_a_key_is_still_told_the_whist_form():
    [d] = whist_errors("variant mine\ngame { target: 9 }\n")
    assert d.message.endswith("(the .whist syntax writes no `:` after a key: a setting is `key value`, a block "
                              "`key { … }`, as docs/whist-syntax.md shows)")


@pytest.mark.parametrize("first, col, found, example", [
    ('house-rule "Our Rule"', 12, '`"Our Rule"`', "house-rule our-rule"),
    ("house-rule Our Rule", 16, "`Our Rule`", "house-rule our-rule"),
    ("variant my game  # ours", 12, "`my game`", "variant my-game"),
    ("house-rule", 11, "nothing", "house-rule our-rule"),
    ("variant", 8, "nothing", "variant our-game"),  # was `variant our-rule`: a variant is no rule
])
def test_a_first_line_without_one_bare_name_is_told_what_the_first_line_is(first, col, found, example):
    """Was "expected a value, found `"Our Rule"`" or "expected the end of the setting or the end of the
    file, found `Rule`": words for a setting, of the line that names the file."""
    [d] = whist_errors(f"{first}\ngame {{ target 9 }}\n")
    assert (d.pos.line, d.pos.col) == (1, col)
    assert d.message == (f"the first line is `{first.split()[0]} NAME`, one name of lower case letters, digits "
                         f"and - (e.g. `{example}`), found {found}")


def test_a_setting_after_the_first_line_on_the_same_line_keeps_its_own_message():
    [d] = whist_errors("house-rule ok; x\n")
    assert d.message == "expected a value, `=` or `{`, found the end of the line"


@pytest.mark.parametrize("block, key", [("kitty", "discards"), ("play", "notrump_extras")])
def test_a_settings_choices_offer_remove_key_where_yaml_offers_null(block, key):
    # A .whist file cannot write null (it writes `remove KEY`): the choices listed null all the same.
    text = f"house-rule m\n{block} {{ {key} bogus }}\n"
    [d] = whist_errors(text)
    assert d.message.startswith("'bogus' is not one of: ") and d.message.endswith(f", `remove {key}`"), d.message
    assert "null" not in d.message
    with pytest.raises(CompileError) as info:  # the same mistake in YAML keeps null, which YAML writes
        compile_text(f"kind: house-rule\nname: m\n{block}:\n  {key}: bogus\n", "t.yaml")
    [y] = info.value.diagnostics
    assert y.message.endswith(", null") and "remove" not in y.message

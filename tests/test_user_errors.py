"""Errors about the user's own file, in the user's words (issue 11).

* A house rule (or a variant of the user's, or a ``--set``) that does not fit a shipped
  base is reported at the user's file and line first, the shipped file's line second,
  with what to do (``to fix: …``), and the fix it offers works.
* Unknown variant and house-rule names get a "did you mean", in every command that
  names a variant, in ``--with``, and in a record ``replay`` reads.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clirun import run

from bidcompiler.errors import CompileError
from bidcompiler.pipeline import compile_variant, shipped_house_rules, shipped_variants
from bidcompiler import resources
from bidcompiler.resources import is_shipped

STANDARD = shipped_variants()["standard"]
# A house rule that drops the downtown strain, leaving standard's `orders.downtown` idle.
NO_DOWNTOWN = """\
name: mine
kind: house-rule
description: "uptown and notrump only"
auction:
  strains:
    - name: downtown
      remove: true
    - name: notrump
      direction: uptown
  ranking: [[uptown], [notrump]]
"""
NO_DOWNTOWN_WHIST = """\
house-rule mine
auction {
  strains {
    remove downtown
    notrump { direction uptown }
  }
  ranking [[uptown], [notrump]]
}
"""
# No kitty, no jokers: four of standard's settings go idle or name missing cards.
NO_KITTY = """\
name: nokitty
kind: house-rule
deal:
  kitty: 0
  hand: 13
deck:
  extra: ~
"""
FEWER_RANKS = """\
name: ranks
kind: house-rule
deck:
  ranks: [3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]
"""


def shipped_line(path: Path, needle: str) -> int:
    """The line of ``needle`` in a shipped file (the files may be edited: never hard-code it)."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def diagnostics(base: str, rule: Path) -> list[str]:
    with pytest.raises(CompileError) as info:
        compile_variant(base, (str(rule),))
    return [str(d) for d in info.value.diagnostics]


# --------------------------------------------------------------------------- whose file
def test_shipped_files_are_told_apart_from_the_users_in_one_place(tmp_path):
    assert is_shipped(str(STANDARD))
    assert all(is_shipped(str(p)) for p in shipped_house_rules().values())
    assert not is_shipped(str(write(tmp_path, "mine.yaml", NO_DOWNTOWN)))
    assert not is_shipped("--set deal.kitty=0")
    assert not is_shipped(str(tmp_path / "missing.yaml"))


# --------------------------------------------------------------------------- A: the user's line first
@pytest.mark.parametrize("argv", [
    ("check", "{rule}", "--on", "standard"),
    ("simulate", "standard+{rule}", "--hands", "10"),
    ("simulate", "standard", "--with", "{rule}", "--hands", "10"),
    ("compile", "standard+{rule}"),
])
def test_a_house_rule_that_breaks_its_base_leads_with_the_users_line(tmp_path, argv):
    rule = write(tmp_path, "mine.yaml", NO_DOWNTOWN)
    result = run(*[a.format(rule=rule) for a in argv])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    strains = NO_DOWNTOWN.splitlines().index("    - name: downtown") + 1  # where the list of strains begins
    assert lines[0].startswith(f"{rule}:{strains}:5: orders.downtown has no effect: no strain plays in it")
    # The shipped file's line second, on the same line.
    # By its shipped name, never by the path it is installed at.
    assert f"orders.downtown at shipped 'standard', line {shipped_line(STANDARD, 'downtown: [A, 2')})" in lines[0]
    assert str(STANDARD) not in lines[0]
    assert lines[1] == (f"    to fix: remove `downtown` from `orders` (in {rule}: `orders: {{downtown: ~}}`), "
                        "or keep a strain that plays downtown")


def test_a_clash_with_a_shipped_house_rule_names_it_by_name_and_the_users_value(tmp_path):
    """A user's rule laid after a shipped house rule: both layers named, the user's by
    file:line:column of the offending value, the shipped one by its shipped name."""
    rule = write(tmp_path, "lv.yaml", "name: lv\nkind: house-rule\ndescription: x\nauction:\n  levels: {to: 3}\n")
    result = run("rules", f"standard+notrump-from-4+{rule}")
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    nt4 = shipped_house_rules()["notrump-from-4"]
    assert first.startswith(f"{rule}:5:16: strain 'notrump' is bid from 4, above its highest level 3")
    assert f"at shipped 'notrump-from-4', line {shipped_line(nt4, 'levels: {from: 4}')})" in first
    assert str(resources.variants_dir()) not in result.stderr


@pytest.mark.parametrize("base", ["standard", "standard+notrump-from-4"])
def test_a_strains_levels_are_blamed_at_the_offending_value_over_any_base(tmp_path, base):
    """The column of the value (``9``), not of the ``{`` of its section, whether the user's
    file writes the strain's levels whole or over a shipped rule that wrote them first."""
    rule = write(tmp_path, "nt.yaml", "name: nt\nkind: house-rule\ndescription: x\nauction:\n  strains:\n"
                                      "    - name: notrump\n      levels: {from: 9}\n")
    result = run("check", str(rule), "--on", base)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{rule}:7:22: strain 'notrump' is bid from 9, above its highest level 7")


@pytest.mark.parametrize("layers", ["rule over the shipped rule", "shipped rule over the variant"])
def test_a_strains_levels_clash_names_where_each_end_was_set(tmp_path, layers):
    """`levels: {to: 2}` for notrump with notrump-from-4: the message named only the `to` (or, with
    the shipped rule laid last, only its `from`); now the place of the other end too."""
    nt4 = shipped_house_rules()["notrump-from-4"]
    shipped = f"auction.strains.2.levels.from at shipped 'notrump-from-4', line {shipped_line(nt4, 'levels: {from: 4}')}"
    strain = "  strains:\n    - name: notrump\n      levels: {to: 2}\n"
    if layers == "rule over the shipped rule":
        mine = write(tmp_path, "nt.yaml", "name: nt\nkind: house-rule\ndescription: x\nauction:\n" + strain)
        result = run("compile", f"standard+notrump-from-4+{mine}")
    else:
        mine = write(tmp_path, "nt.yaml", "name: nt\nextends: standard\nauction:\n" + strain)
        result = run("compile", str(mine), "--with", "notrump-from-4")
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    line = 7 if layers == "rule over the shipped rule" else 6
    assert first.startswith(f"{mine}:{line}:20: strain 'notrump' is bid from 4, above its highest level 2"), first
    assert shipped in first


def test_the_fix_offered_works(tmp_path):
    rule = write(tmp_path, "mine.yaml", NO_DOWNTOWN + "orders: {downtown: ~}\n")
    assert run("check", str(rule), "--on", "standard").exit_code == 0
    assert run("simulate", f"standard+{rule}", "--hands", "10", "--seed", "1").exit_code == 0


def test_a_whist_house_rule_is_told_the_fix_in_whist(tmp_path):
    rule = write(tmp_path, "mine.whist", NO_DOWNTOWN_WHIST)
    result = run("compile", f"standard+{rule}")
    assert result.exit_code == 1
    first, fix = result.stderr.splitlines()[:2]
    assert first.startswith(f"{rule}:3:3: orders.downtown has no effect")
    assert fix.endswith(f"(in {rule}: `orders {{ remove downtown }}`), or keep a strain that plays downtown")
    fixed = write(tmp_path, "fixed.whist", NO_DOWNTOWN_WHIST + "orders { remove downtown }\n")
    assert run("compile", f"standard+{fixed}").exit_code == 0


def test_every_error_of_a_house_rule_over_a_shipped_base_leads_with_the_house_rule(tmp_path):
    for name, text in (("nokitty.yaml", NO_KITTY), ("ranks.yaml", FEWER_RANKS), ("mine.yaml", NO_DOWNTOWN)):
        rule = write(tmp_path, name, text)
        found = diagnostics("standard", rule)
        assert found, name
        for message in found:
            assert message.startswith(f"{rule}:"), message
            assert "\n    to fix: " in message, message


def test_the_removals_offered_are_what_the_schema_allows_and_they_work(tmp_path):
    rule = write(tmp_path, "nokitty.yaml", NO_KITTY)
    joined = "\n".join(diagnostics("standard", rule))
    # declaration.when cannot be removed alone; declaration holds nothing else, so it goes whole.
    for snippet in ("`kitty: {discards: ~}`", "`declaration: ~`", "`play: {notrump_extras: ~}`"):
        assert f"(in {rule}: {snippet})" in joined
    # The jokers' places among the trumps go with the jokers (compose: a layer that takes cards
    # out of the deck takes their parts in play); it was one more removal to write.
    assert "trumps_above" not in joined
    assert "declaration: {when: ~}" not in joined
    fixed = write(tmp_path, "fixed.yaml", NO_KITTY + "kitty: {discards: ~}\ndeclaration: ~\n"
                                          "play: {trumps_above: ~, notrump_extras: ~}\n")
    compile_variant("standard", (str(fixed),))


def test_a_users_variant_extending_a_shipped_one_leads_with_the_users_file(tmp_path):
    text = "name: mygame\nextends: standard\n" + NO_DOWNTOWN.split("auction:", 1)[1].join(["auction:", ""])
    mine = write(tmp_path, "mygame.yaml", text)
    result = run("compile", str(mine))
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{mine}:") and "shipped 'standard'" in first and str(STANDARD) not in first


@pytest.mark.parametrize("strain, aliases, said", [
    ("downtown", "[downtown]", "strain 'downtown' lists 'downtown' among its aliases, which it is already called"),
    ("downtown", "[uptown]", "'uptown' names both strain 'uptown' and strain 'downtown'"),
])
def test_a_strains_alias_is_blamed_at_the_users_alias(tmp_path, strain, aliases, said):
    """Found by the 10^5 fuzz run: an alias repeating its own strain's name was reported at
    the shipped file's `name` line, as if two strains shared the word."""
    mine = write(tmp_path, "mine.yaml", f"name: mine\ntitle: t\nextends: standard\nauction:\n  strains:\n"
                                        f"    - name: {strain}\n      aliases: {aliases}\n")
    result = run("compile", str(mine))
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if said in line]
    assert lines and lines[0].startswith(f"{mine}:7:16: "), result.stderr


def test_the_caret_stands_under_the_character_in_the_line_as_printed():
    """A quoted source line escapes what a terminal would act on or not show (a tab, a
    no-break space: one character, four printed); the caret counts the printed line."""
    from bidcompiler.errors import Diagnostic, SourcePos

    line = "title \t\xa0\xa0 ]"
    text = str(Diagnostic(SourcePos("f.whist", 1, line.index("]") + 1), "unexpected ']'", source_line=line))
    shown, caret = text.splitlines()[1:3]
    assert shown.index("]") == caret.index("^"), text


def test_a_set_change_that_breaks_the_base_leads_with_the_set(tmp_path):
    result = run("compile", "standard", "--set", "deal.kitty=0", "--set", "deal.hand=13", "--set", "deck.extra=~")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    firsts = [line for line in lines if not line.startswith("    ")]
    assert firsts and all(line.startswith("--set ") for line in firsts), lines
    assert "    to fix: remove `discards` from `kitty` with `--set kitty.discards=~`, or deal a kitty (deal.kitty)" \
        in lines


def test_when_every_file_is_shipped_the_setting_blamed_leads_by_its_shipped_name():
    """The setting blamed still leads, but named as shipped files are everywhere else in a
    message (its name and line): it led with the absolute path it is installed at, which
    the user never wrote."""
    with pytest.raises(CompileError) as info:
        compile_variant("oregon", ("eldest-leads",))
    [message] = [str(d) for d in info.value.diagnostics]
    eldest = shipped_house_rules()["eldest-leads"]
    assert message.startswith(f"shipped 'eldest-leads', line {shipped_line(eldest, 'first_lead:')}: play.first_lead")
    assert str(resources.variants_dir()) not in message
    [diagnostic] = info.value.diagnostics
    assert diagnostic.one_line().startswith("shipped 'eldest-leads', line ")
    assert "to fix: let the declarer lead first (`play.first_lead: declarer`)" in message


# --------------------------------------------------------------------------- B: did you mean
@pytest.mark.parametrize("argv", [
    ("simulate", "{v}", "--hands", "1"),
    ("compile", "{v}"),
    ("rules", "{v}"),
    ("diff", "{v}", "standard"),
    ("compare", "standard", "{v}", "--games", "1"),
    ("play", "{v}", "--fast"),
])
@pytest.mark.parametrize("spec, meant", [("standrd", "standard"), ("standard+min-bid4", "min-bid-4"),
                                         ("standard+sport-kity", "sport-kitty")])
def test_unknown_names_get_a_did_you_mean_in_every_command(argv, spec, meant):
    result = run(*[a.format(v=spec) for a in argv])
    assert result.exit_code == 2
    assert f"(did you mean '{meant}'?)" in result.stderr
    assert "(shipped: " not in result.stderr  # one name, not the whole list


def test_a_misspelt_with_is_blamed_on_with():
    result = run("simulate", "standard", "--with", "sport-kity", "--hands", "1")
    assert result.exit_code == 2
    assert "Invalid value for --with: unknown house rule 'sport-kity' (did you mean 'sport-kitty'?)" in result.stderr


def test_a_name_close_to_nothing_lists_the_shipped_names():
    result = run("compile", "zzzz")
    assert result.exit_code == 2
    assert "unknown variant 'zzzz' (shipped: " in result.stderr and "standard" in result.stderr


def test_a_misspelt_file_gets_the_file_next_to_it(tmp_path):
    write(tmp_path, "mine.yaml", NO_DOWNTOWN)
    result = run("compile", f"standard+{tmp_path / 'mine.yml'}")
    assert result.exit_code == 2
    assert f"no such file (did you mean '{tmp_path / 'mine.yaml'}'?)" in result.stderr
    result = run("compile", str(tmp_path / "standrd.yaml"))
    assert "no such file (did you mean the shipped variant 'standard'?)" in result.stderr


def test_a_record_naming_an_unknown_variant_gets_a_did_you_mean(tmp_path):
    records = tmp_path / "hands.jsonl"
    assert run("simulate", "standard", "--hands", "1", "--seed", "1", "--records", str(records)).exit_code == 0
    record = json.loads(records.read_text().splitlines()[0])
    for key, value, meant in (("variant", "standrd", "standard"), ("with", ["sport-kity"], "sport-kitty")):
        bad = tmp_path / f"bad-{key}.json"
        bad.write_text(json.dumps({**record, key: value}))
        result = run("replay", str(bad))
        assert result.exit_code == 1
        assert re.search(rf"did you mean '{meant}'\?", result.stderr), result.stderr

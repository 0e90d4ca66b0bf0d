"""Lists of named items merge by name (issue 12.5).

An overlay's item merges into the item of its name below, key by key; a new name
is added at the end; ``{name: X, remove: true}`` (``.whist``: ``remove X`` inside the
list's block) removes X.  ``auction.strains`` is the list the variants have; the
rule is compose's, for any list of named mappings.  Orders are a mapping: an
overlay adds one by naming it and removes one with ``~`` (``remove`` in ``.whist``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run
from docexamples import blocks

from bidcompiler.compose import compose, merge_layer, set_layer
from bidcompiler.convert import schema_shape, to_whist, to_yaml
from bidcompiler.errors import CompileError
from bidcompiler.lower import lower
from bidcompiler.pipeline import compile_variant, load_layer, shipped_house_rules, shipped_variants, variant_schema
from bidcompiler.yamlload import load_yaml
from runtime.ruleset_json import ruleset_to_json

STANDARD = shipped_variants()["standard"]
NOTRUMP_FROM_4 = shipped_house_rules()["notrump-from-4"]

# notrump-from-4 as it was written while a list replaced the list below it: every
# strain restated.  The rule now names notrump alone and must compile the same.
RESTATED_NOTRUMP_FROM_4 = """\
name: notrump-from-4
kind: house-rule
description: "a notrump bid must be at least 4 (there is no 3 notrump); uptown and downtown keep 3-7"
auction:
  strains:
    - name: uptown
      aliases: [high, up]
      trump: suit
      direction: uptown
    - name: downtown
      aliases: [low, down]
      trump: suit
      direction: downtown
    - name: notrump
      aliases: [nt, no]
      trump: none
      direction: [uptown, downtown]
      levels: {from: 4}
"""

# Standard without downtown: the strain and its order go, notrump plays uptown only.
NO_DOWNTOWN = """\
name: no-downtown
kind: house-rule
orders:
  downtown: ~
auction:
  strains:
    - name: downtown
      remove: true
    - name: notrump
      direction: uptown
  ranking: [[uptown], [notrump]]
"""
NO_DOWNTOWN_WHIST = """\
house-rule no-downtown
orders { remove downtown }
auction {
  strains {
    remove downtown                    # standard's downtown goes
    notrump { direction uptown }
  }
  ranking [[uptown], [notrump]]
}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def ruleset_json(spec: str, with_rules=(), sets=()) -> str:
    """The lowered Ruleset of a composition, as comparable text."""
    return json.dumps(ruleset_to_json(lower(compile_variant(spec, tuple(with_rules), tuple(sets)))),
                      sort_keys=True, default=str)


def errors(spec: str, with_rules=(), sets=()) -> list[str]:
    with pytest.raises(CompileError) as info:
        compile_variant(spec, tuple(with_rules), tuple(sets))
    return [str(d) for d in info.value.diagnostics]


def strain_names(spec: str, with_rules=(), sets=()) -> list[str]:
    return [s.name for s in compile_variant(spec, tuple(with_rules), tuple(sets)).auction.strains]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def layer(text: str, filename: str):
    """A YAML layer without the variant schema: compose's rules hold for any list of named items."""
    return load_yaml(text, filename)


# --------------------------------------------------------------------------- merge into one item
def test_notrump_from_4_names_notrump_alone():
    data = load_layer(NOTRUMP_FROM_4).data
    assert data["auction"] == {"strains": [{"name": "notrump", "levels": {"from": 4}}]}


def test_notrump_from_4_compiles_to_the_same_ruleset_as_the_restated_rule(tmp_path):
    old = write(tmp_path, "old-nt4.yaml", RESTATED_NOTRUMP_FROM_4)
    assert ruleset_json("standard+notrump-from-4") == ruleset_json("standard", (old,))
    # ... which differs from standard in notrump's levels alone.
    strains = compile_variant("standard+notrump-from-4").auction.strains
    assert [(s.name, s.aliases, s.trump, s.directions, s.levels) for s in strains] == [
        ("uptown", ("high", "up"), "suit", ("uptown",), None),
        ("downtown", ("low", "down"), "suit", ("downtown",), None),
        ("notrump", ("nt", "no"), "none", ("uptown", "downtown"), (4, 7)),
    ]


def test_rules_and_diff_of_notrump_from_4_read_as_before(tmp_path):
    old = write(tmp_path, "notrump-from-4.yaml", RESTATED_NOTRUMP_FROM_4)
    diff = run("diff", "standard", "standard+notrump-from-4")
    assert diff.exit_code == 0
    assert diff.stdout == "strain notrump bid at: the auction's levels -> 4 to 7\n"
    assert run("diff", "standard+notrump-from-4", f"standard+{old}").stdout.strip() == "no rule differences"
    rules = run("rules", "standard+notrump-from-4")
    assert rules.exit_code == 0
    # The rulebook names the rule as given (here a path); the rules themselves read the same.
    assert rules.stdout == run("rules", f"standard+{old}").stdout.replace(old, "notrump-from-4")
    assert "A bid of notrump must be from 4 to 7." in rules.stdout


def test_a_rule_over_a_variant_keeps_that_variants_strains():
    # Cincinnati's uptown is said bare and its downtown is also "special"; notrump-from-4
    # used to restate standard's strains and lose both.  Now it changes notrump alone.
    strains = {s.name: s for s in compile_variant("cincinnati+notrump-from-4").auction.strains}
    assert strains["uptown"].bare and "special" in strains["downtown"].aliases
    assert strains["notrump"].levels == (4, 7)
    base = {s.name: s for s in compile_variant("cincinnati").auction.strains}
    assert base["notrump"].levels is None


# --------------------------------------------------------------------------- add, remove
def test_a_new_name_adds_a_strain_at_the_end(tmp_path):
    rule = write(tmp_path, "sans.yaml", """\
name: sans
kind: house-rule
auction:
  strains:
    - name: sans
      aliases: [s]
      trump: none
      direction: downtown
  ranking: [[uptown, downtown], [sans], [notrump]]
""")
    assert strain_names("standard", (rule,)) == ["uptown", "downtown", "notrump", "sans"]
    [sans] = [s for s in compile_variant("standard", (rule,)).auction.strains if s.name == "sans"]
    assert (sans.trump, sans.directions, sans.aliases) == ("none", ("downtown",), ("s",))


def test_a_new_strain_must_say_what_the_schema_requires(tmp_path):
    rule = write(tmp_path, "half.yaml", "name: half\nkind: house-rule\nauction:\n  strains:\n    - name: sans\n"
                                        "      aliases: [s]\n")
    assert errors("standard", (rule,)) == [
        f"{rule}:5:7: auction.strains: strain 'sans': missing required keys 'trump', 'direction'\n"
        "    to fix: the other strains are 'uptown', 'downtown', 'notrump': to change one of them, use its name; "
        "to add strain 'sans', give it 'trump' and 'direction'"]


def test_a_complete_variant_still_gives_every_strain_whole(tmp_path):
    text = STANDARD.read_text(encoding="utf-8").replace("      trump: suit                # the winner names a "
                                                        "trump suit\n", "")
    path = write(tmp_path, "whole.yaml", text)
    assert errors(path) == [f"{path}:{line_of(text, '- name: uptown')}:7: missing required key 'trump'"]


def test_a_strain_is_removed_by_name_in_yaml_and_whist(tmp_path):
    yaml_rule = write(tmp_path, "nd.yaml", NO_DOWNTOWN)
    whist_rule = write(tmp_path, "nd.whist", NO_DOWNTOWN_WHIST)
    assert strain_names("standard", (yaml_rule,)) == ["uptown", "notrump"]
    assert ruleset_json("standard", (yaml_rule,)) == ruleset_json("standard", (whist_rule,))
    v = compile_variant("standard", (yaml_rule,))
    assert [o.name for o in v.orders] == ["uptown"]
    assert [s.directions for s in v.auction.strains] == [("uptown",), ("uptown",)]
    # The .whist removal reads as the YAML item.
    assert load_layer(Path(whist_rule)).data["auction"]["strains"][0] == {"name": "downtown", "remove": True}


def test_remove_then_write_again_replaces_an_item_whole(tmp_path):
    rule = write(tmp_path, "nt.yaml", """\
name: nt
kind: house-rule
auction:
  strains:
    - {name: notrump, remove: true}
    - {name: notrump, trump: none, direction: uptown}
""")
    [nt] = [s for s in compile_variant("standard", (rule,)).auction.strains if s.name == "notrump"]
    assert nt.aliases == () and nt.directions == ("uptown",)


def test_variants_that_had_other_strains_remove_standards_explicitly():
    # These extend standard with one bare strain of their own: the three of
    # standard are removed by name, so the list is exactly theirs, as before.
    for name in ("hawaii", "oregon", "rhode-island", "northeast52"):
        data = load_layer(shipped_variants()[name]).data
        removed = [s["name"] for s in data["auction"]["strains"] if s.get("remove")]
        assert removed == ["uptown", "downtown", "notrump"], name
        assert strain_names(name) == ["number"], name
    assert strain_names("examples/northeast52.whist") == ["number"]
    assert strain_names("cincinnati") == ["uptown", "downtown", "notrump"]


# --------------------------------------------------------------------------- errors
def test_removing_an_unknown_name_is_an_error_at_the_name(tmp_path):
    text = "name: bad\nkind: house-rule\nauction:\n  strains:\n    - name: notrmp\n      remove: true\n"
    rule = write(tmp_path, "bad.yaml", text)
    assert errors("standard", (rule,)) == [
        f"{rule}:5:13: auction.strains: cannot remove 'notrmp': no layer below has an item of that name "
        "(did you mean 'notrump'?)"]
    whist = write(tmp_path, "bad.whist", "house-rule bad\nauction {\n  strains { remove sans }\n}\n")
    assert errors("standard", (whist,)) == [
        f"{whist}:3:20: auction.strains: cannot remove 'sans': no layer below has an item of that name "
        "(there: uptown, downtown, notrump)"]


def test_a_cli_run_reports_the_unknown_removal_and_exits_1(tmp_path):
    rule = write(tmp_path, "bad.yaml", "name: bad\nkind: house-rule\nauction:\n  strains:\n"
                                       "    - {name: sans, remove: true}\n")
    for argv in (("compile", f"standard+{rule}"), ("check", rule, "--on", "standard")):
        result = run(*argv)
        assert result.exit_code == 1
        assert f"{rule}:5:14: auction.strains: cannot remove 'sans'" in result.stderr
        assert "Traceback" not in result.stderr


def test_a_removal_names_only_the_item(tmp_path):
    rule = write(tmp_path, "bad.yaml", "name: bad\nkind: house-rule\nauction:\n  strains:\n    - name: notrump\n"
                                       "      remove: true\n      trump: suit\n")
    [message] = errors("standard", (rule,))
    assert message.startswith(f"{rule}:7:14: auction.strains: 'notrump' is removed, so it cannot also set `trump`")


def test_remove_false_is_refused_by_the_schema(tmp_path):
    rule = write(tmp_path, "bad.yaml", "name: bad\nkind: house-rule\nauction:\n  strains:\n    - name: notrump\n"
                                       "      remove: false\n")
    [message] = errors("standard", (rule,))
    assert message.startswith(f"{rule}:6:15: ")


def test_a_name_written_twice_in_one_list_is_an_error(tmp_path):
    rule = write(tmp_path, "bad.yaml", "name: bad\nkind: house-rule\nauction:\n  strains:\n"
                                       "    - {name: notrump, levels: {from: 4}}\n    - {name: notrump, aliases: [n]}\n")
    assert errors("standard", (rule,)) == [f"{rule}:6:14: auction.strains: 'notrump' is written twice in this list"]


def test_an_item_without_a_name_is_an_error(tmp_path):
    # For strains the schema says so first ...
    rule = write(tmp_path, "bad.yaml", "name: bad\nkind: house-rule\nauction:\n  strains:\n    - levels: {from: 4}\n")
    assert errors("standard", (rule,)) == [f"{rule}:5:7: missing required key 'name'"]
    # ... and compose, for any list of named items, schema or not.
    doc = compose([layer("things:\n  - {name: a, x: 1}\n", "base.yaml")], [])
    with pytest.raises(CompileError) as info:
        merge_layer(doc, layer("things:\n  - {name: a, x: 2}\n  - {x: 3}\n", "over.yaml"))
    assert [str(d) for d in info.value.diagnostics] == [
        "over.yaml:3:5: things: this item has no name; the items of things are merged by name, so each needs `name:`"]


def test_a_removed_strain_still_ranked_is_the_ranking_error_at_the_overlay(tmp_path):
    text = "name: no-nt\nkind: house-rule\nauction:\n  strains:\n    - {name: notrump, remove: true}\n"
    rule = write(tmp_path, "no-nt.yaml", text)
    found = errors("standard", (rule,))
    ranking = next(m for m in found if "ranking names 'notrump'" in m)
    assert ranking.startswith(f"{rule}:5:5: ranking names 'notrump', which is not a strain (here: auction.strains; "
                              f"auction.ranking at shipped 'standard', line {line_of(STANDARD.read_text(), 'ranking: [[')})")
    assert "to fix: take 'notrump' out of auction.ranking, or add a strain named 'notrump'" in ranking
    # Ranking what is left compiles (notrump_extras goes too: no contract is without trump).
    fixed = write(tmp_path, "fixed.yaml", text + "  ranking: [[uptown, downtown]]\nplay: {notrump_extras: ~}\n")
    assert strain_names("standard", (fixed,)) == ["uptown", "downtown"]


# --------------------------------------------------------------------------- compose, any named list
def test_any_list_of_named_mappings_merges_by_name_keeping_positions():
    base = layer("things:\n  - name: a\n    x: 1\n    y: [1, 2]\n  - name: b\n    x: 2\n  - name: c\n    x: 3\n",
                 "base.yaml")
    over = layer("things:\n  - {name: a, remove: true}\n  - name: c\n    y: [9]\n    x: ~\n  - name: d\n    x: 4\n",
                 "over.yaml")
    doc = compose([base], [])
    merge_layer(doc, over)
    assert doc.data["things"] == [{"name": "b", "x": 2}, {"name": "c", "y": [9]}, {"name": "d", "x": 4}]
    # Items moved up after the removal; each value still names the file and line that set it.
    assert str(doc.pos(("things", 0, "x"))) == "base.yaml:6:8"
    assert str(doc.pos(("things", 0))) == "base.yaml:5:5"
    assert str(doc.pos(("things", 1, "name"))) == "base.yaml:7:11"
    assert str(doc.pos(("things", 1, "y"))) == "over.yaml:4:8"
    assert str(doc.pos(("things", 2, "x"))) == "over.yaml:7:8"
    assert doc.file_of(("things", 2)) == "over.yaml"
    assert str(doc.newest_pos(("things", 0))) == "base.yaml:5:5"
    assert doc.newest_layer(("things", 1)) == 1 and doc.newest_layer(("things", 0)) == 0


def test_lists_of_plain_values_still_replace():
    doc = compose([layer("deck:\n  extra: [BJ, LJ]\nthings: [1, 2]\n", "base.yaml")], [])
    merge_layer(doc, layer("deck:\n  extra: [BJ]\nthings: [3]\n", "over.yaml"))
    assert doc.data == {"deck": {"extra": ["BJ"]}, "things": [3]}


def test_a_removal_with_nothing_below_is_an_error():
    with pytest.raises(CompileError) as info:
        compose([layer("things:\n  - {name: a, remove: true}\n", "base.yaml")], [])
    assert [str(d) for d in info.value.diagnostics] == [
        "base.yaml:2:12: things: cannot remove 'a': no layer below this file has things"]


# --------------------------------------------------------------------------- --set
def test_set_reaches_a_strain_by_name():
    assert ruleset_json("standard", sets=("auction.strains.notrump.levels.from=4",)) == \
        ruleset_json("standard+notrump-from-4")
    assert set_layer("auction.strains.no.aliases=[x]").data["auction"]["strains"] == [
        {"name": "no", "aliases": ["x"]}]  # a name YAML would read as false stays a name


def test_set_removes_a_strain_by_name_and_refuses_a_whole_item():
    assert strain_names("standard", sets=("auction.strains.downtown=~", "auction.ranking=[[uptown], [notrump]]",
                                          "orders.downtown=~", "auction.strains.notrump.direction=uptown")) == [
        "uptown", "notrump"]
    assert errors("standard", sets=("auction.strains.notrmp=~",)) == [
        "--set auction.strains.notrmp=~: auction.strains: cannot remove 'notrmp': no layer below has an item of "
        "that name (did you mean 'notrump'?)"]
    assert errors("standard", sets=("auction.strains.notrump=4",)) == [
        "--set auction.strains.notrump=4: 'auction.strains.notrump' is an item of auction.strains: set one of its "
        "settings (auction.strains.notrump.SETTING=VALUE), or remove it with auction.strains.notrump=~"]
    # On the command line a change that cannot be formed is bad usage (exit 2), named by its option.
    result = run("compile", "standard", "--set", "auction.strains.notrump=4")
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert "Invalid value for '--set': auction.strains.notrump=4: 'auction.strains.notrump' is an item" in result.stderr


# --------------------------------------------------------------------------- orders
def test_an_overlay_adds_one_order_and_removes_another(tmp_path):
    rule = write(tmp_path, "aces.yaml", """\
name: aces-bad
kind: house-rule
orders:
  downtown: ~
  downtown-aces-bad: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]
auction:
  strains:
    - name: downtown
      direction: downtown-aces-bad
    - name: notrump
      direction: [uptown, downtown-aces-bad]
""")
    whist = write(tmp_path, "aces.whist", """\
house-rule aces-bad
orders { remove downtown; downtown-aces-bad 2 3 4 5 6 7 8 9 T J Q K A }
auction {
  strains {
    downtown { direction downtown-aces-bad }
    notrump { direction uptown downtown-aces-bad }
  }
}
""")
    v = compile_variant("standard", (rule,))
    assert [(o.name, o.ranks[0]) for o in v.orders] == [("uptown", "A"), ("downtown-aces-bad", "2")]
    assert [s.directions for s in v.auction.strains] == [("uptown",), ("downtown-aces-bad",),
                                                         ("uptown", "downtown-aces-bad")]
    assert ruleset_json("standard", (rule,)) == ruleset_json("standard", (whist,))
    # Removing an order a strain still plays in is the existing positioned error.
    lone = write(tmp_path, "lone.yaml", "name: lone\nkind: house-rule\norders:\n  downtown: ~\n")
    assert any(m.startswith(f"{lone}:4:") and "downtown" in m for m in errors("standard", (lone,)))


# --------------------------------------------------------------------------- convert
def test_removals_convert_both_ways_with_their_comments(tmp_path):
    shape = schema_shape(variant_schema())
    loaded = load_layer(Path(write(tmp_path, "nd.whist", NO_DOWNTOWN_WHIST)))
    yaml_text = to_yaml(loaded.data, loaded.comments())
    assert "    - name: downtown  # standard's downtown goes\n      remove: true\n" in yaml_text
    back = load_layer(Path(write(tmp_path, "nd.yaml", yaml_text)))
    assert back.data == loaded.data
    whist_text = to_whist(back.data, shape, back.comments())
    assert "  strains {\n    remove downtown  # standard's downtown goes\n    notrump { direction uptown }\n" \
        in whist_text
    again = load_layer(Path(write(tmp_path, "again.whist", whist_text)))
    assert again.data == loaded.data
    assert to_whist(again.data, shape, again.comments()) == whist_text
    assert ruleset_json("standard", (str(tmp_path / "again.whist"),)) == \
        ruleset_json("standard", (str(tmp_path / "nd.yaml"),))


def test_a_non_block_in_a_named_list_says_what_is_wanted(tmp_path):
    bad = write(tmp_path, "bad.whist", "house-rule bad\nauction {\n  strains { notrump 4 }\n}\n")
    result = run("compile", f"standard+{bad}")
    assert result.exit_code == 1
    assert f"{bad}:3:13: expected a `notrump {{ … }}` block or `remove notrump` in strains" in result.stderr


def test_the_documented_examples_compile(tmp_path):
    root = Path(__file__).resolve().parent.parent
    syntax = (root / "docs" / "whist-syntax.md").read_text(encoding="utf-8")
    [example] = [b for b in blocks(syntax, "whist") if "remove downtown" in b]
    rule = write(tmp_path, "doc.whist", example)
    assert ruleset_json("standard", (rule,)) == ruleset_json("standard", (write(tmp_path, "nd.yaml", NO_DOWNTOWN),))
    readme = (root / "README.md").read_text(encoding="utf-8")
    [fragment] = [b for b in blocks(readme, "yaml") if "- name: notrump" in b]
    assert load_layer(NOTRUMP_FROM_4).data["auction"] == load_yaml(fragment, "README.md").data["auction"]


def test_the_syntax_pages_first_example_compiles(tmp_path):
    """whist-syntax.md opens with a whole variant: it compiles, and each line does what its comment says."""
    root = Path(__file__).resolve().parent.parent
    syntax = (root / "docs" / "whist-syntax.md").read_text(encoding="utf-8")
    example = blocks(syntax, "whist")[0]
    ir = compile_variant(write(tmp_path, "my-game.whist", example), (), ())
    assert ir.name == "my-game" and ir.title == "My Friday game"
    assert ir.auction.min_level == 4 and ir.auction.ranking == (("uptown",), ("downtown",), ("notrump",))
    assert ir.game.lose.text == "false"  # `remove target` took standard's only lose condition away

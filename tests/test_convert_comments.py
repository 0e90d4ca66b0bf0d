"""`bidwhist convert` keeps comments: in place, verbatim, in both directions, stably."""

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidcompiler.cli import cli
from bidcompiler.convert import MODELINE, schema_shape, to_whist, to_yaml
from bidcompiler.irjson import to_data
from bidcompiler.pipeline import compile_layers, compile_variant, load_layer_text, variant_schema
from bidcompiler.yamlload import CommentSlots, yaml_comments

ROOT = Path(__file__).resolve().parents[1]
SHAPE = schema_shape(variant_schema())
# The shipped files, the examples, and the house rules of real tables written from the docs
# alone (tests/data/table-rules: overlays and variants, one extending another by a path).
SOURCES = sorted([*(ROOT / "variants").glob("*.yaml"), *(ROOT / "variants").glob("*.whist"),
                  *(ROOT / "examples").rglob("*.yaml"), *(ROOT / "examples").rglob("*.whist"),
                  *(ROOT / "tests" / "data" / "table-rules").glob("*.yaml"),
                  *(ROOT / "tests" / "data" / "table-rules").glob("*.whist")])
SOURCES = [p for p in SOURCES if "typo" not in p.name]  # the tutorial's file with a mistake in it


def convert(text: str, name: str, target: str) -> str:
    doc = load_layer_text(text, name)
    notes = doc.comments()
    return to_whist(doc.data, SHAPE, notes) if target == "whist" else to_yaml(doc.data, notes)


def comments_in(text: str, name: str) -> list[str]:
    """Every comment of a file, in order, as the parser meets it (the schema modeline left out)."""
    if name.endswith(".whist"):
        found = load_layer_text(text, name)._comment_list
    else:
        found = yaml_comments(text)
    return [c.text for c in found if not c.text.startswith(" yaml-language-server:")]


def kept_comments(text: str, name: str) -> list[str]:
    """The comments of a source file that its conversions must keep, in order.

    All but the modeline (the YAML printer writes its own) and the empty `#` lines
    at the very top: those only set a header off from the modeline, and would be a
    stray first line without it.
    """
    found = comments_in(text, name)
    while found and not found[0].strip():
        found.pop(0)
    return found


def with_text(comments) -> Counter:
    """The comments that say something, counted (empty `#` lines are layout)."""
    return Counter(c.rstrip() for c in comments if c.strip())


def ir_of(text: str, name: str, folder: Path) -> dict:
    """The IR of a variant file, or of a house-rule file laid over the standard game.

    ``name`` may be a path: a variant's ``extends`` of a relative path is found beside it;
    a house rule is written into ``folder`` under the file's name alone."""
    doc = load_layer_text(text, name)
    if doc.data.get("kind") != "house-rule":
        return to_data(compile_layers(doc))
    path = folder / Path(name).name
    path.write_text(text, encoding="utf-8")
    return {k: v for k, v in to_data(compile_variant("standard", (str(path),))).items() if k != "house_rules"}


# ----------------------------------------------------------------- every shipped file
@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_files_keep_every_comment_in_both_directions(path):
    text = path.read_text(encoding="utf-8")
    mine = kept_comments(text, path.name)
    whist = convert(text, path.name, "whist")
    yaml_text = convert(text, path.name, "yaml")
    assert comments_in(whist, "a.whist") == mine
    assert comments_in(yaml_text, "a.yaml") == mine
    # and back again
    assert comments_in(convert(whist, "a.whist", "yaml"), "b.yaml") == mine
    assert comments_in(convert(yaml_text, "a.yaml", "whist"), "b.whist") == mine


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_files_convert_stably_with_their_comments(path):
    text = path.read_text(encoding="utf-8")
    whist = convert(text, path.name, "whist")
    yaml_text = convert(text, path.name, "yaml")
    assert convert(whist, "a.whist", "whist") == whist
    assert convert(yaml_text, "a.yaml", "yaml") == yaml_text
    assert convert(convert(whist, "a.whist", "yaml"), "b.yaml", "whist") == whist
    assert convert(whist, "a.whist", "yaml") == yaml_text
    assert convert(yaml_text, "a.yaml", "whist") == whist
    assert yaml_text.count("yaml-language-server") == 1  # the modeline, once


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_comments_change_nothing_in_the_ir(path, tmp_path):
    text = path.read_text(encoding="utf-8")
    original = ir_of(text, str(path), tmp_path)
    assert ir_of(convert(text, path.name, "whist"), str(path.with_suffix(".whist")), tmp_path) == original
    assert ir_of(convert(text, path.name, "yaml"), str(path.with_suffix(".yaml")), tmp_path) == original


def test_the_convert_command_keeps_comments(tmp_path):
    runner = CliRunner()
    out = runner.invoke(cli, ["convert", str(ROOT / "variants" / "standard.yaml"), "--to", "whist"])
    assert out.exit_code == 0
    assert "sides partners  # partners sit opposite: sides {0, 2} and {1, 3}\n" in out.stdout
    assert "  extra BJ LJ  # big joker, little joker\n" in out.stdout
    back = runner.invoke(cli, ["convert", str(ROOT / "examples" / "hawaii.whist"), "--to", "yaml"])
    assert back.exit_code == 0
    assert back.stdout.startswith(MODELINE + '\n# "Trumps" as played in Hawaii')
    assert "  # a shutout at 7, a lead of 11, or 21 with a margin of 2\n  win: " in back.stdout


# ----------------------------------------------------------------- the places
HOUSE_RULE = """\
# header one
#
# header three
name: r   # about the name
kind: house-rule
description: "a # in quotes"   # after a quoted string
title: 'it''s # in quotes too'
source: >-   # on a folded block's header
  seen # here, text
  and there
deck:
  # before extra
  extra: [BJ,   # in a flow list
          LJ]   # after the flow list
  # at the end of deck
auction:  # on the block's line
  levels: {from: 4,
    # in a flow mapping
    to: 7}
  strains:
    # before uptown
    - name: uptown  # on the item's line
      trump: suit
      direction: uptown
      # at the end of uptown
    - name: downtown
      trump: suit
      direction: downtown
    # at the end of strains
  # at the end of auction
game: {}
  # in an empty block
# at the end of the file
"""


@pytest.fixture(scope="module")
def converted():
    whist = convert(HOUSE_RULE, "r.yaml", "whist")
    return whist, convert(whist, "r.whist", "yaml")


def test_header_stays_on_top(converted):
    whist, yaml_text = converted
    assert whist.startswith("# header one\n#\n# header three\n")
    assert yaml_text.startswith(MODELINE + "\n# header one\n#\n# header three\nname: r")


def test_a_hash_in_quoted_text_or_a_block_scalar_is_no_comment(converted):
    whist, yaml_text = converted
    assert 'description "a # in quotes"  # after a quoted string\n' in whist
    assert 'title "it\'s # in quotes too"\n' in whist
    assert 'source "seen # here, text and there"  # on a folded block\'s header\n' in whist
    assert 'description: "a # in quotes"  # after a quoted string\n' in yaml_text
    assert 'title: "it\'s # in quotes too"\n' in yaml_text
    doc = load_layer_text(whist, "r.whist")
    assert doc.data["description"] == "a # in quotes" and doc.data["source"] == "seen # here, text and there"


def test_comments_before_a_setting_and_at_the_end_of_a_block(converted):
    whist, yaml_text = converted
    assert "deck {\n  # before extra\n  # in a flow list\n  extra BJ LJ  # after the flow list\n" \
           "  # at the end of deck\n}\n" in whist
    assert "deck:\n  # before extra\n  # in a flow list\n  extra: [BJ, LJ]  # after the flow list\n" \
           "  # at the end of deck\nauction:" in yaml_text


def test_trailing_comments_stay_on_their_line(converted):
    whist, yaml_text = converted
    assert "auction {  # on the block's line\n" in whist
    assert "auction:  # on the block's line\n" in yaml_text
    assert "    uptown {  # on the item's line\n" in whist
    assert "    - name: uptown  # on the item's line\n" in yaml_text


def test_a_comment_in_a_flow_mapping_keeps_its_place_and_unfolds_the_block(converted):
    whist, yaml_text = converted
    assert "  levels {\n    from 4\n    # in a flow mapping\n    to 7\n  }\n" in whist
    assert "  levels:\n    from: 4\n    # in a flow mapping\n    to: 7\n" in yaml_text


def test_named_items_keep_their_comments(converted):
    whist, yaml_text = converted
    assert "  strains {\n    # before uptown\n    uptown {" in whist
    assert "      direction uptown\n      # at the end of uptown\n    }\n" in whist
    assert "    downtown { trump suit; direction downtown }\n    # at the end of strains\n  }\n" \
           "  # at the end of auction\n}\n" in whist
    assert "  strains:\n    # before uptown\n    - name: uptown" in yaml_text
    assert "      direction: uptown\n      # at the end of uptown\n    - name: downtown" in yaml_text
    assert "      direction: downtown\n    # at the end of strains\n  # at the end of auction\ngame:" in yaml_text


def test_the_end_of_an_empty_block_and_of_the_file(converted):
    whist, yaml_text = converted
    assert whist.endswith("game {\n  # in an empty block\n}\n# at the end of the file\n")
    assert yaml_text.endswith("game: {}\n  # in an empty block\n# at the end of the file\n")


def test_two_comments_for_one_line_keep_both():
    # `name` and `kind` share the header line of a .whist file: the last comment
    # stays on the line, the one before goes just above it.
    text = "name: r  # about the name\nkind: house-rule  # about the kind\ndeal: {kitty: 4}\n"
    whist = convert(text, "r.yaml", "whist")
    assert whist == "# about the name\nhouse-rule r  # about the kind\ndeal { kitty 4 }\n"
    assert convert(convert(whist, "r.whist", "yaml"), "r.yaml", "whist") == whist


def test_whist_places():
    text = ("\n# top\nhouse-rule r   # on the header line\n"
            'description "x # y"; title t   # after two settings\n'
            "deal { kitty 4 }  # after a one-line block\n"
            "auction {\n  levels { from 4; to 7 }   # levels\n  # before ranking\n"
            "  ranking uptown = downtown < notrump\n}   # on the closing brace\n"
            "game {\n  win = score >= 5 \\\n     or swept   # after a continued formula\n  # last in game\n}\n"
            "# the end\n")
    whist = convert(text, "r.whist", "whist")
    assert whist == ("# top\nhouse-rule r  # on the header line\n"
                     'description "x # y"\n'
                     "title t           # after two settings\n"
                     "deal { kitty 4 }  # after a one-line block\n"
                     "auction {\n  levels { from 4; to 7 }  # levels\n  # before ranking\n"
                     "  ranking uptown = downtown < notrump\n  # on the closing brace\n}\n"
                     "game {\n  win = score >= 5 or swept  # after a continued formula\n  # last in game\n}\n"
                     "# the end\n")
    yaml_text = convert(text, "r.whist", "yaml")
    assert "name: r  # on the header line\nkind: house-rule\n" in yaml_text
    assert "  # on the closing brace\ngame:\n" in yaml_text
    assert convert(yaml_text, "r.yaml", "whist") == whist
    assert convert(whist, "r.whist", "whist") == whist


def test_a_modeline_in_the_header_is_not_doubled():
    text = MODELINE + "\n# mine\nname: r\nkind: house-rule\ndeal: {kitty: 4}\n"
    yaml_text = convert(text, "r.yaml", "yaml")
    assert yaml_text == MODELINE + "\n# mine\nname: r\nkind: house-rule\ndeal: {kitty: 4}\n"
    assert convert(text, "r.yaml", "whist") == "# mine\nhouse-rule r\ndeal { kitty 4 }\n"


def test_a_comment_with_no_place_left_is_printed_at_the_end():
    data = {"name": "r", "kind": "house-rule", "deal": {"kitty": 4}}
    lost = {("nowhere", 3): CommentSlots(before=[" still here"])}
    assert to_whist(data, SHAPE, lost).endswith("deal { kitty 4 }\n# still here\n")
    assert to_yaml(data, lost).endswith("deal: {kitty: 4}\n# still here\n")


def test_what_a_yaml_comment_cannot_hold_is_spelled_out():
    # YAML ends a comment at U+2028: the rest must not become a setting.
    text = "house-rule r\n# x\u2028title: evil \x07 \u00e9\n# \U0001F600\ndeal { kitty 4 }\n"
    yaml_text = convert(text, "r.whist", "yaml")
    assert "# x\\u2028title: evil \\u0007 \u00e9\n# \U0001F600\n" in yaml_text
    assert "title" not in load_layer_text(yaml_text, "r.yaml").data
    assert convert(text, "r.whist", "whist").startswith("house-rule r\n# x\u2028title: evil \x07")


def test_without_comments_the_output_is_as_before():
    data = load_layer_text((ROOT / "variants" / "standard.yaml").read_text(encoding="utf-8"), "standard.yaml").data
    assert "#" not in to_whist(data, SHAPE)
    assert to_yaml(data).count("#") == 1  # the modeline


def test_both_printers_spell_literals_alike():
    from bidcompiler.convert import _whist_scalar, _yaml_scalar
    for value, spelled in ((True, "true"), (False, "false"), (7, "7"), (-2, "-2"), (1.5, "1.5")):
        assert _whist_scalar(value) == _yaml_scalar(value) == spelled
    assert _yaml_scalar(None) == "~"
    assert _whist_scalar("two words") == '"two words"' and _yaml_scalar("two words") == "two words"
    assert _yaml_scalar("a #b") == '"a #b"'  # would end at the comment otherwise


# ----------------------------------------------------------------- generated comments
COMMENT_TEXT = st.text(st.characters(categories=("L", "N", "P", "S", "Zs")), max_size=12).map(lambda t: " " + t)
BASES = ["standard.yaml", "northeast52.yaml", "min-bid-4.yaml", "cutthroat.yaml"]


@st.composite
def commented_file(draw):
    """A shipped file's canonical text in one syntax with comments added between and after lines."""
    base = draw(st.sampled_from(BASES))
    target = draw(st.sampled_from(["whist", "yaml"]))
    text = convert((ROOT / "variants" / base).read_text(encoding="utf-8"), base, target)
    lines = text.splitlines()
    start = 1 if target == "yaml" else 0  # not above the modeline: that is the header's own line
    out = lines[:start]
    for line in lines[start:]:
        for _ in range(draw(st.integers(0, 2) if draw(st.booleans()) else st.just(0))):
            out.append(" " * draw(st.integers(0, 8)) + "#" + draw(COMMENT_TEXT))
        if draw(st.booleans()) and not line.lstrip().startswith("#"):
            line += " " * draw(st.integers(1, 3)) + "#" + draw(COMMENT_TEXT)
        out.append(line)
    for _ in range(draw(st.integers(0, 2))):
        out.append("#" + draw(COMMENT_TEXT))
    return "\n".join(out) + "\n", f"g.{target}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=commented_file())
def test_generated_comments_survive_and_settle(case):
    text, name = case
    mine = with_text(comments_in(text, name))
    blank = sum(1 for c in comments_in(text, name) if not c.strip())
    whist = convert(text, name, "whist")
    yaml_text = convert(text, name, "yaml")
    assert with_text(comments_in(whist, "a.whist")) == mine
    assert with_text(comments_in(yaml_text, "a.yaml")) == mine
    for out, out_name in ((whist, "a.whist"), (yaml_text, "a.yaml")):  # empty lines: kept, or dropped at the top
        assert sum(1 for c in comments_in(out, out_name) if not c.strip()) <= blank
        assert not out.split("\n")[1 if out_name.endswith(".yaml") else 0].strip() == "#"
    assert convert(whist, "a.whist", "whist") == whist
    assert convert(yaml_text, "a.yaml", "yaml") == yaml_text
    assert convert(convert(whist, "a.whist", "yaml"), "b.yaml", "whist") == whist
    # the comments changed no value on the way
    plain = load_layer_text(text, name).data
    assert load_layer_text(whist, "a.whist").data == load_layer_text(to_whist(plain, SHAPE), "p.whist").data
    assert load_layer_text(yaml_text, "a.yaml").data == load_layer_text(to_yaml(plain), "p.yaml").data

"""Tests for bidcompiler.yamlload: core-schema scalars, positions, duplicate keys."""

from __future__ import annotations

import json
import pickle
import textwrap

import pytest
from hypothesis import given, strategies as st

from bidcompiler.errors import CompileError, SourcePos
from bidcompiler.yamlload import coerce_to_schema_strings, load_yaml

F = "v.yaml"


def load(text: str):
    return load_yaml(textwrap.dedent(text), F)


def errors_of(text: str):
    with pytest.raises(CompileError) as info:
        load(text)
    return info.value.diagnostics


def at(line: int, col: int) -> SourcePos:
    return SourcePos(F, line, col)


# -- scalars -------------------------------------------------------------------------


def test_yaml_11_booleans_and_odd_plain_scalars_stay_strings():
    loaded = load("flags: [yes, no, on, off, y, n, Y, N, T, F, 10h, 3.5.1, 0x1F, 0o17, 2024-01-01, .inf, 1_000]\n")
    assert loaded.data["flags"] == [
        "yes", "no", "on", "off", "y", "n", "Y", "N", "T", "F",
        "10h", "3.5.1", "0x1F", "0o17", "2024-01-01", ".inf", "1_000",
    ]


def test_core_schema_booleans_nulls_and_numbers():
    loaded = load(
        """\
        bools: [true, True, TRUE, false, False, FALSE]
        nulls: [null, Null, NULL, ~]
        empty:
        ints: [0, 10, -3, +7]
        floats: [1.5, -0.25, 1e3, .5, 2.]
        quoted: ["10", 'true', "null", '']
        """
    )
    data = loaded.data
    assert data["bools"] == [True, True, True, False, False, False]
    assert data["nulls"] == [None, None, None, None]
    assert data["empty"] is None
    assert data["ints"] == [0, 10, -3, 7] and all(type(v) is int for v in data["ints"])
    assert data["floats"] == [1.5, -0.25, 1000.0, 0.5, 2.0] and all(type(v) is float for v in data["floats"])
    assert data["quoted"] == ["10", "true", "null", ""]


def test_mapping_keys_are_always_strings():
    assert load("10: a\ntrue: b\nno: c\n").data == {"10": "a", "true": "b", "no": "c"}


def test_block_scalars_are_strings():
    loaded = load(
        """\
        a: |
          10
        b: >-
          true
        """
    )
    assert loaded.data == {"a": "10\n", "b": "true"}


def test_empty_document_is_none():
    for text in ("", "# only a comment\n", "---\n"):
        loaded = load_yaml(text, F)
        assert loaded.data is None
        assert loaded.pos(("anything",)).file == F


def test_top_level_may_be_anything():
    assert load("- 1\n- two\n").data == [1, "two"]
    assert load("just text\n").data == "just text"


def test_aliases_expand_to_independent_copies():
    loaded = load("base: &b {k: 1}\nuse: *b\n")
    assert loaded.data == {"base": {"k": 1}, "use": {"k": 1}}
    assert loaded.data["base"] is not loaded.data["use"]
    # A value reached through an alias is placed at the anchored node.
    assert loaded.pos(("use", "k")) == at(1, 14)


def test_recursive_alias_is_an_error():
    (diag,) = errors_of("a: &x [1, *x]\n")
    assert "recursive alias" in diag.message


def test_unsupported_tag_and_bad_explicit_tag():
    diags = errors_of("a: !custom x\nb: !!int abc\nc: !!str 10\n")
    assert [(d.pos.line, d.message) for d in diags] == [
        (1, "unsupported tag '!custom'"),
        (2, "'abc' is not a valid !!int"),
    ]


def test_non_scalar_key_is_an_error():
    (diag,) = errors_of("? [1, 2]\n: x\n")
    assert diag.pos == at(1, 3)
    assert "mapping key" in diag.message


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=20))
def test_quoted_scalars_are_always_strings(value):
    # json.dumps gives a valid YAML double-quoted scalar for printable text.
    loaded = load_yaml(f"k: {json.dumps(value)}\n", F)
    assert loaded.data == {"k": value}


# -- positions -----------------------------------------------------------------------

NESTED = """\
# modeline comment
name: test
auction:
  bids:
    - level: 4
      suit: hearts
    - level: 5
  dealer: "north"
"""


def test_positions_of_nested_values_and_keys():
    loaded = load(NESTED)
    assert loaded.filename == F and loaded.text == NESTED
    assert loaded.pos(()) == at(2, 1)
    assert loaded.pos(("name",)) == at(2, 7)
    assert loaded.key_pos(("name",)) == at(2, 1)
    assert loaded.pos(("auction", "bids", 0)) == at(5, 7)
    assert loaded.pos(("auction", "bids", 0, "suit")) == at(6, 13)
    assert loaded.key_pos(("auction", "bids", 0, "suit")) == at(6, 7)
    assert loaded.pos(("auction", "bids", 1, "level")) == at(7, 14)
    assert loaded.key_pos(("auction", "dealer")) == at(8, 3)


def test_missing_paths_fall_back_to_deepest_existing_ancestor():
    loaded = load(NESTED)
    assert loaded.pos(("auction", "bids", 7, "level")) == loaded.pos(("auction", "bids"))
    assert loaded.pos(("auction", "nope", "deeper")) == loaded.pos(("auction",))
    assert loaded.pos(("name", "x")) == loaded.pos(("name",))
    # key_pos of a list index or a missing key falls back to pos.
    assert loaded.key_pos(("auction", "bids", 1)) == loaded.pos(("auction", "bids", 1))
    assert loaded.key_pos(("auction", "nope")) == loaded.pos(("auction",))
    assert loaded.node(("auction", "nope")) is None


def test_content_pos_for_quoted_plain_and_block_scalars():
    loaded = load(
        """\
        plain: a + b
        double: "a + b"
        single: 'a + b'
        literal: |  # header comment

            first line
            second
        folded: >-
          folded text
        flow: [x, "y"]
        """
    )
    assert loaded.content_pos(("plain",)) == at(1, 8)
    assert loaded.content_pos(("double",)) == at(2, 10)
    assert loaded.pos(("double",)) == at(2, 9)
    assert loaded.content_pos(("single",)) == at(3, 10)
    assert loaded.content_pos(("literal",)) == at(6, 5)
    assert loaded.content_pos(("folded",)) == at(9, 3)
    assert loaded.content_pos(("flow", 1)) == at(10, 12)
    # Not a scalar: the node start.
    assert loaded.content_pos(("flow",)) == at(10, 7)


# -- duplicate keys ------------------------------------------------------------------


def test_duplicate_key_names_both_lines():
    (diag,) = errors_of(
        """\
        auction:
          dealer: north
          bids: []
          passes: 1
          bids: [1]
        """
    )
    assert diag.message == "duplicate key 'bids' (first at line 3)"
    assert diag.pos == at(5, 3)
    assert diag.related == (at(3, 3),)


def test_all_duplicate_keys_reported_at_once():
    diags = errors_of(
        """\
        a: 1
        b:
          x: 1
          x: 2
        a: 3
        "b": 4
        """
    )
    assert [(d.pos.line, d.message) for d in diags] == [
        (4, "duplicate key 'x' (first at line 3)"),
        (5, "duplicate key 'a' (first at line 1)"),
        (6, "duplicate key 'b' (first at line 2)"),
    ]


def test_duplicate_in_flow_mapping():
    (diag,) = errors_of("m: {k: 1, k: 2}\n")
    assert diag.pos == at(1, 11) and diag.related == (at(1, 5),)


def test_compile_error_survives_pickling():
    with pytest.raises(CompileError) as info:
        load("a: 1\na: 2\n")
    again = pickle.loads(pickle.dumps(info.value))
    assert again.diagnostics == info.value.diagnostics


# -- malformed YAML ------------------------------------------------------------------


def test_malformed_yaml_position_and_message():
    (diag,) = errors_of("name: test\nbad: a: b\n")
    assert diag.pos == at(2, 7)
    assert diag.message.startswith("`: ` inside a value: quote the value")
    assert diag.source_line == "bad: a: b"


def test_indentation_mistakes_are_said_in_words_not_pyyaml_tokens():
    # A key indented deeper than its block's keys, and one between two blocks' columns:
    # PyYAML says "expected <block end>, but found '<block mapping start>'".
    (diag,) = errors_of("a:\n  b: {x: 1}\n   c: 2\n")
    assert diag.pos == at(3, 4)
    assert diag.message.startswith("bad indentation: this line lines up with no key above it (the block it "
                                   "is in started at line 2)")
    assert "<" not in diag.message
    # After a plain value, the deeper line reads as the rest of that value ("mapping values
    # are not allowed here" to PyYAML, as for `a: b: c` on one line).
    (diag,) = errors_of("a:\n  b: 1\n   c: 2\n")
    assert diag.pos == at(3, 5) and diag.message.startswith("bad indentation: this line is indented deeper")
    (diag,) = errors_of("a:\n    b: 1\n  c: 2\n")
    assert diag.pos == at(3, 3) and diag.message.startswith("bad indentation")


def test_a_list_item_in_line_with_the_keys_of_a_block_is_not_said_to_line_up_with_no_key():
    # `- LJ` less indented than `- BJ` lines up with `b`: was "this line lines up with no key above it".
    (diag,) = errors_of("a:\n  b:\n    - BJ\n  - LJ\n")
    assert diag.pos == at(4, 3)
    assert diag.message.startswith("bad indentation: a list item in line with the keys of the block that "
                                   "started at line 2;")
    # Deeper than any key, it still lines up with none.
    (diag,) = errors_of("a:\n  b:\n  - BJ\n - LJ\n")
    assert diag.message.startswith("bad indentation: this line lines up with no key above it")


def test_unclosed_flow_sequence_mentions_where_it_started():
    (diag,) = errors_of("a: [1, 2\nb: 3\n")
    assert diag.pos.line == 2
    assert "flow sequence that started at line 1" in diag.message
    assert diag.related == (at(1, 4),)


def test_tab_indentation_and_unprintable_characters():
    (diag,) = errors_of("a:\n\tb: 1\n")
    assert diag.pos == at(2, 1) and "'\\t'" in diag.message and "indent with spaces" in diag.message
    (diag,) = errors_of("a: \x07\n")
    assert diag.pos == at(1, 4) and "unacceptable character" in diag.message


def test_several_documents_are_an_error():
    (diag,) = errors_of("a: 1\n---\nb: 2\n")
    assert diag.pos == at(2, 1)
    assert "single document" in diag.message


# -- coercion ------------------------------------------------------------------------


def test_coerce_to_schema_strings_uses_exact_source_text():
    loaded = load(
        """\
        a: 10
        b: 1.50
        c: true
        d: ~
        e:
        f: "10"
        g: [1, 2]
        """
    )
    paths = [("a",), ("b",), ("c",), ("d",), ("e",), ("f",), ("g", 1), ("missing",)]
    assert coerce_to_schema_strings(loaded, paths) == 5
    assert loaded.data == {"a": "10", "b": "1.50", "c": "true", "d": "~", "e": None, "f": "10", "g": [1, "2"]}
    # Idempotent, and positions still work after editing the data.
    assert coerce_to_schema_strings(loaded, paths) == 0
    assert loaded.pos(("g", 1)) == at(7, 8)


def test_coerce_root_scalar():
    loaded = load_yaml("42\n", F)
    assert coerce_to_schema_strings(loaded, [()]) == 1
    assert loaded.data == "42"


# -- where a double-quoted value's characters are in the file ----------------------------


def _line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of ``text[index]``."""
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


@pytest.mark.parametrize("source", [
    r'a \"b\" @',                 # \" : two characters for one
    r'a \\ @',                    # \\
    r'a \n b @',                  # \n: the value's line 2
    r'a \t @',
    r'a \x41 @',                  # four for one
    r'a \u00e9 @',                # six for one
    r'a \U0001F0A1 @',            # ten for one
    r'\x41\u00e9\"\\ @',          # escapes side by side
    'a\n  b\n\n  c \\x41 @',      # folds: a break is a space, a blank line a break; then an escape
    'a \\\n  b\\x41 @',           # an escaped line break is nothing
])
def test_a_double_quoted_values_character_after_escapes_is_placed_at_its_column(source):
    # Was: each character matched to its next occurrence in the source, so an escape's
    # width threw later places off (`\x6fver + foo`: the `o` found in `foo`).
    text = f'f: "{source}"\n'
    loaded = load_yaml(text, F)
    value = loaded.data["f"]
    start = loaded.content_pos(("f",))
    for back in (0, 1):  # the `@` and the blank before it, which no search in the source can find
        line, col = _line_col(value, value.index("@") - back)
        assert start.shifted(line, col) == at(*_line_col(text, text.index("@") - back))


@pytest.mark.parametrize("escape, char", [(r"\"", '"'), (r"\\", "\\"), (r"\x41", "A"), (r"\u00e9", "é"),
                                          (r"\t", "\t"), (r"\n", "\n")])
def test_an_escaped_character_is_placed_at_its_backslash(escape, char):
    text = f'f: "ab {escape} c"\n'
    loaded = load_yaml(text, F)
    value = loaded.data["f"]
    assert loaded.content_pos(("f",)).shifted(1, value.index(char) + 1) == at(1, text.index("\\") + 1)


def test_the_end_of_a_double_quoted_value_is_its_closing_quote():
    text = 'f: "a \\x41\\\n  b"\n'
    loaded = load_yaml(text, F)
    assert loaded.content_pos(("f",)).shifted(1, len(loaded.data["f"]) + 1) == at(2, 4)

"""Tests for bidcompiler.yamlload: core-schema scalars, positions, duplicate keys."""

from __future__ import annotations

import json
import pickle
import textwrap
from pathlib import Path

import pytest
import yaml
from fuzzing import FUZZ, scaled
from hypothesis import given, settings, strategies as st

from bidcompiler import yamlload
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


# -- the C path (libyaml's scanner and parser) reads as the pure-Python path does ---------




ROOT = Path(__file__).resolve().parents[1]
SHIPPED_YAML = sorted((ROOT / "variants").glob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml"))


def _tree(node):
    """Everything of a node tree the loader reads: kinds, tags, values, styles, marks (index,
    line, column).  A block collection's flow_style by its truth: PyYAML's parser says None for
    an indentless sequence (``key:`` then ``- item`` in the key's column), libyaml False, both
    meaning block style (no code tells them apart)."""
    if node is None:
        return None
    marks = tuple((m.index, m.line, m.column) for m in (node.start_mark, node.end_mark))
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", type(node).__name__, node.tag, node.value, node.style, marks)
    if isinstance(node, yaml.MappingNode):
        items = [(_tree(k), _tree(v)) for k, v in node.value]
    else:
        items = [_tree(item) for item in node.value]
    return (type(node).__name__, node.tag, bool(node.flow_style), marks, items)


def _same_either_way(text: str) -> None:
    """When the C path reads ``text``, the pure-Python path reads it too, to the same tree."""
    fast, root = yamlload._compose_fast(text)
    if fast:
        assert _tree(root) == _tree(yamlload._compose_pure(text, F))


def test_the_c_path_reads_every_shipped_file_as_the_pure_path_does():
    assert len(SHIPPED_YAML) > 40
    for path in SHIPPED_YAML:
        text = path.read_text(encoding="utf-8")
        fast, root = yamlload._compose_fast(text)
        assert fast == yaml.__with_libyaml__, path  # the shipped files are read by libyaml where it is
        if fast:
            assert _tree(root) == _tree(yamlload._compose_pure(text, str(path))), path


EDITS = ["{", "}", "[", "]", ":", ": ", "?", "? ", " :", "&a ", "*a", "!", "! ", "!tag ", "!!str ", "!!int ", "---\n", "...\n", "- ", "? ",
         "#", "'", '"', "|", "|-", ">+", "%YAML 1.2\n", "%TAG ! x\n", "\\", "\n", " ", "  ", "é", "😀", ",",
         "@", "`", '"\\x41\\u00e9"', "- - ", "{a: [b, {c: d}]}", "&a [*a]", "a" * 1100, "\t", "\r", "\x00"]


@settings(FUZZ, max_examples=scaled(400))
@given(st.data())
def test_the_c_path_reads_edited_shipped_files_as_the_pure_path_does(data):
    text = SHIPPED_TEXTS[data.draw(st.integers(0, len(SHIPPED_TEXTS) - 1))]
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        edit = data.draw(st.sampled_from(["insert", "insert", "delete", "indent", "char"]))
        if edit == "insert":
            text = text[:i] + data.draw(st.sampled_from(EDITS)) + text[i:]
        elif edit == "delete":
            text = text[:i] + text[i + data.draw(st.integers(1, 30)):]
        elif edit == "indent":
            lines = text.split("\n")
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[j] = " " * data.draw(st.integers(0, 6)) + lines[j].lstrip()
            text = "\n".join(lines)
        else:
            text = text[:i] + data.draw(st.characters(exclude_categories=["Cs"])) + text[i:]
    _same_either_way(text)


SHIPPED_TEXTS = [p.read_text(encoding="utf-8") for p in SHIPPED_YAML]


def _alias_bomb(levels: int) -> str:
    parts = ["&a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    parts += [f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "[" + ", ".join(parts) + "]"


# Hostile and malformed text: each is refused (or read) with the same messages and positions
# whether libyaml is there or not.
HOSTILE = [
    "play: " + "[" * 2000 + "1" + "]" * 2000 + "\n",
    "play: " + "{a: " * 2000 + "1" + "}" * 2000 + "\n",
    "play:\n" + "".join("  " * i + "- \n" for i in range(1, 100)),
    "source: " + "[" * 63 + "]" * 63 + "\n",  # at the limit: read
    "bomb: " + _alias_bomb(9) + "\n",
    "x: " + _alias_bomb(5) + "\n",
    "a: &x [*x]\n",
    "a: *nope\n",
    "a: &x 1\nb: &x 2\n",
    'a: "abc\n',
    "a: [1, 2\n",
    "a:\n\tb: 1\n",
    "a: b: c\n",
    "a:\n  b: 1\n c: 2\n",
    "- a\nb: c\n",
    "a: 1\n  - b\n",
    "a: 1\x00\n",
    "\ufeffa: 1\n",
    "a: 1\r\nb: 2\r\n",
    "a: 1\x85b: 2\n",
    "k" * 1100 + ": v\n",
    "%YAML 2.0\n---\na: 1\n",
    "--- a\n--- b\n",
    "a: !!int x\n",
    "a: !custom x\n",
    "a: !\n",  # a bare "!" on nothing: libyaml reads the text '', PyYAML nothing
    "- !\n",
    "x: [! , a]\n",
    "x: {! : a}\n",
    'a: "\\U00110000"\n',  # escapes that name no character
    'a: "\\UFFFFFFFF"\n',
    'a: "\\uD800"\n',
    'a: "\\uD83D\\uDE00"\n',
    "a: 99999999999999999999\n",
    "? [a]\n: b\n",
    "a: 1\na: 2\n",
    "items: [" + ", ".join(str(i) for i in range(300)) + "]\n",
    "".join(f"k{i}: {i}\n" for i in range(300)),
    "a: |\n  x\n   y\n",
    "a: 'it''s'\nb: >\n  folded\n  text\n",
    "",
    "a: 1",  # no final line break
]


def _outcome(text: str):
    try:
        loaded = load_yaml(text, F)
    except CompileError as exc:
        return "refused", [(d.pos, d.message, d.source_line, d.related, d.hint) for d in exc.diagnostics]
    return "read", loaded.data, _tree(loaded.root)


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_text_gets_the_same_answer_with_or_without_libyaml(text, monkeypatch):
    either = _outcome(text)
    monkeypatch.setattr(yamlload, "_CoreSchemaCLoader", None)  # as when PyYAML has no libyaml
    assert yamlload._compose_fast(text) == (False, None)
    assert _outcome(text) == either


def test_the_nesting_limit_holds_on_the_c_path_too():
    # The composer (Python, shared) counts the depth whichever parser feeds it; far deeper,
    # libyaml's own limit (1,000 levels) refuses first.  Either way the C path refuses without
    # reaching any recursion limit, and the message given is the pure path's.
    for depth, c_says in ((100, "nested too deeply"), (100_000, "exceeded maximum nesting depth")):
        text = "play: " + "[" * depth + "]" * depth + "\n"
        if yaml.__with_libyaml__:
            loader = yamlload._CoreSchemaCLoader(text)
            with pytest.raises(yaml.MarkedYAMLError, match=c_says):
                loader.get_single_node()
            assert yamlload._compose_fast(text) == (False, None)
        [diagnostic] = errors_of(text)
        assert diagnostic.message.startswith("nested too deeply") and diagnostic.pos == at(1, len("play: ") + 64)


@pytest.mark.parametrize("text, col", [('a: "\\U00110000"\n', 7), ('a: "x\\UFFFFFFFF"\n', 8)])
def test_an_escape_beyond_unicode_is_refused_at_its_digits(text, col):
    # PyYAML's scanner called chr() on it unchecked: an internal error (ValueError,
    # OverflowError) before; now one positioned message.
    (diag,) = errors_of(text)
    assert "names no character" in diag.message and "\\U0010FFFF" in diag.message
    assert (diag.pos.line, diag.pos.col) == (1, col)


@pytest.mark.parametrize("text", ['a: "\\uD800"\n', 'a: "\\uD83D\\uDE00"\n', 'a: [x, "\\udfff"]\n'])
def test_an_escape_naming_half_a_character_is_refused(text):
    # Before, the lone surrogate went into the data, and from there into files and terminals
    # that cannot encode it.
    (diag,) = errors_of(text)
    assert "half of a UTF-16 pair" in diag.message and "write the character itself" in diag.message
    assert diag.pos.line == 1


def test_a_whist_string_naming_half_a_character_is_refused_too():
    # .whist strings are JSON strings: a pair of escapes is one character there, half of one is refused.
    from bidcompiler.pipeline import load_layer_text

    head = "variant w\nextends standard\ntitle "
    assert load_layer_text(head + '"a \\uD83D\\uDE00"\n', "w.whist").data["title"] == "a \U0001F600"
    with pytest.raises(CompileError) as info:
        load_layer_text(head + '"a \\uD800 b"\n', "w.whist")
    (diag,) = info.value.diagnostics
    assert (diag.pos.line, diag.pos.col) == (3, 7) and "half of a UTF-16 pair" in diag.message


def test_an_escape_for_a_whole_character_is_read():
    assert load('a: "\\U0001F600 \\u00e9"\n').data == {"a": "\U0001F600 é"}


def test_a_bare_tag_on_nothing_is_nothing_either_way():
    # libyaml reads "a: !" as the text ''; PyYAML (the language this loader keeps) as nothing.
    assert load("a: !\n").data == {"a": None}
    assert yamlload._compose_fast("a: !\n") == (False, None)

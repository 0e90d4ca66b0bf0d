"""Tests for bidcompiler.schemacheck: positioned, human messages; string coercion."""

from __future__ import annotations

import textwrap

from bidcompiler.errors import SourcePos
from bidcompiler.schemacheck import validate
from bidcompiler.yamlload import load_yaml

F = "v.yaml"

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "deal"],
    "properties": {
        "name": {"type": "string"},
        "dealer": {"type": "string"},
        "deal": {
            "type": "object",
            "additionalProperties": False,
            "required": ["cards", "kitty"],
            "properties": {"cards": {"type": "integer"}, "kitty": {"type": "integer"}},
        },
        "trumps": {"type": "array", "items": {"enum": ["hearts", "spades", "no-trump"]}},
        "labels": {"type": "array", "items": {"type": "string"}},
        "counts": {"type": "array", "items": {"type": "integer"}},
        "note": {"type": "string"},
    },
}


def check(text: str, schema: dict = SCHEMA):
    loaded = load_yaml(textwrap.dedent(text), F)
    return loaded, validate(loaded, schema)


def at(line: int, col: int) -> SourcePos:
    return SourcePos(F, line, col)


def test_valid_document_has_no_diagnostics():
    _, diags = check("name: x\ndeal: {cards: 12, kitty: 4}\n")
    assert diags == []


def test_required_points_at_the_mapping_and_names_the_key():
    _, diags = check(
        """\
        name: x
        deal:
          cards: 12
        """
    )
    assert [(d.pos, d.message) for d in diags] == [(at(2, 1), "missing required key 'kitty'")]


def test_required_at_root_points_at_the_root_mapping():
    _, diags = check("# comment\nname: x\n")
    assert [(d.pos, d.message) for d in diags] == [(at(2, 1), "missing required key 'deal'")]


def test_unknown_key_points_at_the_key_and_suggests():
    _, diags = check(
        """\
        name: x
        deal: {cards: 12, kitty: 4}
        dealr: north
        zzzzzz: 1
        """
    )
    assert [(d.pos, d.message) for d in diags] == [
        (at(3, 1), "unknown key 'dealr' (did you mean 'dealer'?)"),
        (at(4, 1), "unknown key 'zzzzzz'"),
    ]


def test_enum_message_and_position():
    _, diags = check("name: x\ndeal: {cards: 12, kitty: 4}\ntrumps: [hearts, clubs]\n")
    assert [(d.pos, d.message) for d in diags] == [
        (at(3, 18), "'clubs' is not one of: hearts, spades, no-trump"),
    ]


def test_type_message_and_position():
    _, diags = check(
        """\
        name: x
        deal:
          cards: abc
          kitty:
        """
    )
    assert [(d.pos, d.message) for d in diags] == [
        (at(3, 10), "expected an integer, found 'abc'"),
        (at(4, 9), "expected an integer, found nothing"),
    ]


def test_every_error_reported_at_once_sorted_by_position():
    _, diags = check(
        """\
        dealr: north
        deal:
          cards: many
          extra: 1
        trumps: [clubs]
        labels: [[1]]
        """
    )
    assert [(d.pos.line, d.message) for d in diags] == [
        (1, "missing required key 'name'"),
        (1, "unknown key 'dealr' (did you mean 'dealer'?)"),
        (2, "missing required key 'kitty'"),
        (3, "expected an integer, found 'many'"),
        (4, "unknown key 'extra'"),
        (5, "'clubs' is not one of: hearts, spades, no-trump"),
        (6, "expected a string, found a list"),
    ]


def test_yaml_11_words_stay_strings_and_numbers_become_strings_only_where_wanted():
    loaded, diags = check(
        """\
        name: 10
        deal: {cards: 10, kitty: 4}
        labels: [no, yes, T, 10, 1.50, true, ~]
        counts: [10, 11]
        note: 2024-01-01
        """
    )
    assert diags == []
    assert loaded.data["name"] == "10"
    assert loaded.data["deal"] == {"cards": 10, "kitty": 4}
    assert loaded.data["labels"] == ["no", "yes", "T", "10", "1.50", "true", "~"]
    assert loaded.data["counts"] == [10, 11]
    assert loaded.data["note"] == "2024-01-01"


def test_quoted_number_where_an_integer_is_wanted_is_an_error():
    loaded, diags = check('name: x\ndeal: {cards: "12", kitty: 4}\n')
    # It says why a 12 is not a number: the quotes made it text.
    assert [d.message for d in diags] == ["expected an integer, found the text '12' (the quotes make it text: "
                                          "write 12 without them)"]
    assert loaded.data["deal"]["cards"] == "12"
    loaded, diags = check("name: x\ndeal: {cards: 12, kitty: 4}\nflag: 'true'\n", {
        **SCHEMA, "properties": {**SCHEMA["properties"], "flag": {"type": "boolean"}}})
    assert [d.message for d in diags] == ["expected true or false, found the text 'true' (the quotes make it "
                                          "text: write true without them)"]
    # Only where the word unquoted belongs: `cards: "true"` is no integer either way (was told to
    # write true without the quotes).
    _, diags = check('name: x\ndeal: {cards: "true", kitty: 4}\n')
    assert [d.message for d in diags] == ["expected an integer, found 'true'"]


def test_quoted_number_where_a_word_or_a_number_belongs_is_told_of_its_quotes():
    """`first_dealer: "2"` (random, or a seat): was "'2' is not one of: random"."""
    schema = {"type": "object", "properties": {"first_dealer": {
        "anyOf": [{"enum": ["random"]}, {"type": "integer", "minimum": 0}]}}}
    _, diags = check('first_dealer: "2"\n', schema)
    assert [d.message for d in diags] == ["expected an integer or random, found the text '2' (the quotes "
                                          "make it text: write 2 without them)"]
    # A word that is none of them is told every allowed form (was "'rnd' is not one of: random"), and keeps its
    # did-you-mean.
    _, diags = check('first_dealer: "rnd"\n', schema)
    assert [d.message for d in diags] == ["expected an integer or random, found 'rnd' (did you mean 'random'?)"]


def test_a_plain_value_where_a_block_belongs_names_the_blocks_settings():
    """`deal: 12`: was only "expected a mapping, found 12"."""
    _, diags = check("name: x\ndeal: 12\n")
    assert [d.message for d in diags] == ["expected a mapping, found 12 (a block of cards, kitty)"]


def test_empty_value_where_a_string_is_wanted_is_not_coerced():
    loaded, diags = check("name:\ndeal: {cards: 1, kitty: 1}\n")
    assert [(d.pos, d.message) for d in diags] == [(at(1, 6), "expected a string, found nothing")]
    assert loaded.data["name"] is None


def test_enum_of_strings_accepts_plain_numbers():
    schema = {"type": "object", "properties": {"level": {"enum": ["7", "8", "no-trump"]}}}
    loaded, diags = check("level: 7\n", schema)
    assert diags == [] and loaded.data == {"level": "7"}


ALT_SCHEMA = {
    "type": "object",
    "properties": {
        "rules": {
            "type": "array",
            "items": {
                "oneOf": [
                    {"type": "string"},
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["kind", "points"],
                        "properties": {"kind": {"const": "bonus"}, "points": {"type": "integer"}},
                    },
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["kind", "label"],
                        "properties": {"kind": {"const": "label"}, "label": {"type": "string"}},
                    },
                ]
            },
        }
    },
}


def test_one_of_reports_the_closest_alternative():
    _, diags = check(
        """\
        rules:
          - kind: bonus
            points: lots
          - kind: label
          - [1]
        """,
        ALT_SCHEMA,
    )
    assert [(d.pos, d.message) for d in diags] == [
        (at(3, 13), "expected an integer, found 'lots'"),
        (at(4, 5), "missing required key 'label'"),
        (at(5, 5), "expected a string or a mapping, found a list"),
    ]
    assert not any("valid under" in d.message for d in diags)


def test_one_of_coerces_when_only_a_string_alternative_fits():
    loaded, diags = check("rules:\n  - 10\n  - kind: label\n    label: 5\n", ALT_SCHEMA)
    assert diags == []
    assert loaded.data["rules"] == ["10", {"kind": "label", "label": "5"}]


def test_one_of_matching_twice():
    schema = {"oneOf": [{"type": "integer"}, {"type": "number"}]}
    _, diags = check("3\n", schema)
    assert [d.message for d in diags] == ["matches more than one of the allowed forms; make it unambiguous"]


def test_messages_stay_short_for_big_values():
    schema = {"type": "object", "properties": {"big": {"type": "array", "maxItems": 1}}}
    # 200: long, yet within the loader's own limit on list lengths (yamlload.MAX_ITEMS).
    _, diags = check("big: [" + ", ".join(str(i) for i in range(200)) + "]\n", schema)
    assert [d.message for d in diags] == ["expected at most 1 item, found 200"]


def test_duplicate_diagnostics_are_removed():
    # Both allOf branches report the same problem at the same place.
    schema = {"allOf": [{"required": ["a"]}, {"required": ["a"]}]}
    _, diags = check("b: 1\n", schema)
    assert [d.message for d in diags] == ["missing required key 'a'"]


def test_a_block_with_a_mistake_is_told_its_mistake_not_the_words_the_setting_also_takes():
    """`show: {contracts: [nt]}` where `show` is a word or a block: was told "a mapping is not one
    of: never, auction" (the words' form, one error against the block's two), not the 'nt'."""
    schema = {"type": "object", "properties": {"show": {"anyOf": [
        {"enum": ["never", "auction", None]},
        {"type": "object", "additionalProperties": False, "required": ["when"],
         "properties": {"when": {"enum": ["deal", "declaration"]},
                        "contracts": {"type": "array", "items": {"enum": ["suit", "notrump"]}}}}]}}}
    _, diags = check("show: {contracts: [nt]}\n", schema)
    assert [(d.pos, d.message) for d in diags] == [
        (at(1, 1), "missing required key 'when'"),
        (at(1, 20), "'nt' is not one of: suit, notrump"),
    ]
    _, diags = check("show: always\n", schema)  # a word is still told the words
    assert [d.message for d in diags] == ["expected a mapping or never or auction or null, found 'always'"]


def test_one_word_where_a_list_belongs_is_told_how_a_list_of_one_is_written():
    """`redeal_without: A` in YAML (the .whist syntax reads one word as a list of one, YAML does
    not): was "expected a list or null, found 'A'" and no more."""
    schema = {"type": "object", "properties": {
        "without": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        "suits": {"type": "array", "items": {"type": "string"}},
        "flag": {"type": "array"}}}
    _, diags = check("without: A\nsuits: S\nflag: true\n", schema)
    assert [d.message for d in diags] == [
        "expected a list or null, found 'A' (a list of one is written [A])",
        "expected a list, found 'S' (a list of one is written [S])",
        "expected a list, found true",  # a truth value is no word of a list
    ]


def test_a_word_of_the_list_form_alone_is_told_how_a_list_of_one_is_written():
    """`tie: first-from-dealers-left` (a word, or a list of tie-breaks; that word is only an item of
    the list) said "expected a list or declarer or higher, found ..." with no hint; a word that is
    no item of the list (`tie: foo`) is not told one, nor where the items are reached by `$ref`."""
    schema = {"type": "object", "$defs": {"breaks": {"enum": ["declarer", "higher", "last"]}}, "properties": {
        "tie": {"oneOf": [{"enum": ["declarer", "higher"]},
                          {"type": "array", "items": {"$ref": "#/$defs/breaks"}}]}}}
    _, diags = check("tie: last\n", schema)
    assert [d.message for d in diags] == [
        "expected a list or declarer or higher, found 'last' (a list of one is written [last])"]
    _, diags = check("tie: foo\n", schema)
    assert [d.message for d in diags] == ["expected a list or declarer or higher, found 'foo'"]


def test_one_word_where_a_list_of_blocks_or_lists_belongs_is_not_told_a_list_of_one():
    """`strains: uptown` (a list of blocks) and `ranking: uptown` (a list of lists) were told
    "(a list of one is written [uptown])", and `[uptown]` is refused too: the items are no words.
    A word where the items are numbers likewise; a number where they are texts is told (a rank 9),
    and a word inside the list of lists still is."""
    schema = {"type": "object", "$defs": {"strain": {"type": "object"}}, "properties": {
        "strains": {"type": "array", "items": {"$ref": "#/$defs/strain"}},
        "ranking": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        "levels": {"type": "array", "items": {"type": "integer"}},
        "without": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        "either": {"type": "array", "items": {"anyOf": [{"type": "object"}, {"type": "string"}]}}}}
    _, diags = check("strains: uptown\nranking: uptown\nlevels: high\nwithout: 9\neither: up\n", schema)
    assert [d.message for d in diags] == [
        "expected a list, found 'uptown'",
        "expected a list, found 'uptown'",
        "expected a list, found 'high'",
        "expected a list or null, found 9 (a list of one is written [9])",
        "expected a list, found 'up' (a list of one is written [up])",
    ]
    _, diags = check("ranking: [uptown]\n", schema)
    assert [d.message for d in diags] == ["expected a list, found 'uptown' (a list of one is written [uptown])"]

"""The rule vocabulary: every setting's default and words live once, in the schema.

``rules`` and ``diff`` of every shipped file are pinned to golden files written by
the code from before the words moved (``tests/golden_words.py`` makes them).
"""

from __future__ import annotations

import pytest

from golden_words import GOLDEN, case_name, cases, render

CASES = cases()


@pytest.mark.parametrize("spec,sets", CASES, ids=[case_name(*c) for c in CASES])
def test_rules_and_diff_words_are_unchanged(spec, sets):
    golden = GOLDEN / f"{case_name(spec, sets)}.txt"
    assert golden.exists(), f"no golden file for {golden.name}: run python tests/golden_words.py"
    assert render(spec, sets) == golden.read_text(encoding="utf-8")


# ----------------------------------------------------------------- the vocabulary itself

import json  # noqa: E402

import yaml  # noqa: E402

from bidcompiler import build, ir, resources, vocabulary  # noqa: E402
from bidcompiler.irdiff import diff  # noqa: E402
from bidcompiler.pipeline import compile_file, compile_variant, shipped_variants  # noqa: E402
from bidcompiler.rulebook import rulebook  # noqa: E402

# Settings whose every value is said by a sentence made from several settings at once
# (the players and their sides; whose score a multiplier multiplies), not one per value.
# kitty.show's when and contracts are said together, under kitty.show (its shorthand
# word, else "when/contract").
# A seat (definitions.seat) is said in the rulebook by its noun, its x-words.
SAID_WITH_OTHERS = {"sides", "scoring.multiply[]", "kitty.show.when", "kitty.show.contracts[]",
                    "play.first_lead", "kitty.taker", "auction.must_bid[]"}
# List items diff shows as written (suit letters; declarer, defenders): their words are the rulebook's.
DIFF_SHOWS_AS_WRITTEN = {"deck.suits[]", "scoring.multiply[]", "kitty.show.contracts[]"}
# Settings that describe a file, not the game: no default, no words.
LAYER_KEYS = {"kind", "extends", "description", "name"}
# Not settings but instructions to the merging of layers (take this strain away).
MERGE_MARKERS = {"auction.strains[*].remove"}


def _settings():
    return vocabulary.vocabulary().by_schema.items()


def _enum_settings():
    for path, setting in _settings():
        # A setting written in several forms (a word or a mapping): the words' values too.
        forms = [setting.node] + [vocabulary.resolve(vocabulary.schema(), f) for f in setting.node.get("anyOf", ())]
        values = [v for form in forms for v in form.get("enum", ()) if isinstance(v, str)]
        if values and path not in LAYER_KEYS:
            yield path, setting, values


def test_every_enum_value_has_its_words():
    missing = []
    for path, setting, values in _enum_settings():
        node = setting.node
        for value in values:
            # diff: a setting with one value never differs, so it needs no diff words.
            if len(values) > 1 and path not in DIFF_SHOWS_AS_WRITTEN and value not in node.get("x-words", {}):
                missing.append(f"{path}: x-words has no '{value}'")
            if path not in SAID_WITH_OTHERS and value not in node.get("x-rulebook", {}):
                missing.append(f"{path}: x-rulebook has no '{value}'")
    assert not missing, "\n".join(missing)


def test_every_word_is_for_a_value_the_setting_takes():
    # A word for a value the schema does not allow is a leftover; "none" is the IR's
    # own value where a file writes nothing (no kitty, no extra cards).
    for path, setting, values in _enum_settings():
        for key in ("x-words", "x-rulebook"):
            # kitty.show says a (when, contract) pair without a word as "when/contract".
            said = {word.split("/")[0] for word in setting.node.get(key, {})}
            whens = vocabulary.vocabulary().by_schema.get(path + ".when")
            allowed = set(values) | {"none"} | set(whens.node["enum"] if whens is not None else ())
            assert said <= allowed, (path, key)


def _composed_required() -> set[str]:
    """The settings a composed variant must give (build.check_complete), as schema paths."""
    paths = set(build.REQUIRED_TOP) | {f"auction.levels.{k}" for k in build.REQUIRED_LEVELS}
    paths |= {f"{section}.{key}" for section, keys in build.REQUIRED.items() for key in keys}
    paths |= {f"auction.strains[*].{key}" for key in build.REQUIRED_STRAIN}
    for path, setting in _settings():  # what a form of a setting must say ({when} of kitty.show)
        for form in setting.node.get("anyOf", ()):
            paths |= {f"{path}.{key}" for key in vocabulary.resolve(vocabulary.schema(), form).get("required", ())}
    strain = vocabulary.schema()["definitions"]["strain"]
    complete = vocabulary.schema()["then"]["required"]  # what a variant that extends nothing gives
    return paths | set(complete) | {f"auction.strains[*].{key}" for key in strain["required"]}


def test_every_setting_has_a_default_or_is_required():
    required = _composed_required()
    by_schema = vocabulary.vocabulary().by_schema
    lacking = []
    for path, setting in _settings():
        node = setting.node
        parent = by_schema.get(path.rpartition(".")[0])
        if parent is not None and ("x-default-derived" in parent.node or "default" in parent.node):
            continue  # the whole has its default (a strain's levels: the auction's; play.roles: none)
        element = path.endswith("]")  # an item of a list or a mapping: its container has the default
        section = "properties" in node  # a section's settings have the defaults
        if element or section or path in LAYER_KEYS | MERGE_MARKERS or path.startswith("orders."):
            continue
        if not ("default" in node or "x-default-derived" in node or path in required):
            lacking.append(path)
    assert not lacking, f"settings with neither a default nor required: {lacking}"


def test_the_derived_defaults_are_the_builders():
    marked = {path for path, setting in _settings() if "x-default-derived" in setting.node}
    assert marked == set(build.DERIVED_DEFAULTS)


# Defaults the IR keeps as () ("none", "every contract"), at their IR paths.
EMPTY_IN_IR = {"play.roles": "play.roles", "kitty.show.contracts": "kitty.show_contracts"}


def _ir_value(variant, ir_path: str):
    """The values at an IR path (one per strain under ``[*]``)."""
    values = [variant]
    for part in ir_path.split("."):
        if part.endswith("[*]"):
            values = [item for v in values for item in getattr(v, part[:-3])]
        else:
            values = [getattr(v, part) for v in values]
    return values


def test_the_builders_defaults_are_the_schemas(tmp_path):
    # standard with every setting that has a default left out: what the builder fills
    # in is the schema's default, read back from the IR.
    data = yaml.safe_load((resources.variants_dir() / "standard.yaml").read_text(encoding="utf-8"))
    # The jokers stay: standard's deal counts them.
    defaults = {path: s for path, s in _settings()
                if "default" in s.node and path not in LAYER_KEYS | {"deck.extra"}}
    for path in defaults:
        parts = path.replace("[*]", "").split(".")
        holders = [data]
        for part in parts[:-1]:
            holders = [h.get(part) for h in holders if isinstance(h, dict)]
            holders = [x for h in holders for x in (h if isinstance(h, list) else [h])]
        for holder in holders:
            if isinstance(holder, dict):
                holder.pop(parts[-1], None)
    (tmp_path / "bare.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    variant = compile_file(tmp_path / "bare.yaml")
    checked = 0
    for path, setting in defaults.items():
        want = setting.node["default"]
        if path == "order_aliases":  # a mapping of every order's aliases: each order has none
            assert want == {} and all(order.aliases == () for order in variant.orders)
            checked += 1
            continue
        if path in EMPTY_IN_IR:
            assert _ir_value(variant, EMPTY_IN_IR[path]) == [()], path
            checked += 1
            continue
        for got in _ir_value(variant, setting.ir_paths[0]):
            if isinstance(got, ir.Formula):
                got = got.text
                want = str(want).lower()
            if isinstance(got, tuple) and isinstance(want, str) \
                    and isinstance(setting.node.get("x-shorthand", {}).get(want), list):
                want = setting.node["x-shorthand"][want]  # a shorthand word for a list (game.tie)
            assert got == (tuple(want) if isinstance(want, list) else want), path
            checked += 1
    assert checked >= len(defaults)


@pytest.fixture
def schema_copy(tmp_path, monkeypatch):
    """A copy of the schema the vocabulary reads instead of the shipped one (edit it, then reload)."""
    copy = tmp_path / "variant.schema.json"
    copy.write_text(resources.schema_path().read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(resources, "schema_path", lambda: copy)
    vocabulary.clear_cache()
    yield copy
    vocabulary.clear_cache()


def _edit(path, change):
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    vocabulary.clear_cache()


def test_rules_and_diff_say_the_schemas_words(schema_copy):
    def reword(data):
        show = data["properties"]["kitty"]["properties"]["show"]
        show["x-rulebook"]["never"] = "Nobody peeks at the kitty."
        show["x-words"]["suit-contracts"] = "when a suit is trump"
        show["x-label"] = "who sees the kitty"
        data["properties"]["deal"]["properties"]["kitty"]["x-unit"] = "pasteboards"

    _edit(schema_copy, reword)
    assert "Nobody peeks at the kitty." in rulebook(compile_variant("standard"))
    lines = [d.line() for d in diff(compile_variant("standard"), compile_variant("standard+sport-kitty"))]
    assert lines == ["who sees the kitty: never -> when a suit is trump"]
    lines = [d.line() for d in diff(compile_variant("standard"), compile_variant("standard+no-kitty"))]
    assert any(line.startswith("kitty: 6 pasteboards -> 0 pasteboards") for line in lines), lines


def test_the_builder_fills_in_the_schemas_default(schema_copy):
    _edit(schema_copy, lambda data: data["properties"]["game"]["properties"]["rubber"].update(default=3))
    assert "rubber" not in json.dumps(yaml.safe_load(
        (resources.variants_dir() / "standard.yaml").read_text(encoding="utf-8")).get("game", {}))
    assert compile_variant("standard").game.rubber == 3


def test_the_schema_with_its_words_is_still_a_valid_schema():
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(vocabulary.schema())
    assert sorted(shipped_variants())  # and every shipped file still validates against it (compiles)
    for name in shipped_variants():
        compile_variant(name)


def test_a_layer_is_validated_once_even_when_values_are_mended(monkeypatch):
    # `10` in a rank list and in a strain's direction is read by YAML as a number; the
    # schema-guided walk mends them to text first, so one validation reports all.
    from bidcompiler import schemacheck
    from bidcompiler.pipeline import load_layer_text

    calls = []
    real = schemacheck._Validator.iter_errors
    monkeypatch.setattr(schemacheck._Validator, "iter_errors",
                        lambda self, *a, **k: (calls.append(1) if self.schema is vocabulary.schema() else None)
                        or real(self, *a, **k))
    text = ("extends: standard\nname: a\nauction:\n  redeal_without: [10, 9]\n"
            "  strains:\n    - {name: up, trump: suit, direction: [10]}\n")
    with pytest.raises(Exception) as caught:
        load_layer_text(text, "a.yaml")
    assert [str(d) for d in caught.value.diagnostics] == [
        "a.yaml:6:43: expected a name (lower case letters, digits and -), found '10'"]
    assert len(calls) == 1  # the whole layer went through the schema once

"""Every shipped YAML file starts with the editor modeline, and it points at the schema."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bidcompiler.cli import cli

ROOT = Path(__file__).resolve().parents[1]
YAML_FILES = sorted((ROOT / "variants").glob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml"))
MODELINE = "# yaml-language-server: $schema="


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.name)
def test_modeline_points_at_the_schema(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(MODELINE)
    target = (path.parent / first[len(MODELINE):].strip()).resolve()
    assert target == (ROOT / "bidcompiler" / "schema" / "variant.schema.json").resolve()


def test_schema_command_prints_the_schema_file():
    result = CliRunner().invoke(cli, ["schema"])
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    on_disk = json.loads((ROOT / "bidcompiler" / "schema" / "variant.schema.json").read_text(encoding="utf-8"))
    assert printed == on_disk
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"


DRAFT7_KEYWORDS = {
    "$schema", "$id", "$ref", "title", "description", "type", "properties", "required",
    "additionalProperties", "enum", "const", "items", "minItems", "maxItems", "uniqueItems",
    "minimum", "maximum", "pattern", "oneOf", "anyOf", "allOf", "not", "definitions", "default",
    "minProperties", "maxProperties", "minLength", "maxLength", "examples", "patternProperties",
    "if", "then", "else",
}


def _keywords(node, found):
    if isinstance(node, dict):
        for key, value in node.items():
            if key.startswith("x-"):
                # The rule vocabulary's annotations (bidcompiler.vocabulary): words and
                # defaults as data, which validators and editors of every draft ignore.
                continue
            found.add(key)
            if key in ("properties", "definitions", "patternProperties"):
                for sub in value.values():
                    _keywords(sub, found)
            else:
                _keywords(value, found)
    elif isinstance(node, list):
        for item in node:
            _keywords(item, found)


def test_schema_uses_only_keywords_draft7_also_knows():
    schema = json.loads((ROOT / "bidcompiler" / "schema" / "variant.schema.json").read_text(encoding="utf-8"))
    found = set()
    _keywords(schema, found)
    assert found <= DRAFT7_KEYWORDS, found - DRAFT7_KEYWORDS


def test_the_schemas_annotations_are_only_x_keywords_and_defaults():
    # What the vocabulary adds must not be taken for a keyword by an editor's draft-7
    # validator: its own keywords start with x-, and a default never constrains.
    from jsonschema import Draft7Validator

    schema = json.loads((ROOT / "bidcompiler" / "schema" / "variant.schema.json").read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    from bidcompiler.pipeline import load_layer_text

    for path in sorted((ROOT / "variants").glob("*.yaml")):
        data = load_layer_text(path.read_text(encoding="utf-8"), path.name).data  # ranks read as text
        assert not list(Draft7Validator(schema).iter_errors(data)), path.name

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

"""docs/settings.md: every setting of a variant file, made from the schema (its one description).

A player writing a house rule looks a setting up here rather than in the JSON Schema
``bidwhist schema`` prints: its path, what may be written, its default and its meaning,
all read from the schema through :mod:`bidcompiler.vocabulary`.  ``tests/test_authoring.py``
fails when the page and the schema disagree.

Run as a script to write the page: ``python tests/settings_reference.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PAGE = Path(__file__).resolve().parents[1] / "docs" / "settings.md"

HEAD = """\
# Every setting of a variant file

Made from the schema of variant files (`bidwhist schema`, the one place a setting is
described) by `tests/settings_reference.py`; a test keeps the two the same. A path such
as `kitty.show` is the block `kitty`, key `show` — in YAML `kitty: {show: …}`, in
`.whist` `kitty { show … }`; `auction.strains[*].trump` is the key `trump` of each
named strain (`strains { notrump { trump none } }`). A house rule writes only what it
changes; `~` (`remove KEY` in `.whist`) takes a setting away. The names formulas may use
are in the README ("Writing a house rule"); where house rules meet, see
[rule-combinations.md](rule-combinations.md).
"""


def _resolve(schema: dict, node: Any) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        target = schema["definitions"][node["$ref"].split("/")[-1]]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node if isinstance(node, dict) else {}


def _words(values) -> str:
    shown = ["`~`" if v is None else f"`{json.dumps(v) if isinstance(v, bool) else v}`" for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _values(schema: dict, node: dict) -> str:
    """What may be written for a setting, in a few words."""
    node = node if not node.get("$ref", "").endswith("/formula") else {"type": ["string", "integer", "boolean"]}
    node = _resolve(schema, node)
    if node.get("type") == ["string", "integer", "boolean"]:
        return "a formula"
    if "title" in node and "enum" not in node:
        return f"a {node['title']}"
    if "enum" in node:
        return _words(node["enum"])
    if "const" in node:  # `remove: true`, the one value the setting takes
        return _words([node["const"]])
    parts = []
    for branch in (*node.get("anyOf", ()), *node.get("oneOf", ())):
        branch = _resolve(schema, branch)
        if branch.get("type") == "object":
            parts.append("a block" if branch.get("properties") else "named terms (`name: formula`)")
        else:
            parts.append(_values(schema, branch))
    if parts:
        return "; or ".join(dict.fromkeys(p for p in parts if p))
    types = node.get("type")
    types = [types] if isinstance(types, str) else list(types or [])
    out = []
    for t in types:
        if t == "integer":
            low, high = node.get("minimum"), node.get("maximum")
            out.append("a whole number" + (f" {low}–{high}" if low is not None and high is not None else
                                           f" ≥ {low}" if low is not None else ""))
        elif t == "array":
            items = _resolve(schema, node.get("items", {}))
            inner = _values(schema, items) if items else "values"
            out.append(f"a list of {inner}" if "`" in inner else f"a list, each {inner}")
        elif t == "object":
            out.append("a block")
        elif t == "string":
            out.append("a word or text")
        elif t == "boolean":
            out.append("`true` or `false`")
        elif t == "null":
            out.append("`~`")
    return "; or ".join(out)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def render() -> str:
    """The page, from the schema."""
    from bidcompiler import vocabulary

    schema = vocabulary.schema()
    lines = [HEAD]
    section = None
    for path, setting in vocabulary.vocabulary().by_schema.items():
        if path.endswith("[]"):
            continue  # a list's items: said on the list's own row
        top = path.split(".")[0].split("[")[0]
        block = "." in path or "[" in path or setting.node.get("type") in ("object", ["object", "null"]) \
            or "properties" in setting.node
        heading = f"## `{top}`" if block else "## The file itself"
        if heading != section:
            section = heading
            lines += ["", heading, "", "| setting | what you write | default | meaning |", "|---|---|---|---|"]
        node = setting.node
        default = node.get("default", "")
        if "x-default-derived" in node:
            default = f"worked out: {node['x-default-derived']}"
        elif default != "":
            default = f"`{json.dumps(default) if not isinstance(default, str) else default}`"
        meaning = node.get("description") or node.get("x-label", "")
        lines.append(f"| `{path}` | {_cell(_values(schema, node))} | {_cell(default)} | {_cell(meaning)} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    (Path(sys.argv[1]) if len(sys.argv) > 1 else PAGE).write_text(render(), encoding="utf-8")

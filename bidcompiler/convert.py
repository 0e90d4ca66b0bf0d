"""Print one layer (a variant or house-rule file) in either surface syntax, canonically.

Both printers take the loaded, schema-checked data of a file — not the compiled
variant — so an overlay stays an overlay and ``extends`` stays ``extends``.  The
layout is fixed (key order as in the source, one setting per line, short blocks
on one line), so converting the same file always prints the same text, and
converting back and forth compiles to the same IR.
"""

from __future__ import annotations

import json
import re

from .compose import FORMULA_PATHS

MODELINE = "# yaml-language-server: $schema=../bidcompiler/schema/variant.schema.json"
HEADER_KEYS = ("kind", "name")
_WHIST_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
_WHIST_KEYWORDS = {"variant", "house-rule", "remove"}
# Strings YAML 1.1 tools would read as something else, quoted for other tools' sake.
_YAML_AMBIGUOUS = re.compile(r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|"
                             r"false|False|FALSE|null|Null|NULL|~|)$")
_YAML_PLAIN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_ ./+()<>=!*-]*$")
_YAML_FORMULA = re.compile(r"^[A-Za-z0-9_(][A-Za-z0-9_ ./+()<>=!*,-]*$")
_INLINE_WIDTH = 72
# Formulas are never written in flow style, where `,` would end them.
_FORMULA_SECTIONS = {p[:-1] for p in FORMULA_PATHS}


# --------------------------------------------------------------------------- .whist
def _whist_scalar(value) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    if _WHIST_WORD.match(text) and text not in _WHIST_KEYWORDS:
        return text
    return json.dumps(text, ensure_ascii=False)


def _whist_value(value, list_only: bool) -> str:
    if isinstance(value, list):
        if value and all(not isinstance(v, (list, dict)) for v in value) and (len(value) > 1 or list_only):
            return " ".join(_whist_scalar(v) for v in value)
        return _whist_brackets(value)
    return _whist_scalar(value)


def _whist_brackets(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_whist_brackets(v) for v in value) + "]"
    return _whist_scalar(value)


def _is_ladder(value) -> bool:
    return (isinstance(value, list) and value and (len(value) > 1 or len(value[0]) > 1)
            and all(isinstance(g, list) and g and all(isinstance(x, str) and _WHIST_WORD.match(x) for x in g)
                    for g in value))


def _whist_lines(data: dict, path: tuple, shape, indent: str) -> list[str]:
    lines = []
    for key, value in data.items():
        if not path and key in HEADER_KEYS:
            continue
        p = path + (key,)
        if value is None:
            lines.append(f"{indent}remove {key}")
        elif p in FORMULA_PATHS and not isinstance(value, (dict, list)):
            text = value if isinstance(value, str) else _whist_scalar(value)
            lines.append(f"{indent}{key} = {' '.join(str(text).split())}")
        elif isinstance(value, dict):
            lines.extend(_whist_block(key, value, p, shape, indent))
        elif isinstance(value, list) and value and all(isinstance(v, dict) and "name" in v for v in value):
            lines.append(f"{indent}{key} {{")
            for item in value:
                rest = {k: v for k, v in item.items() if k != "name"}
                lines.extend(_whist_block(str(item["name"]), rest, p + (0,), shape, indent + "  "))
            lines.append(f"{indent}}}")
        elif _is_ladder(value):
            lines.append(f"{indent}{key} " + " < ".join(" = ".join(g) for g in value))
        else:
            lines.append(f"{indent}{key} {_whist_value(value, shape(p))}")
    return lines


def _whist_block(key: str, value: dict, path: tuple, shape, indent: str) -> list[str]:
    inner = _whist_lines(value, path, shape, "")
    one_line = f"{indent}{key} {{ {'; '.join(inner)} }}" if inner else f"{indent}{key} {{ }}"
    if all("{" not in line for line in inner) and len(one_line) <= _INLINE_WIDTH:
        return [one_line]
    return [f"{indent}{key} {{", *_whist_lines(value, path, shape, indent + "  "), f"{indent}}}"]


def to_whist(data: dict, list_only=lambda path: True) -> str:
    """The ``.whist`` text of one layer's data.

    ``list_only(path)`` says whether the schema wants only a list at ``path`` (then
    a one-item list can be written as a bare value); pass the schema-aware version
    from :func:`schema_shape`.
    """
    kind = "house-rule" if data.get("kind") == "house-rule" else "variant"
    lines = [f"{kind} {_whist_scalar(data.get('name', 'unnamed'))}"]
    lines.extend(_whist_lines(data, (), list_only, ""))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- YAML
def _yaml_scalar(value) -> str:
    if value is None:
        return "~"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    if _YAML_AMBIGUOUS.match(text) or not _YAML_PLAIN.match(text) or ": " in text or " #" in text \
            or text != text.strip():
        return json.dumps(text, ensure_ascii=False)
    return text


def _yaml_flow(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml_flow(v)}" for k, v in value.items()) + "}"
    return _yaml_scalar(value)


def _flat(value) -> bool:
    """Short enough and simple enough for one line of flow style."""
    if isinstance(value, list):
        return all(not isinstance(v, dict) and _flat(v) for v in value)
    if isinstance(value, dict):
        return all(not isinstance(v, (dict, list)) for v in value.values()) and len(value) <= 3
    return True


def _yaml_formula(value) -> str:
    """A formula as YAML: plain text wherever YAML allows, whatever it looks like."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if _YAML_FORMULA.match(text) and ": " not in text and " #" not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _yaml_lines(data: dict, indent: str, path: tuple = ()) -> list[str]:
    lines = []
    for key, value in data.items():
        p = path + (key,)
        if p in FORMULA_PATHS and value is not None and not isinstance(value, (dict, list)):
            lines.append(f"{indent}{key}: {_yaml_formula(value)}")
        elif isinstance(value, dict) and value and (p in _FORMULA_SECTIONS
                                                    or not (_flat(value) and len(_yaml_flow(value)) < 40)):
            lines.append(f"{indent}{key}:")
            lines.extend(_yaml_lines(value, indent + "  ", p))
        elif isinstance(value, list) and value and any(isinstance(v, dict) for v in value):
            lines.append(f"{indent}{key}:")
            for item in value:
                inner = _yaml_lines(item, indent + "    ")
                inner[0] = indent + "  - " + inner[0].lstrip()
                lines.extend(inner)
        else:
            lines.append(f"{indent}{key}: {_yaml_flow(value)}")
    return lines


def to_yaml(data: dict) -> str:
    """The YAML text of one layer's data, starting with the schema modeline."""
    ordered = {k: data[k] for k in ("name", "kind") if k in data}
    ordered.update((k, v) for k, v in data.items() if k not in ordered)
    return MODELINE + "\n" + "\n".join(_yaml_lines(ordered, "")) + "\n"


# --------------------------------------------------------------------------- schema help
def schema_shape(schema: dict):
    """A function telling whether the schema wants only a list at a data path."""
    definitions = schema.get("definitions", {})

    def resolve(node):
        while isinstance(node, dict) and "$ref" in node:
            node = definitions[node["$ref"].split("/")[-1]]
        return node if isinstance(node, dict) else {}

    def at(path):
        node = resolve(schema)
        for key in path:
            if isinstance(key, int):
                node = resolve(node.get("items", {}))
            elif key in node.get("properties", {}):
                node = resolve(node["properties"][key])
            else:
                node = resolve(node.get("additionalProperties", {}))
        return node

    def list_only(path) -> bool:
        node = at(path)
        t = node.get("type")
        types = set(t) if isinstance(t, list) else {t} if t else set()
        if "anyOf" in node:
            return False
        return types - {"null"} == {"array"}

    return list_only

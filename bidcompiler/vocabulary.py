"""The rule vocabulary: each setting's default and its words, read from the schema.

The JSON Schema of variant files (``bidcompiler/schema/variant.schema.json``) is the
one place a setting is described.  Beside the validation keywords, a setting's
schema node carries:

* ``default``: the value the builder fills in when no file sets it (a JSON
  Schema keyword, so editors show it too), or ``x-default-derived``: a sentence saying what
  the default is worked out from, for the few that depend on other settings (the
  builder computes those; a test checks the two lists agree);
* ``x-rulebook``: per value, the sentence or phrase ``bidwhist rules`` says;
* ``x-label``: the label of the setting's line in ``bidwhist diff``;
* ``x-words``: per value, the words ``diff`` shows for it;
* ``x-unit``: the unit ``diff`` puts after a number (``6 cards``);
* ``x-shorthand``: for a setting with shorthand words, what each word stands for
  (kitty.show's ``auction`` is ``{when: deal}``);
* ``x-ir``: the IR path(s) of the setting where they differ from its schema path
  (``auction.levels.from`` is the IR's ``auction.min_level``).

JSON Schema validators and editors ignore keywords they do not know, so these cost
validation nothing.  This module indexes the schema two ways: by *schema path*
(``deal.rotation``, what a file writes; the builder reads defaults so) and by *IR
path* (``auction.min_level``; ``rules`` and ``diff`` read words so).  Paths are
dotted; ``[*]`` stands for any element of a mapping or of a list of named items
(``auction.strains[*].trump``), ``[]`` for the items of a plain list
(``deck.suits[]``).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import resources

_NO_DEFAULT = object()


@dataclass(frozen=True)
class Setting:
    """One setting's schema node, with the schema path and IR paths it is known by."""

    schema_path: str
    ir_paths: tuple[str, ...]
    node: dict


@dataclass(frozen=True)
class Vocabulary:
    """Every setting of a schema, by schema path and by IR path."""

    by_schema: dict[str, Setting]
    by_ir: dict[str, Setting]


@lru_cache(maxsize=1)
def schema() -> dict:
    """The JSON Schema of variant files, loaded once (the pipeline validates with this same dict)."""
    return json.loads(resources.schema_path().read_text(encoding="utf-8"))


def resolve(root: dict, node: dict) -> dict:
    """``node`` with a local ``$ref`` followed (``#/definitions/x``).

    Keywords beside the ``$ref`` (a formula's ``x-label``) win over the target's, as
    in draft 2020-12, where ``$ref`` is one keyword among others.
    """
    while isinstance(node, dict) and "$ref" in node:
        target: Any = root
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        # An x- mapping beside the $ref adds to the target's (play.first_lead's own word
        # for one seat, over the seat definition's words).
        node = {**target, **{k: ({**target[k], **v} if k.startswith("x-") and isinstance(v, dict)
                                  and isinstance(target.get(k), dict) else v)
                             for k, v in node.items() if k != "$ref"}}
    return node


def _named_list(root: dict, node: dict) -> bool:
    """A list whose items are mappings with a ``name``: its elements are addressed by name."""
    items = resolve(root, node.get("items", {})) if isinstance(node.get("items"), dict) else {}
    return "name" in (items.get("properties") or {})


def index(root: dict) -> Vocabulary:
    """Index every node of ``root`` that a path can reach (``$ref`` followed, ``anyOf`` not)."""
    by_schema: dict[str, Setting] = {}
    by_ir: dict[str, Setting] = {}

    def join(base: str, key: str) -> str:
        return f"{base}.{key}" if base and not key.startswith("[") else base + key

    def walk(node: dict, schema_path: str, ir_path: str) -> None:
        node = resolve(root, node)
        declared = node.get("x-ir")
        ir_paths = tuple([declared] if isinstance(declared, str) else declared or [ir_path])
        setting = Setting(schema_path, ir_paths, node)
        if schema_path:
            by_schema[schema_path] = setting
            for p in ir_paths:
                by_ir[p] = setting
        ir_base = ir_paths[0]
        for key, sub in (node.get("properties") or {}).items():
            walk(sub, join(schema_path, key), join(ir_base, key))
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            walk(extra, join(schema_path, "[*]"), join(ir_base, "[*]"))
        items = node.get("items")
        if isinstance(items, dict):
            element = "[*]" if _named_list(root, node) else "[]"
            walk(items, join(schema_path, element), join(ir_base, element))
        for branch in node.get("anyOf", ()):
            # A setting written in more than one form (kitty.show: a word or {when,
            # contracts}): the settings inside a form are the setting's own.
            branch = resolve(root, branch)
            for key, sub in (branch.get("properties") or {}).items():
                walk(sub, join(schema_path, key), join(ir_base, key))
        for branch in node.get("oneOf", ()):
            # A setting that is one value or a mapping of named ones (game.win): the
            # named ones are its elements.
            extra = resolve(root, branch).get("additionalProperties")
            if isinstance(extra, dict):
                walk(extra, join(schema_path, "[*]"), join(ir_base, "[*]"))

    walk(root, "", "")
    return Vocabulary(by_schema, by_ir)


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The index of the shipped schema."""
    return index(schema())


def clear_cache() -> None:
    """Forget the loaded schema (a test that reads words from another schema file calls this)."""
    schema.cache_clear()
    vocabulary.cache_clear()


def _node(ir_path: str) -> dict:
    setting = vocabulary().by_ir.get(ir_path)
    return setting.node if setting is not None else {}


def default(schema_path: str) -> Any:
    """The default of the setting at ``schema_path`` (a fresh copy; lists as tuples).

    KeyError for a setting without a constant default (required, or derived).
    """
    setting = vocabulary().by_schema[schema_path]
    value = setting.node.get("default", _NO_DEFAULT)
    if value is _NO_DEFAULT:
        raise KeyError(f"{schema_path} has no default in the schema")
    return tuple(value) if isinstance(value, list) else copy.deepcopy(value)


def label(ir_path: str) -> str | None:
    """The ``diff`` label of the setting at ``ir_path`` (``{name}`` for the element's name), or None."""
    return _node(ir_path).get("x-label")


def value_words(ir_path: str) -> dict[str, str]:
    """The ``diff`` words of each value of the setting at ``ir_path``."""
    return _node(ir_path).get("x-words", {})


def unit(ir_path: str) -> str | None:
    """The unit ``diff`` puts after the setting's number, or None."""
    return _node(ir_path).get("x-unit")


def rulebook_words(ir_path: str) -> dict[str, str]:
    """The ``rules`` sentence (or phrase) of each value of the setting at ``ir_path``."""
    return _node(ir_path).get("x-rulebook", {})


def said(ir_path: str, value: str, fallback: str) -> str:
    """The rulebook's words for ``value`` of the setting at ``ir_path``, or ``fallback`` without any."""
    return rulebook_words(ir_path).get(value, fallback)


def shorthand(schema_path: str) -> dict[str, Any]:
    """What each shorthand word of the setting at ``schema_path`` stands for (``x-shorthand``)."""
    return vocabulary().by_schema[schema_path].node.get("x-shorthand", {})


def definition(name: str) -> dict:
    """The schema's definition ``name`` (``seat``), with its words."""
    return schema()["definitions"][name]

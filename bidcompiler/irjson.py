"""The normalised JSON form of the IR (what ``bidwhist compile --json`` prints).

Positions are left out and formulas appear as their canonical text, so two sources
that mean the same variant print the same JSON; the golden tests compare this form.
"""

from __future__ import annotations

import dataclasses
import json

from . import ir


def to_data(node):
    """The IR node as plain JSON-ready data (dicts, lists, strings, numbers)."""
    if isinstance(node, ir.Formula):
        return node.text
    if dataclasses.is_dataclass(node):
        return {
            f.name: to_data(getattr(node, f.name))
            for f in dataclasses.fields(node)
            # Positions and compiled code are not part of the meaning; a setting added
            # later is left out at its default, so older variants print as before.
            if f.compare and not (f.metadata.get("omit_default") and getattr(node, f.name) == f.default)
        }
    if isinstance(node, (tuple, list)):
        return [to_data(x) for x in node]
    return node


def to_json(variant: ir.Variant) -> str:
    """Canonical JSON text of a variant's IR, keys in IR order, two-space indent."""
    return json.dumps(to_data(variant), indent=2, ensure_ascii=False) + "\n"

"""A Ruleset as JSON and back, with no compiler: for tools, caches and other processes.

``ruleset_to_json(rules)`` gives a JSON-ready dict (``{"format": "bidwhist-ruleset/1",
...}``); ``ruleset_from_json(data)`` rebuilds an equal Ruleset.  Formulas travel as
their data trees (runtime.formula), play tables as a list (JSON keys are strings),
sets as sorted lists.  A document that does not describe a Ruleset raises
``RulesetFormatError`` naming the field.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from .formula import Formula, FormulaError
from .game import tie_breaks
from .ruleset import Bid, GameEnd, PlayTable, Ruleset, Scoring, Strain, build_action_names
from .seats import SeatRef

FORMAT = "bidwhist-ruleset/1"


class RulesetFormatError(ValueError):
    """A JSON document that is not a ``bidwhist-ruleset/1``."""


def _plain(obj: Any) -> Any:
    """A dataclass value as a dict of JSON-ready values (formulas as their JSON)."""
    if isinstance(obj, (Formula, SeatRef)):
        return obj.to_json()
    if dataclasses.is_dataclass(obj):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [_plain(x) for x in obj]
    return obj


def ruleset_to_json(rules: Ruleset) -> dict:
    """The JSON-ready description of ``rules``."""
    out: dict[str, Any] = {"format": FORMAT}
    for f in dataclasses.fields(rules):
        if f.name == "action_names":
            continue  # derived: rebuilt on the way in
        value = getattr(rules, f.name)
        if f.name == "tables":
            out["tables"] = [_plain(table) for _, table in sorted(value.items())]
        elif f.name == "redeal_cards":
            out["redeal_cards"] = sorted(value)
        elif f.name == "order_aliases":
            # In the compiler's order, not sorted: readers pick the first alias of an
            # order (play's direction hint), so the order is part of the Ruleset.
            out["order_aliases"] = dict(value)
        else:
            out[f.name] = _plain(value)
    return out


def _need(data: Mapping, key: str) -> Any:
    if key not in data:
        raise RulesetFormatError(f"missing field {key!r}")
    return data[key]


def _formula(data: Mapping, key: str, where: str) -> Formula:
    try:
        return Formula.from_json(_need(data, key))
    except FormulaError as exc:
        raise RulesetFormatError(f"{where}.{key}: {exc}") from None


def _seat(data: Any, where: str) -> SeatRef:
    """A seat of the document (runtime.seats' JSON form; a word such as ``"declarer"`` in older documents)."""
    try:
        return SeatRef.from_json(data)
    except ValueError as exc:
        raise RulesetFormatError(f"{where}: {exc}") from None


def _tie_list(value: Any) -> list[str]:
    """tie_break as written: a list of tie-breaks (game.tie, its shorthand words expanded)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RulesetFormatError("tie_break: expected a list of tie-breaks")
    return value


def ruleset_from_json(data: Mapping) -> Ruleset:
    """The Ruleset that :func:`ruleset_to_json` described."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise RulesetFormatError(f"not a {FORMAT} document")
    try:
        scoring_data = _need(data, "scoring")
        end_data = _need(data, "game_end")
        fields: dict[str, Any] = {}
        for f in dataclasses.fields(Ruleset):
            if f.name in ("action_names", "scoring", "game_end"):
                continue
            if f.name not in data:
                if f.default is not dataclasses.MISSING:
                    continue
                raise RulesetFormatError(f"missing field {f.name!r}")
            fields[f.name] = data[f.name]
        fields.update(
            side_of=tuple(fields["side_of"]),
            cards=tuple(fields["cards"]),
            card_suit=tuple(fields["card_suit"]),
            suits=tuple(fields["suits"]),
            suit_names=tuple(fields["suit_names"]),
            orders=tuple(fields["orders"]),
            strains=tuple(Strain(s["name"], tuple(s["aliases"]), s["trump"], tuple(s["directions"]),
                                 s.get("bare", False)) for s in fields["strains"]),
            bids=tuple(Bid(b["level"], b["strain"], b["rank"], b["text"]) for b in fields["bids"]),
            order_aliases=dict(fields["order_aliases"]),
            redeal_cards=frozenset(fields["redeal_cards"]),
            kitty_show_contracts=tuple(fields.get("kitty_show_contracts", ())),
            first_leader=_seat(fields["first_leader"], "first_leader"),
            tables={(t["trump"], t["direction"]): PlayTable(
                t["trump"], t["direction"], tuple(t["suit_of"]), tuple(t["power"]),
                t.get("free_no_suit", False), t.get("no_suit_out", False)) for t in fields["tables"]},
            scoring=Scoring(
                made=_formula(scoring_data, "made", "scoring"),
                declarer=_formula(scoring_data, "declarer", "scoring"),
                defender=_formula(scoring_data, "defender", "scoring"),
                multiplier=_formula(scoring_data, "multiplier", "scoring"),
                multiply_declarer=scoring_data.get("multiply_declarer", True),
                multiply_defenders=scoring_data.get("multiply_defenders", True)),
            game_end=GameEnd(
                win=_formula(end_data, "win", "game_end"),
                lose=_formula(end_data, "lose", "game_end"),
                target=end_data.get("target", 7),
                floor=end_data.get("floor"), rubber=end_data.get("rubber", 1)),
            tie_break=tie_breaks(_tie_list(fields["tie_break"])),
        )
        if "kitty_taken_by" in fields:
            fields["kitty_taken_by"] = _seat(fields["kitty_taken_by"], "kitty_taken_by")
        if "must_bid" in fields:
            fields["must_bid"] = tuple(_seat(s, "must_bid") for s in fields["must_bid"])
    except (KeyError, TypeError, AttributeError) as exc:
        raise RulesetFormatError(f"malformed ruleset: {exc}") from None
    rules = Ruleset(**fields)
    object.__setattr__(rules, "action_names", build_action_names(rules))
    return rules

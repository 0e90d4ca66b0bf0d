"""Rule-level differences between two compiled variants (``bidwhist diff A B``).

The walk is generic: it follows the IR's dataclass fields recursively, comparing
only the fields that take part in equality (positions, origins and compiled code
are ``compare=False`` and never differ in meaning).  Each difference is a path
(``auction.min_level``), the two values, and a human label the schema gives the
setting (:mod:`bidcompiler.vocabulary`, by the path with element names wildcarded);
a field without a label falls back to its dotted path, so a new IR field shows up without touching this module.

Tuples of named nodes (orders, strains) are matched by name, not by position: a
variant that adds an order at the end must not show every later order as changed.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from . import ir, vocabulary
from .build import contract_kinds, kitty_show_words
from .expressions import parse_expression
from .formula_text import Wording, formula_shown, reading
from .irjson import to_data
from .rulebook import listed_terms
from .seatwords import declarer_words

# Fields that describe the file rather than the game: two variants that play the
# same differ in none of these, so ``diff`` leaves them out.
META_FIELDS = {"name", "title", "source", "house_rules"}

# Each setting's label, value words and unit live in the schema beside the setting
# (x-label, x-words, x-unit; see bidcompiler.vocabulary), keyed here by IR path with
# element names wildcarded (``auction.strains[*].trump``).




def kitty_show_value(kitty: ir.Kitty):
    """kitty.show as one value for ``diff``: its shorthand word where it has one, else ``{when, contracts}``."""
    pair = (kitty.show, kitty.show_contracts)
    shorthand = {p: word for word, p in kitty_show_words().items()}  # the (when, contracts) a word says
    if pair in shorthand:
        return shorthand[pair]
    return {"when": kitty.show, "contracts": list(kitty.show_contracts or contract_kinds())}


def _show_words(value) -> str:
    if isinstance(value, str):
        return vocabulary.value_words("kitty.show").get(value, value)
    kinds = value["contracts"]
    where = "in every contract" if len(kinds) == len(contract_kinds()) else f"in {_join_kinds(kinds)} contracts"
    return f"{vocabulary.value_words('kitty.show.when').get(value['when'], value['when'])}, {where}"


def _join_kinds(kinds) -> str:
    return " and ".join(kinds)


def _roles_words(roles) -> str:
    if not roles:
        return "none"
    role_words = vocabulary.value_words("play.roles[*]")
    return "; ".join(f"in {kind}: " + ", ".join(f"{card} {role_words.get(role, role)}" for card, role in pairs)
                     for kind, pairs in roles)


@dataclass(frozen=True)
class Difference:
    """One rule-level difference: where, in words, and the two values (None: absent).

    For a formula, ``a_words`` and ``b_words`` are its readings in plain English
    (:func:`bidcompiler.formula_text.reading`), filled in by :func:`diff`.
    """

    path: str
    label: str
    a: object
    b: object
    a_words: str | None = None
    b_words: str | None = None

    def as_json(self) -> dict:
        """The JSON object ``diff --json`` prints: path, label, a, b (plain data).

        A formula row also has ``a_words`` and ``b_words``, the readings in English.
        """
        data = {"path": self.path, "label": self.label, "a": to_data(self.a), "b": to_data(self.b)}
        if self.a_words is not None or self.b_words is not None:
            data["a_words"], data["b_words"] = self.a_words, self.b_words
        return data

    def line(self) -> str:
        """``label: a -> b`` with values in words."""
        return f"{self.label}: {format_value(self.path, self.a)} -> {format_value(self.path, self.b)}"

    def lines(self) -> list[str]:
        """:meth:`line`, then for a formula its two readings, indented: ``  before: ...``, ``  after: ...``.

        The readings are left out when both would only repeat the code (``1`` -> ``2``).
        """
        out = [self.line()]
        said = [(words, value) for words, value in ((self.a_words, self.a), (self.b_words, self.b))]
        if all(words is None or (isinstance(value, ir.Formula) and words == _shown(value)) for words, value in said):
            return out
        for prefix, (words, _) in zip(("  before: ", "  after:  "), said):
            if words is not None:
                out.append(prefix + words)
        return out


def _pattern(path: str) -> str:
    return re.sub(r"\[[^\]]*\]", "[*]", path)


def label_of(path: str) -> str:
    """The human label of a path, or the dotted path itself when the table has none."""
    template = vocabulary.label(_pattern(path))
    if template is None:
        return path
    names = re.findall(r"\[([^\]]*)\]", path)
    return template.format(name=names[-1] if names else "")


def format_value(path: str, value) -> str:
    """A value in words for one line of ``diff``."""
    if path == "kitty.show":
        return _show_words(value)
    if path == "play.roles":
        return _roles_words(value)
    if _pattern(path) == "auction.strains[*].levels":
        # A strain without levels of its own is bid at the auction's.
        return "the auction's levels" if value is None else f"{value[0]} to {value[1]}"
    if path == "auction.dealer_bids_from" and value is None:
        return "the lowest number"
    if value is None:
        return "none"
    if path == "auction.passes_end" and value == 0:
        # The compiled count where the auction goes round once: there is none.
        return "none (once round)"
    if isinstance(value, DeckSize):
        return str(value)
    if isinstance(value, ir.Formula):
        return f"`{_shown(value)}`"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, ir.Order):
        return " ".join(value.ranks)
    if isinstance(value, ir.Strain):
        trump = vocabulary.value_words("auction.strains[*].trump").get(value.trump, value.trump)
        said = "bare number" if value.bare else value.name
        levels = f", bid {value.levels[0]} to {value.levels[1]}" if value.levels is not None else ""
        return f"{said}, {trump}, {' or '.join(value.directions)}{levels}"
    if isinstance(value, tuple):
        if not value:
            return "none"
        if _pattern(path) == "auction.ranking":
            return " < ".join(" = ".join(group) for group in value)
        return ", ".join(format_value(path, v) for v in value) if not _pattern(path).endswith("ranks") \
            else " ".join(value)
    unit = vocabulary.unit(_pattern(path))
    if isinstance(value, int) and unit is not None:
        return f"{value} {unit}"
    # An item of a list of words (auction.must_bid's seats) has the items' words.
    words = vocabulary.value_words(_pattern(path)) or vocabulary.value_words(_pattern(path) + "[]")
    return words.get(value, str(value))


class DeckSize(int):
    """A deck's size that prints as ``52 cards`` and remembers the cards it lacks or adds."""

    note: str

    def __new__(cls, size: int, note: str = ""):
        self = super().__new__(cls, size)
        self.note = note
        return self

    def __str__(self) -> str:
        return f"{int(self)} cards" + (f" ({self.note})" if self.note else "")


def _cards(v: ir.Variant) -> list[str]:
    return list(v.deck.cards())


def _deck_row(a: ir.Variant, b: ir.Variant) -> list[Difference]:
    """A summary of a changed deck (``54 cards -> 52 cards (no BJ, LJ)``) before the field rows."""
    ca, cb = _cards(a), _cards(b)
    if len(ca) == len(cb):
        return []
    gone = [c for c in ca if c not in cb]
    new = [c for c in cb if c not in ca]

    def listed(cards):  # a few cards by name, many by count
        return ", ".join(cards) if len(cards) <= 6 else f"{len(cards)} cards"

    notes = ([f"no {listed(gone)}"] if gone else []) + ([f"with {listed(new)}"] if new else [])
    return [Difference("deck", "deck", DeckSize(len(ca)), DeckSize(len(cb), "; ".join(notes)))]


def _named(items) -> bool:
    return bool(items) and all(dataclasses.is_dataclass(x) and hasattr(x, "name") for x in items)


def _shown(f: ir.Formula) -> str:
    """A formula as ``diff`` shows it: simplified (see :mod:`bidcompiler.formula_text`)."""
    return formula_shown(f.text)


# Formulas whose numbers are points ("14 points", "nothing"); a multiplier's are not.
SCORE_PATHS = {"scoring.declarer", "scoring.defender"}


def _reading(f, v: ir.Variant, path: str) -> str | None:
    """A formula of ``v`` in plain English, or None where there is no formula."""
    if not isinstance(f, ir.Formula) or not f.text:
        return None
    wording = Wording(declarers=declarer_words(v.sides == "partners")[0],
                      points=_pattern(path).removesuffix("[*]") in SCORE_PATHS)
    return reading(parse_expression(f.text), wording, condition=f.type == "bool")


def _walk(path: str, a, b, out: list[Difference]) -> None:
    if a == b:
        return
    if isinstance(a, ir.Formula) and isinstance(b, ir.Formula) and a.text and _shown(a) == _shown(b):
        return  # written differently, the same rule once simplified
    if isinstance(a, ir.Formula) or isinstance(b, ir.Formula):
        out.append(Difference(path, label_of(path), a, b))
    elif isinstance(a, ir.Kitty) and isinstance(b, ir.Kitty):
        # When and in which contracts the kitty is shown read as one setting: one row.
        for f in dataclasses.fields(a):
            if f.name == "show":
                _walk(f"{path}.show", kitty_show_value(a), kitty_show_value(b), out)
            elif f.compare and f.name != "show_contracts":
                _walk(f"{path}.{f.name}", getattr(a, f.name), getattr(b, f.name), out)
    elif isinstance(a, ir.Game) and isinstance(b, ir.Game):
        # A game end of several named conditions: one row per condition that changed.
        for f in dataclasses.fields(a):
            if f.name in ("win", "lose") and max(len(_conditions(a, f.name)), len(_conditions(b, f.name))) > 1:
                _walk_conditions(f"{path}.{f.name}", _conditions(a, f.name), _conditions(b, f.name), out)
            elif f.compare:
                _walk(f"{path}.{f.name}", getattr(a, f.name), getattr(b, f.name), out)
    elif isinstance(a, ir.Scoring) and isinstance(b, ir.Scoring) \
            and max(_adding(a), _adding(b)) > 1 and _shown(a.defender) != _shown(b.defender):
        # A defenders' score of several named terms: one row per term that changed, as
        # the named conditions of a game end.  Where neither side's rulebook reads terms
        # one a line (at most one term that is not plainly 0) the sum is one row.
        for f in dataclasses.fields(a):
            if f.name == "defender":
                _walk_conditions(f"{path}.{f.name}", _terms(a), _terms(b), out)
            elif f.compare:
                _walk(f"{path}.{f.name}", getattr(a, f.name), getattr(b, f.name), out)
    elif dataclasses.is_dataclass(a) and type(a) is type(b):
        for f in dataclasses.fields(a):
            if not f.compare or (not path and f.name in META_FIELDS):
                continue
            _walk(f"{path}.{f.name}" if path else f.name, getattr(a, f.name), getattr(b, f.name), out)
    elif isinstance(a, tuple) and isinstance(b, tuple) and (_named(a) or _named(b)) \
            and all(_named(x) or not x for x in (a, b)):
        names_a = [x.name for x in a]
        names_b = [x.name for x in b]
        if names_a != names_b:
            out.append(Difference(path, label_of(path), tuple(names_a), tuple(names_b)))
        by_a = {x.name: x for x in a}
        by_b = {x.name: x for x in b}
        for name in names_a + [n for n in names_b if n not in by_a]:
            element = f"{path}[{name}]"
            if name in by_a and name in by_b:
                _walk(element, by_a[name], by_b[name], out)
            else:
                out.append(Difference(element, label_of(element), by_a.get(name), by_b.get(name)))
    else:
        out.append(Difference(path, label_of(path), a, b))


def _conditions(game: ir.Game, end: str) -> dict[str, ir.Formula]:
    """The named conditions of game.win or game.lose (``end``), name -> formula."""
    return {c.name: c.formula for c in getattr(game, f"{end}_when")}


def _terms(scoring: ir.Scoring) -> dict[str, ir.Formula]:
    """The named terms of the defenders' score, name -> formula."""
    return {c.name: c.formula for c in scoring.defender_terms}


def _adding(scoring: ir.Scoring) -> int:
    """How many of the defenders' terms the rulebook lists (those not plainly 0)."""
    return len(listed_terms(scoring.defender_terms))


def _walk_conditions(path: str, a: dict, b: dict, out: list[Difference]) -> None:
    """Rows for the named conditions (or terms) added, removed or changed (``game.win[sweep]``)."""
    for name in list(a) + [n for n in b if n not in a]:
        element = f"{path}[{name}]"
        if name in a and name in b:
            _walk(element, a[name], b[name], out)
        else:
            out.append(Difference(element, label_of(element), a.get(name), b.get(name)))


def diff(a: ir.Variant, b: ir.Variant) -> list[Difference]:
    """Every rule-level difference from ``a`` to ``b``, in IR field order."""
    out: list[Difference] = _deck_row(a, b)
    _walk("", a, b, out)
    return [dataclasses.replace(d, a_words=_reading(d.a, a, d.path), b_words=_reading(d.b, b, d.path))
            if isinstance(d.a, ir.Formula) or isinstance(d.b, ir.Formula) else d for d in out]

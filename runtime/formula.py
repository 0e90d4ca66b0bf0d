"""Formulas as data, evaluated by the runtime itself: the compiler is not needed to run them.

The compiler parses and type-checks a variant's formulas (scoring, game end) and
hands the runtime each one as a :class:`Formula`: a tree of plain tuples, strings,
ints and bools, plus its canonical text.  The runtime generates a Python function
from the tree the first time the formula is evaluated; pickling and JSON carry the
tree only, so a Ruleset moves between processes (or through a JSON file) with no
bidcompiler, lark or yaml on the other side.

The tree, one node per tuple, first item the node kind:

- ``("num", n)``, ``("bool", b)``, ``("name", "bid")``
- ``("neg", x)``, ``("not", x)``
- ``("+", a, b)``, ``("-", a, b)``, ``("*", a, b)``, ``("/", a, b)`` — ``/`` floors and
  ``x / 0 == 0``
- ``("==", a, b)`` and the other comparisons ``!= < <= > >=``
- ``("and", a, b)``, ``("or", a, b)``
- ``("if", cond, then, else)``
- ``("call", "min" | "max" | "abs", arg, ...)``

Generated code is built only from this closed set of node kinds: names become
dictionary keys (repr-quoted), numbers are ints, so no text of a variant file ever
becomes code.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

ARITHMETIC = frozenset({"+", "-", "*", "/"})
COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
LOGIC = frozenset({"and", "or"})
FUNCTIONS = {"min": min, "max": max, "abs": abs}
# How deep a tree may nest: the compiler refuses deeper formulas long before this,
# and a hand-made or JSON tree deeper than it is refused here (no RecursionError).
MAX_DEPTH = 100


class FormulaError(ValueError):
    """A formula tree that is not well formed (a hand-made Ruleset or a bad JSON file)."""


def _source(node: Any, temps: Iterator[int], depth: int = 0) -> str:
    """Python source for ``node``; every compound is parenthesised so precedence never matters."""
    if depth > MAX_DEPTH:
        raise FormulaError(f"formula nested more than {MAX_DEPTH} deep")
    if not isinstance(node, (tuple, list)) or not node:
        raise FormulaError(f"not a formula node: {node!r}")
    kind, args = node[0], node[1:]
    if not isinstance(kind, str):
        raise FormulaError(f"not a formula node: {node!r}")
    d = depth + 1
    if kind == "num" and len(args) == 1 and type(args[0]) is int:
        return repr(args[0]) if args[0] >= 0 else f"({args[0]!r})"
    if kind == "bool" and len(args) == 1 and type(args[0]) is bool:
        return "True" if args[0] else "False"
    if kind == "name" and len(args) == 1 and isinstance(args[0], str):
        return f"v[{args[0]!r}]"
    if kind == "neg" and len(args) == 1:
        return f"(-{_source(args[0], temps, d)})"
    if kind == "not" and len(args) == 1:
        return f"(not {_source(args[0], temps, d)})"
    if kind == "/" and len(args) == 2:
        # Floor division with x / 0 == 0; the divisor is bound once to a temporary
        # (a conditional evaluates its condition first, so it is set before use).
        tmp = f"_d{next(temps)}"
        return f"({_source(args[0], temps, d)} // {tmp} if ({tmp} := {_source(args[1], temps, d)}) else 0)"
    if (kind in ARITHMETIC or kind in COMPARISONS or kind in LOGIC) and len(args) == 2:
        return f"({_source(args[0], temps, d)} {kind} {_source(args[1], temps, d)})"
    if kind == "if" and len(args) == 3:
        cond, then, orelse = (_source(a, temps, d) for a in args)
        return f"({then} if {cond} else {orelse})"
    if kind == "call" and args and args[0] in FUNCTIONS and len(args) >= 2:
        return f"{args[0]}({', '.join(_source(a, temps, d) for a in args[1:])})"
    raise FormulaError(f"not a formula node: {node!r}")


def _names(node: Any) -> Iterator[str]:
    """The variable names a (well-formed) tree reads."""
    stack = [node]
    while stack:
        item = stack.pop()
        if item[0] == "name":
            yield item[1]
        elif item[0] not in ("num", "bool"):
            stack.extend(a for a in item[1:] if isinstance(a, (tuple, list)))


def _frozen(node: Any, depth: int = 0) -> Any:
    """The tree with every list turned into a tuple (JSON gives lists)."""
    if depth > MAX_DEPTH:
        raise FormulaError(f"formula nested more than {MAX_DEPTH} deep")
    if isinstance(node, (list, tuple)):
        return tuple(_frozen(item, depth + 1) for item in node)
    return node


_INF = float("inf")


def _span(node: Any, ranges: Mapping[str, tuple]) -> tuple:
    """(lowest, highest) value ``node`` can take when each name lies in its range of ``ranges``.

    Bools count as 0 and 1.  The answer is safe, not always tight: every value the
    formula can take lies inside it (an unknown name raises KeyError).
    """
    kind = node[0]
    if kind == "num":
        return node[1], node[1]
    if kind == "bool":
        return int(node[1]), int(node[1])
    if kind == "name":
        lo, hi = ranges[node[1]]
        return lo, hi
    if kind == "neg":
        lo, hi = _span(node[1], ranges)
        return -hi, -lo
    if kind == "not":
        lo, hi = _span(node[1], ranges)
        return 1 - hi, 1 - lo
    if kind == "if":
        clo, chi = _span(node[1], ranges)
        if clo:  # surely true
            return _span(node[2], ranges)
        if not chi:  # surely false
            return _span(node[3], ranges)
        (alo, ahi), (blo, bhi) = _span(node[2], ranges), _span(node[3], ranges)
        return min(alo, blo), max(ahi, bhi)
    if kind == "call":
        spans = [_span(a, ranges) for a in node[2:]]
        if node[1] == "min":
            return min(s[0] for s in spans), min(s[1] for s in spans)
        if node[1] == "max":
            return max(s[0] for s in spans), max(s[1] for s in spans)
        lo, hi = spans[0]  # abs
        if lo >= 0:
            return lo, hi
        if hi <= 0:
            return -hi, -lo
        return 0, max(-lo, hi)
    (alo, ahi), (blo, bhi) = _span(node[1], ranges), _span(node[2], ranges)
    if kind == "+":
        return alo + blo, ahi + bhi
    if kind == "-":
        return alo - bhi, ahi - blo
    if kind == "*":
        products = [x * y for x in (alo, ahi) for y in (blo, bhi) if not (x == 0 or y == 0)] or [0]
        if 0 in (alo, ahi, blo, bhi):
            products.append(0)
        return min(products), max(products)
    if kind == "/":
        if blo == bhi and blo and _INF not in (abs(alo), abs(ahi)):  # by a constant: monotone
            a, b = alo // blo, ahi // blo
            return min(a, b), max(a, b)
        return -_INF, _INF
    if kind == "and":
        return min(alo, blo), min(ahi, bhi)
    if kind == "or":
        return max(alo, blo), max(ahi, bhi)
    # Comparisons: may it be true, may it be false.
    if kind == "<":
        true, false = alo < bhi, ahi >= blo
    elif kind == "<=":
        true, false = alo <= bhi, ahi > blo
    elif kind == ">":
        true, false = ahi > blo, alo <= bhi
    elif kind == ">=":
        true, false = ahi >= blo, alo < bhi
    else:
        overlap = alo <= bhi and blo <= ahi
        fixed = alo == ahi == blo == bhi
        true, false = (overlap, not fixed) if kind == "==" else (not fixed, overlap)
    return (0 if false else 1), (1 if true else 0)


@dataclass(frozen=True)
class Formula:
    """A checked formula: its tree, canonical text and result type (``"int"`` or ``"bool"``).

    Calling it with a mapping from variable name to value evaluates it.  Equality is
    by tree and type; the text is for people (rulebooks, reports).
    """

    tree: tuple
    text: str = field(default="", compare=False)
    type: str = "int"
    _fn: Callable[[Mapping[str, object]], object] | None = field(
        default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tree", _frozen(self.tree))
        if self.type not in ("int", "bool"):
            raise FormulaError(f"a formula gives int or bool, not {self.type!r}")
        _source(self.tree, itertools.count())  # refuse a malformed tree now, not at first use

    @property
    def names(self) -> frozenset[str]:
        """The variables the formula reads."""
        return frozenset(_names(self.tree))

    def __call__(self, v: Mapping[str, object]) -> object:
        """Evaluate the formula for variable values ``v``."""
        fn = self._fn
        if fn is None:
            source = f"lambda v: {_source(self.tree, itertools.count())}"
            # The only globals generated code sees: no builtins beyond the three functions.
            fn = eval(compile(source, f"<formula {self.text or self.tree!r}>", "eval"),
                      {"__builtins__": {}, **FUNCTIONS})
            object.__setattr__(self, "_fn", fn)
        return fn(v)

    def span(self, ranges: Mapping[str, tuple]) -> tuple:
        """(lowest, highest) value the formula can take with each variable anywhere in its
        ``(lo, hi)`` range of ``ranges`` (bools as 0 and 1; ``float("inf")`` for no bound).

        Safe, not always tight: a bool formula whose highest value is 0 is false for
        every such input.  KeyError names a variable ``ranges`` lacks.
        """
        return _span(self.tree, ranges)

    def __reduce__(self):
        # The generated function cannot be pickled; the tree can, and rebuilds it.
        return (Formula, (self.tree, self.text, self.type))

    def to_json(self) -> dict:
        """A JSON-ready description: ``{"tree": [...], "text": ..., "type": ...}``."""
        return {"tree": self.tree, "text": self.text, "type": self.type}

    @classmethod
    def from_json(cls, data: Mapping) -> "Formula":
        """The formula :meth:`to_json` described; FormulaError when it is not one."""
        if not isinstance(data, Mapping) or "tree" not in data:
            raise FormulaError("a formula is an object with a tree")
        return cls(data["tree"], str(data.get("text", "")), data.get("type", "int"))

"""The formula language's types and syntax tree: what every stage reads and writes.

Part of the expression language of variant files (bidcompiler/expressions/): the parser
(parser.py) builds these frozen dataclasses, the checker, code generator, unparser
and simplifier read them.  Also the functions the language knows (``FUNCTIONS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Union

from ..errors import SourcePos


# --------------------------------------------------------------------------- types


class Type(Enum):
    """The type of an expression's value: a number or true/false."""

    INT = "int"
    BOOL = "bool"

    @property
    def noun(self) -> str:
        """The type in words, singular: ``a number`` / ``true/false``."""
        return "a number" if self is Type.INT else "true/false"

    @property
    def plural(self) -> str:
        """The type in words, plural: ``numbers`` / ``true/false values``."""
        return "numbers" if self is Type.INT else "true/false values"


INT = Type.INT
BOOL = Type.BOOL


def _as_type(value: object) -> Type:
    """Accept ``Type``, its string value (``"int"``/``"bool"``) or Python ``int``/``bool``.

    Variable tables come from several places (Python code, YAML data), so the
    checker is lenient about how a type is spelled.
    """
    if isinstance(value, Type):
        return value
    if value is bool:  # before int: bool is a subclass of int
        return Type.BOOL
    if value is int:
        return Type.INT
    if isinstance(value, str):
        return Type(value)
    raise TypeError(f"not an expression type: {value!r}")


# ----------------------------------------------------------------------------- AST
#
# Semantic fields first, the position last and outside equality/hash/repr: two
# formulas that differ only in layout are the same formula (golden tests and IR
# equality rely on this), while diagnostics still know where each node came from.
# ``pos`` is (line, column), 1-based, relative to the parsed text; (0, 0) = unknown.

_NOPOS = (0, 0)


@dataclass(frozen=True, slots=True)
class Num:
    """An integer literal.  The parser only produces non-negative values (``-5`` is
    ``Unary("-", Num(5))``)."""

    value: int
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Bool:
    """``true`` or ``false``."""

    value: bool
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Name:
    """A variable, looked up in the evaluation environment."""

    name: str
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Unary:
    """Prefix negation; ``op`` is always ``"-"`` (``not`` is :class:`Not`)."""

    op: str
    operand: "Expr"
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Binary:
    """Arithmetic: ``op`` is one of ``+ - * /`` (``/`` floors; ``x / 0 == 0``)."""

    op: str
    left: "Expr"
    right: "Expr"
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Compare:
    """A single (non-chained) comparison: ``op`` is one of ``== != < <= > >=``."""

    op: str
    left: "Expr"
    right: "Expr"
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class BoolOp:
    """``and`` / ``or`` of two operands; chains nest to the left like ``+``."""

    op: str
    left: "Expr"
    right: "Expr"
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Not:
    """Logical negation."""

    operand: "Expr"
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class IfElse:
    """``if cond then then else orelse``."""

    cond: "Expr"
    then: "Expr"
    orelse: "Expr"
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Call:
    """A call of one of the built-in :data:`FUNCTIONS` (checked, not parsed, so that
    a misspelt function gets a "did you mean" instead of a bare syntax error)."""

    func: str
    args: tuple["Expr", ...]
    pos: tuple[int, int] = field(default=_NOPOS, compare=False, repr=False)


Expr = Union[Num, Bool, Name, Unary, Binary, Compare, BoolOp, Not, IfElse, Call]
"""Any expression node."""

# name -> (minimum number of arguments, maximum or None for "any number")
FUNCTIONS: Mapping[str, tuple[int, int | None]] = {
    "min": (2, None),
    "max": (2, None),
    "abs": (1, 1),
}


# Where a formula is placed when its caller gives no place.
_DEFAULT_ORIGIN = SourcePos("<expression>", 1, 1)


# -------------------------------------------------------------------- tree walks


def _children(node: Expr) -> tuple:
    match node:
        case Unary(operand=x) | Not(operand=x):
            return (x,)
        case Binary(left=a, right=b) | Compare(left=a, right=b) | BoolOp(left=a, right=b):
            return (a, b)
        case IfElse(cond=c, then=a, orelse=b):
            return (c, a, b)
        case Call(args=args):
            return tuple(args)
    return ()


def _at(origin: SourcePos, pos: tuple[int, int]) -> SourcePos:
    return origin if pos == _NOPOS else origin.shifted(*pos)

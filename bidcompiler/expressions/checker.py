"""Names and types of a formula: every problem found, each at its place.

Part of the expression language of variant files (bidcompiler/expressions/): after the
parser (parser.py), before code generation (codegen.py), which refuses a formula
with any problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..errors import Diagnostic, SourcePos, close_matches
from .nodes import (
    _DEFAULT_ORIGIN,
    BOOL,
    FUNCTIONS,
    INT,
    Binary,
    Bool,
    BoolOp,
    Call,
    Compare,
    Expr,
    IfElse,
    Name,
    Not,
    Num,
    Type,
    Unary,
    _as_type,
    _at,
)
from .syntax_errors import _join_or


def _suggest(name: str, known: Iterable[str]) -> str:
    known = sorted(known)
    close = close_matches(name, known, n=3, cutoff=0.6)
    if close:
        return "; did you mean " + _join_or([f"`{c}`" for c in close]) + "?"
    if known and len(known) <= 12:
        return "; known names: " + ", ".join(f"`{k}`" for k in known)
    return ""


class _Checker:
    """One pass over the AST computing each node's type and collecting problems.

    A node whose type cannot be known (unknown name, mismatched ``if`` branches)
    gets ``None``, and operators say nothing about ``None`` operands, so one mistake
    produces one message rather than a cascade.
    """

    def __init__(self, variables: Mapping[str, Type], origin: SourcePos, elsewhere: Mapping[str, str] | None = None):
        self.variables = variables
        self.origin = origin
        # Names this formula may not use that others may, with why (`score` in a hand's scoring).
        self.elsewhere = elsewhere or {}
        self.diagnostics: list[Diagnostic] = []

    def error(self, node: Expr, message: str) -> None:
        self.diagnostics.append(Diagnostic(_at(self.origin, node.pos), message))

    def need(self, node: Expr, want: Type, message: str) -> None:
        """Check ``node`` and complain with ``message`` (+ what it found) if not ``want``."""
        got = self.visit(node)
        if got is not None and got is not want:
            self.error(node, f"{message}, found {got.noun}")

    def need_both(self, left: Expr, right: Expr, want: Type, message: str) -> None:
        """:meth:`need` for the two operands of an operator: where both are wrong alike
        (`sets_in_a_row and 2`), one message at the first, not one at each."""
        got = [(node, self.visit(node)) for node in (left, right)]
        wrong = [(node, t) for node, t in got if t is not None and t is not want]
        if len(wrong) == 2 and wrong[0][1] is wrong[1][1]:
            self.error(left, f"{message}, found {wrong[0][1].noun} on both sides")
            return
        for node, t in wrong:
            self.error(node, f"{message}, found {t.noun}")

    def visit(self, node: Expr) -> Type | None:
        match node:
            case Num():
                return INT
            case Bool():
                return BOOL
            case Name(name=name):
                if name in self.variables:
                    return self.variables[name]
                if name in FUNCTIONS:
                    self.error(node, f"`{name}` is a function; call it like `{name}(...)`")
                elif name in self.elsewhere:
                    self.error(node, f"`{name}` cannot be used here: {self.elsewhere[name]}")
                else:
                    self.error(node, f"unknown name `{name}`{_suggest(name, self.variables)}")
                return None
            case Unary(op=op, operand=operand):
                self.need(operand, INT, f"`{op}` needs a number")
                return INT
            case Binary(op=op, left=left, right=right):
                self.need_both(left, right, INT, f"`{op}` needs numbers")
                return INT
            case Compare(op=op, left=left, right=right) if op in ("==", "!="):
                lt, rt = self.visit(left), self.visit(right)
                if lt is not None and rt is not None and lt is not rt:
                    self.error(
                        right,
                        f"`{op}` compares two values of the same type, found {lt.noun} and {rt.noun}",
                    )
                return BOOL
            case Compare(op=op, left=left, right=right):
                self.need_both(left, right, INT, f"`{op}` needs numbers")
                return BOOL
            case BoolOp(op=op, left=left, right=right):
                self.need_both(left, right, BOOL, f"`{op}` needs true/false values")
                return BOOL
            case Not(operand=operand):
                self.need(operand, BOOL, "`not` needs a true/false value")
                return BOOL
            case IfElse(cond=cond, then=then, orelse=orelse):
                self.need(cond, BOOL, "the condition of `if` must be true/false")
                tt, et = self.visit(then), self.visit(orelse)
                if tt is not None and et is not None and tt is not et:
                    self.error(
                        orelse,
                        "both branches of `if` must have the same type: "
                        f"`then` gives {tt.noun}, `else` gives {et.noun}",
                    )
                    return None
                return tt if tt is not None else et
            case Call(func=func, args=args):
                for arg in args:
                    self.need(arg, INT, f"`{func}` needs numbers")
                if func not in FUNCTIONS:
                    known = ", ".join(f"`{f}`" for f in sorted(FUNCTIONS))
                    close = close_matches(func, list(FUNCTIONS), n=1, cutoff=0.5)
                    hint = f"; did you mean `{close[0]}`?" if close else f"; the functions are {known}"
                    self.error(node, f"unknown function `{func}`{hint}")
                    return INT  # every function gives a number: keep checking the rest
                low, high = FUNCTIONS[func]
                if high is not None and low == high and len(args) != low:
                    self.error(node, f"`{func}` takes {_count(low)}, found {len(args)}")
                elif len(args) < low:
                    self.error(node, f"`{func}` needs at least {_count(low)}, found {len(args)}")
                elif high is not None and len(args) > high:
                    self.error(node, f"`{func}` takes at most {_count(high)}, found {len(args)}")
                return INT
        raise TypeError(f"not an expression node: {node!r}")


def _count(n: int) -> str:
    return f"{n} value" if n == 1 else f"{n} values"


def check_expression(
    expr: Expr,
    variables: Mapping[str, Type],
    expected: Type,
    origin: SourcePos = _DEFAULT_ORIGIN,
    elsewhere: Mapping[str, str] | None = None,
) -> list[Diagnostic]:
    """Every name and type problem in ``expr``, in source order (empty if none).

    ``variables`` maps each name the formula may use to its type (:data:`INT` /
    :data:`BOOL`; ``int``/``bool`` and ``"int"``/``"bool"`` are accepted too).
    ``expected`` is the type the formula must give.  Diagnostics are placed at
    ``origin.shifted(line, col)`` of the offending node.  ``elsewhere`` maps names
    other formulas know to why this one does not: the message says so, rather
    than "unknown name".
    """
    checker = _Checker({k: _as_type(t) for k, t in variables.items()}, origin, elsewhere)
    want = _as_type(expected)
    got = checker.visit(expr)
    if got is not None and got is not want:
        checker.error(expr, f"the formula must give {want.noun}, this gives {got.noun}")
    # Sorted for stable output; `sorted` keeps discovery order for equal positions.
    return sorted(checker.diagnostics, key=lambda d: (d.pos.line, d.pos.col))

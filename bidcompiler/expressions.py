"""The expression language of variant files: parse, check, compile, unparse.

Small formulas in variant files (hand scoring, multipliers, game-end conditions)
are written in a tiny language whose grammar is ``grammar/expr.lark``::

    if made then over * multiplier else -bid
    max(score_us, score_them) >= 7 and not tied

The pipeline is one function per stage, like the rest of the compiler:

* :func:`parse_expression` -- text to an AST of frozen dataclasses (positions kept,
  but left out of equality, as in CPython's ``ast``);
* :func:`check_expression` -- names and types; returns *every* problem found;
* :func:`compile_expression` / :func:`compile_ast` -- both of the above, then code
  generation: the AST becomes Python source for a ``lambda v: ...`` which is
  ``eval``-ed once, so evaluating a formula in the engine's hot loop costs one call;
* :func:`unparse` -- canonical text with minimal parentheses;
  ``parse_expression(unparse(e)) == e`` for every AST the parser can produce.

Semantics worth knowing:

* There are two types, numbers (:data:`INT`, Python ``int``) and true/false
  (:data:`BOOL`).  Nothing converts between them implicitly.
* ``/`` is *floor* division, exactly like Python's ``//`` (``-7 / 2 == -4``).
  Division by zero gives ``0`` instead of failing: a formula is data written by a
  rules author, and a rare corner of a house rule must not crash a simulation of a
  million hands.  (Multiplying by ``0`` or guarding with ``if`` is still clearer.)
* Comparisons do not chain: ``a < b < c`` is a syntax error whose message says to
  write ``a < b and b < c``.
* ``==`` and ``!=`` compare two values of the same type; ``< <= > >=`` need numbers.
* ``and``/``or`` short-circuit; ``if`` evaluates only the branch it takes.
* The functions are ``min(a, b, ...)`` and ``max(a, b, ...)`` (two or more
  numbers) and ``abs(a)``.
* Keywords (``if then else and or not true false``) cannot be used as names.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Union

from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from .errors import CompileError, Diagnostic, SourcePos
from .resources import grammar_text
from .yamlload import MAX_NUMBER, number_message

__all__ = [
    "Type",
    "INT",
    "BOOL",
    "Expr",
    "Num",
    "Bool",
    "Name",
    "Unary",
    "Binary",
    "Compare",
    "BoolOp",
    "Not",
    "IfElse",
    "Call",
    "FUNCTIONS",
    "ExprTransformer",
    "parse_expression",
    "check_expression",
    "compile_expression",
    "compile_ast",
    "CompiledExpr",
    "unparse",
    "simplify",
]


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


# -------------------------------------------------------------------------- parser


def _pos(meta) -> tuple[int, int]:
    return (meta.line, meta.column) if not getattr(meta, "empty", True) else _NOPOS


@v_args(meta=True)
class ExprTransformer(Transformer):
    """Builds the AST from the Lark tree of ``expr.lark``.

    Public so that a grammar importing ``expr`` can reuse it:
    ``lark.visitors.merge_transformers(WhistTransformer(), expr=ExprTransformer())``
    maps the imported ``expr__binary`` etc. onto these methods.  Operator tokens
    are read by value, never by type, because an importing grammar renames the
    types (``expr__PLUS``).
    """

    def number(self, meta, children):
        """An integer literal (at most MAX_NUMBER: ValueError, reported by parse_expression, past it)."""
        text = str(children[0])
        if len(text) > 12 or int(text) > MAX_NUMBER:
            raise ValueError(number_message(text))
        return Num(int(text), _pos(meta))

    def true(self, meta, children):
        """The literal ``true``."""
        return Bool(True, _pos(meta))

    def false(self, meta, children):
        """The literal ``false``."""
        return Bool(False, _pos(meta))

    def name(self, meta, children):
        """A variable reference."""
        return Name(str(children[0]), _pos(meta))

    def call(self, meta, children):
        """A function call; the function is checked later, not here."""
        func, *args = children
        return Call(str(func), tuple(args), _pos(meta))

    def neg(self, meta, children):
        """Prefix ``-``."""
        _minus, operand = children
        return Unary("-", operand, _pos(meta))

    def binary(self, meta, children):
        """``+ - * /``."""
        left, op, right = children
        return Binary(str(op), left, right, _pos(meta))

    def compare(self, meta, children):
        """One comparison."""
        left, op, right = children
        return Compare(str(op), left, right, _pos(meta))

    def and_op(self, meta, children):
        """``and``."""
        left, right = children
        return BoolOp("and", left, right, _pos(meta))

    def or_op(self, meta, children):
        """``or``."""
        left, right = children
        return BoolOp("or", left, right, _pos(meta))

    def not_op(self, meta, children):
        """``not``."""
        (operand,) = children
        return Not(operand, _pos(meta))

    def if_else(self, meta, children):
        """``if ... then ... else ...``."""
        cond, then, orelse = children
        return IfElse(cond, then, orelse, _pos(meta))


@functools.cache
def _parser() -> Lark:
    """The LALR parser, built on first use and then shared.

    Building an LALR table costs tens of milliseconds, so it is done once per
    process, and ``cache=True`` stores it on disk for the next process.  The cache
    lives in the temp directory; if that is not writable (read-only containers),
    parse without a cache rather than fail.
    """
    text = grammar_text("expr.lark")
    options = dict(start="expr", parser="lalr", propagate_positions=True)
    try:
        return Lark(text, cache=True, **options)
    except OSError:
        return Lark(text, **options)


# Terminal names (as Lark names them) grouped for messages.  The parser reports
# *sets* of acceptable terminals; listing all of them ("INT, NAME, LPAR, MINUS,
# TRUE, ...") is noise, so they are summarised in words instead.
_OPERAND_START = {"INT", "NAME", "LPAR", "TRUE", "FALSE", "MINUS", "NOT", "IF"}
_BINARY_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "COMP_OP", "AND", "OR"}
_STRUCTURAL = (
    ("THEN", "`then`"),
    ("ELSE", "`else`"),
    ("COMMA", "`,`"),
    ("RPAR", "`)`"),
    ("$END", "the end of the expression"),
)
# Characters people type from other languages, with what to write instead.
_CHAR_HINTS = {
    "=": "to compare, write `==`",
    "&": "write `and`",
    "|": "write `or`",
    "!": "write `not`, or `!=` to compare",
    ".": "numbers are whole numbers",
    "%": "there is no remainder operator",
    '"': "there are no strings in formulas",
    "'": "there are no strings in formulas",
}


def _terminal(name: str) -> str:
    # An importing grammar namespaces our terminals (expr__PLUS); messages do not care.
    return name if name.startswith("$") else name.rsplit("__", 1)[-1]


def _join_or(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _describe_expected(expected: Iterable[str]) -> str:
    names = {_terminal(n) for n in expected}
    if names & {"INT", "NAME"}:
        # An operand is due: whatever else is allowed (`-`, `not`, `true`, `)` of an
        # empty call...) is a detail; these three say what the reader must write.
        return "a number, a name or `(`"
    items = []
    if names & _BINARY_OPERATORS:
        items.append("an operator")
    items.extend(words for key, words in _STRUCTURAL if key in names)
    return _join_or(items) if items else _join_or(sorted(names))


def _strip_comments(text: str) -> str:
    return re.sub(r"#[^\n]*", "", text)


def _acceptable(err: UnexpectedToken) -> set[str]:
    """The terminals that could really come next.

    LALR merges states, so ``err.expected`` may list tokens that are only valid in
    other contexts (``then`` and ``,`` after a top-level operand).  The interactive
    parser tries each candidate on a copy of the real parser state; it is slower,
    but only runs once per syntax error.
    """
    try:
        if err.interactive_parser is not None:
            return set(err.interactive_parser.accepts())
    except Exception:  # a best-effort refinement; never hide the real error
        pass
    return set(err.expected)


def _syntax_diagnostic(err: UnexpectedInput, text: str, origin: SourcePos) -> Diagnostic:
    """Turn a Lark parse failure into one human message at the right place."""
    if isinstance(err, UnexpectedCharacters):
        char = err.char if err.char.isprintable() else repr(err.char)
        message = f"unknown character `{char}`"
        hint = _CHAR_HINTS.get(err.char)
        after = text[err.pos_in_stream + 1:err.pos_in_stream + 2]
        if err.char == "=" and after in ("<", ">"):
            # `score => 7`: the comparison written the other way round, not an equality.
            hint = f"to compare, write `{after}=`"
        if hint is None and err.char.isalpha() and err.char.isupper():
            hint = "names are written in lowercase"
        if hint:
            message += f"; {hint}"
        return Diagnostic(origin.shifted(err.line, err.column), message)

    if isinstance(err, UnexpectedToken):
        token = err.token
        expected = {_terminal(n) for n in _acceptable(err)}
        operand_due = bool(expected & {"INT", "NAME"})
        if token.type == "$END":
            if not _strip_comments(text).strip():
                return Diagnostic(origin.shifted(1, 1), "the expression is empty")
            # Lark's end token borrows the last real token's span: point just after it.
            line = getattr(token, "end_line", None) or token.line or 1
            col = getattr(token, "end_column", None) or token.column or 1
            message = f"unexpected end of expression, expected {_describe_expected(expected)}"
            return Diagnostic(origin.shifted(line, col), message)
        kind = _terminal(token.type)
        if kind == "COMP_OP" and not operand_due:
            # The only way a comparison operator is unexpected after an operand is a
            # second comparison: the grammar makes them non-associative on purpose.
            message = (
                f"comparisons cannot be chained (found a second `{token}`); "
                "write `a < b and b < c` instead of `a < b < c`"
            )
        elif kind == "RPAR" and not operand_due and "RPAR" not in expected:
            message = "`)` without a matching `(`"
        elif str(token) == "*" and operand_due and token.start_pos and text[token.start_pos - 1] == "*":
            # The example multiplies the name the author raised to a power (`over ** 2`), else bid.
            base = re.search(r"([a-z_][a-z0-9_]*)\s*\*$", text[:token.start_pos])
            name = base.group(1) if base else "bid"
            message = f"there is no power operator `**`; multiply (`{name} * {name}`)"
        elif kind == "NAME" and not operand_due and token.start_pos and text[token.start_pos - 1].isdigit():
            # `2bid`: a number and a name written together.
            message = (f"expected an operator, found `{token}` right after a number; "
                       + ("numbers are written out in digits (no `e`)" if re.fullmatch(r"e\d+", str(token))
                          else f"to multiply, write `* {token}`"))
        elif not expected and str(token) in ("then", "else"):
            # The parser offers nothing here (its list is empty): a `then` or an `else` with
            # no `if` of its own left (`if a then b else c else d`).
            message = f"`{token}` without an `if` of its own: write `if CONDITION then A else B`"
        elif not expected:
            message = f"unexpected `{token}`"
        else:
            message = f"expected {_describe_expected(expected)}, found `{token}`"
        return Diagnostic(origin.shifted(token.line, token.column), message)

    # Other Lark failures (not expected with LALR) still become a positioned error.
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    return Diagnostic(origin.shifted(line, col), "syntax error in expression")


_DEFAULT_ORIGIN = SourcePos("<expression>", 1, 1)


def parse_expression(text: str, origin: SourcePos = _DEFAULT_ORIGIN) -> Expr:
    """Parse ``text`` into an AST whose positions are relative to ``text``.

    ``origin`` is where ``text`` starts in its file; it is used only to place the
    :class:`CompileError` raised for a syntax error (the message names what was
    expected in words).  A syntax error stops parsing, so it is reported alone.
    """
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        problem = _syntax_diagnostic(err, text, origin)
    else:
        problem = None
    if problem is not None:
        # Raised outside the handler, so the Lark exception (parser state, lexer, modules)
        # is not its __context__: noise to users, and unpicklable once tblib (which
        # dask.distributed installs) pickles exceptions with their contexts.
        raise CompileError([problem])
    try:
        expr = ExprTransformer().transform(tree)
    except VisitError as err:
        if not isinstance(err.orig_exc, ValueError):
            raise
        # A literal past MAX_NUMBER (ExprTransformer.number).
        meta = getattr(err.obj, "meta", None)
        where = origin.shifted(meta.line, meta.column) if meta is not None and not meta.empty else origin
        raise CompileError([Diagnostic(where, str(err.orig_exc))]) from None
    except RecursionError:
        raise CompileError([Diagnostic(origin, _TOO_DEEP)]) from None
    _check_depth(expr, origin)
    return expr


# Generated code nests a parenthesis or two per level, and Python refuses more than
# 200 nested parentheses; well before that, a formula is unreadable.
MAX_DEPTH = 64
# A chain such as a + b + c + ... is operators inside one another too (each + holds the sum
# before it), so a flat sum of more than MAX_DEPTH terms is refused by the same limit: say so.
_TOO_DEEP = (f"formula nested too deeply (more than {MAX_DEPTH} operators, calls or conditions inside one another; "
             "in a chain such as a + b + c each operator counts)")


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


def _check_depth(expr: Expr, origin: SourcePos) -> None:
    """CompileError at the first node more than :data:`MAX_DEPTH` levels down, if any.

    Iterative, so that checking a deep tree cannot itself overflow the stack.
    """
    stack = [(expr, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise CompileError([Diagnostic(_at(origin, node.pos), _TOO_DEEP)])
        stack.extend((child, depth + 1) for child in _children(node))


# ------------------------------------------------------------------------- checker


def _at(origin: SourcePos, pos: tuple[int, int]) -> SourcePos:
    return origin if pos == _NOPOS else origin.shifted(*pos)


def _suggest(name: str, known: Iterable[str]) -> str:
    known = sorted(known)
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
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
                    close = difflib.get_close_matches(func, list(FUNCTIONS), n=1, cutoff=0.5)
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


# ------------------------------------------------------------------------- codegen


def _python(node: Expr, temps: Iterator[int]) -> str:
    """Python source for ``node``.  Every compound is parenthesised, so Python's own
    precedence (and its chained comparisons) can never change the meaning."""
    match node:
        case Num(value=value):
            return repr(value) if value >= 0 else f"({value!r})"
        case Bool(value=value):
            return "True" if value else "False"
        case Name(name=name):
            return f"v[{name!r}]"
        case Unary(operand=operand):
            return f"(-{_python(operand, temps)})"
        case Binary(op="/", left=left, right=right):
            # Floor division with x / 0 == 0.  The divisor is bound to a fresh
            # temporary by `:=` so it is evaluated once; a conditional evaluates
            # its condition first, so the temporary is set before it is used.
            tmp = f"_d{next(temps)}"
            return (
                f"({_python(left, temps)} // {tmp} "
                f"if ({tmp} := {_python(right, temps)}) else 0)"
            )
        case Binary(op=op, left=left, right=right) | Compare(op=op, left=left, right=right):
            return f"({_python(left, temps)} {op} {_python(right, temps)})"
        case BoolOp(op=op, left=left, right=right):
            return f"({_python(left, temps)} {op} {_python(right, temps)})"
        case Not(operand=operand):
            return f"(not {_python(operand, temps)})"
        case IfElse(cond=cond, then=then, orelse=orelse):
            return (
                f"({_python(then, temps)} if {_python(cond, temps)} "
                f"else {_python(orelse, temps)})"
            )
        case Call(func=func, args=args):
            return f"{func}({', '.join(_python(a, temps) for a in args)})"
    raise TypeError(f"not an expression node: {node!r}")


# The only globals generated code can see: no builtins beyond the three functions.
_CODEGEN_GLOBALS = {"__builtins__": {}, "min": min, "max": max, "abs": abs}


def _names(node: Expr) -> Iterable[str]:
    match node:
        case Name(name=name):
            yield name
        case Unary(operand=x) | Not(operand=x):
            yield from _names(x)
        case Binary(left=a, right=b) | Compare(left=a, right=b) | BoolOp(left=a, right=b):
            yield from _names(a)
            yield from _names(b)
        case IfElse(cond=c, then=a, orelse=b):
            yield from _names(c)
            yield from _names(a)
            yield from _names(b)
        case Call(args=args):
            for arg in args:
                yield from _names(arg)


def _recompile(text: str, variables: Mapping[str, Type], expected: Type) -> "CompiledExpr":
    # Top-level so pickle can find it (process pools pickle by qualified name).
    return compile_expression(text, variables, expected, SourcePos("<unpickled expression>", 1, 1))


@dataclass(frozen=True, slots=True)
class CompiledExpr:
    """A checked formula with its generated evaluator.

    ``text`` is the canonical text (:func:`unparse`), ``ast`` the tree, ``type`` the
    type it gives, ``names`` the variables it reads.  ``fn(v)`` evaluates it for a
    mapping ``v`` from variable name to value; calling the object does the same.

    Equality and hashing use text, AST, type and names only.  Pickling sends the
    canonical text and the types of the variables used and recompiles on the other
    side (functions made by ``eval`` cannot be pickled); positions in the rebuilt
    AST are then relative to the canonical text.
    """

    text: str
    ast: Expr
    type: Type
    names: frozenset[str]
    fn: Callable[[Mapping[str, object]], object] = field(compare=False, repr=False)
    # Types of the names used: what __reduce__ needs to recompile.
    variables: tuple[tuple[str, Type], ...] = field(default=(), compare=False, repr=False)
    # The generated Python source, kept for debugging and tests.
    python_source: str = field(default="", compare=False, repr=False)

    def __call__(self, v: Mapping[str, object]) -> object:
        """Evaluate the formula with variable values ``v``."""
        return self.fn(v)

    def __reduce__(self):
        return (_recompile, (self.text, dict(self.variables), self.type))


def compile_ast(
    expr: Expr,
    variables: Mapping[str, Type],
    expected: Type,
    origin: SourcePos = _DEFAULT_ORIGIN,
    elsewhere: Mapping[str, str] | None = None,
) -> CompiledExpr:
    """Check an already-parsed ``expr`` and generate its evaluator.

    For ASTs built elsewhere, e.g. by a ``.whist`` parser that imports the
    expression grammar: there node positions are file positions, so pass
    ``origin=SourcePos(file, 1, 1)`` (shifting by line 1, column 1 is the identity).
    Raises :class:`CompileError` with every problem found.
    """
    _check_depth(expr, origin)
    diagnostics = check_expression(expr, variables, expected, origin, elsewhere)
    if diagnostics:
        raise CompileError(diagnostics)
    want = _as_type(expected)
    names = frozenset(_names(expr))
    source = f"lambda v: {_python(expr, itertools.count())}"
    # eval of source generated from a checked AST: names are only ever dictionary
    # keys (repr-quoted), operators come from a fixed set, builtins are withheld.
    fn = eval(compile(source, f"<formula {unparse(expr)!r}>", "eval"), dict(_CODEGEN_GLOBALS))
    used = tuple(sorted((n, _as_type(variables[n])) for n in names))
    return CompiledExpr(unparse(expr), expr, want, names, fn, used, source)


def compile_expression(
    text: str,
    variables: Mapping[str, Type],
    expected: Type,
    origin: SourcePos = _DEFAULT_ORIGIN,
    elsewhere: Mapping[str, str] | None = None,
) -> CompiledExpr:
    """Parse, check and compile ``text``; the one call variant loaders need.

    Raises :class:`CompileError` for a syntax error (alone) or with every name and
    type problem, each at ``origin.shifted(line, col)`` (``elsewhere`` as
    :func:`check_expression` takes it).
    """
    return compile_ast(parse_expression(text, origin), variables, expected, origin, elsewhere)


# ------------------------------------------------------------------------- unparse

# Binding strength, weakest first; mirrors the rule levels of expr.lark.
_IF, _OR, _AND, _NOT, _CMP, _SUM, _PRODUCT, _NEG, _ATOM = range(9)


def _precedence(node: Expr) -> int:
    match node:
        case IfElse():
            return _IF
        case BoolOp(op="or"):
            return _OR
        case BoolOp():
            return _AND
        case Not():
            return _NOT
        case Compare():
            return _CMP
        case Binary(op="+" | "-"):
            return _SUM
        case Binary():
            return _PRODUCT
        case Unary():
            return _NEG
    return _ATOM


def _operand(node: Expr, at_least: int, grouped: bool = False) -> str:
    text = unparse(node, grouped=grouped)
    return f"({text})" if _precedence(node) < at_least else text


def unparse(expr: Expr, *, grouped: bool = False) -> str:
    """Canonical text for ``expr``: single spaces around binary operators and only
    the parentheses the grammar needs, e.g. ``if made then over else -bid``.

    ``parse_expression(unparse(e)) == e`` holds for every AST the parser produces
    (literals non-negative, names valid and not keywords).

    ``grouped=True`` is for people reading: a conditional inside the condition or
    the ``then`` part of another is put in parentheses
    (``if made then (if bid == 7 then 14 else over) else -bid``), which the grammar
    does not need but a reader does.  An ``else if`` chain stays as it is.  The
    text parses to the same tree.
    """
    g = grouped
    match expr:
        case Num(value=value):
            return str(value)
        case Bool(value=value):
            return "true" if value else "false"
        case Name(name=name):
            return name
        case Unary(op=op, operand=operand):
            inner = _operand(operand, _NEG, g)
            # `- -x`, not `--x`: same parse, easier to read.
            return f"{op} {inner}" if inner.startswith("-") else f"{op}{inner}"
        case Binary(op=op, left=left, right=right) | BoolOp(op=op, left=left, right=right):
            # Left-associative: the right operand must bind strictly tighter.
            level = _precedence(expr)
            return f"{_operand(left, level, g)} {op} {_operand(right, level + 1, g)}"
        case Compare(op=op, left=left, right=right):
            # Non-associative: neither side may itself be a comparison.
            return f"{_operand(left, _SUM, g)} {op} {_operand(right, _SUM, g)}"
        case Not(operand=operand):
            return f"not {_operand(operand, _NOT, g)}"
        case IfElse(cond=cond, then=then, orelse=orelse):
            # Each part is a full expression in the grammar: keywords delimit them.
            inner = _IF + 1 if g else _IF
            return (f"if {_operand(cond, inner, g)} then {_operand(then, inner, g)} "
                    f"else {unparse(orelse, grouped=g)}")
        case Call(func=func, args=args):
            return f"{func}({', '.join(unparse(a, grouped=g) for a in args)})"
    raise TypeError(f"not an expression node: {expr!r}")


# ------------------------------------------------------------------------ simplify
#
# A pass over the tree that keeps the formula's meaning exactly and removes what is
# known: inside ``if c then A else B``, ``c`` is true throughout ``A`` and false
# throughout ``B`` (and so is each part of an ``and`` in ``A``, of an ``or`` in ``B``);
# the right operand of ``and`` is only looked at when the left one is true.  On top
# of that, literals are folded and ``+ 0``, ``* 1`` and the like dropped.  The
# language has no side effects and no failing operations (``x / 0`` is ``0``), so any
# rewrite that gives the same value for every value of the variables is safe, even
# one that drops an operand.  It is used to *show* formulas (the rulebook, ``diff``);
# compiling a formula never goes through it.

_MIRRORED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_COMPARE_FNS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _int_node(value: int) -> Expr:
    """A literal as the parser would write it: ``-5`` is ``Unary("-", Num(5))``."""
    return Num(value) if value >= 0 else Unary("-", Num(-value))


def _constant(node: Expr) -> int | None:
    """The value of a number literal (``5``, ``-5``, ``- -5``), else None."""
    match node:
        case Num(value=value):
            return value
        case Unary(op="-", operand=operand):
            inner = _constant(operand)
            return None if inner is None else -inner
    return None


@dataclass(frozen=True)
class _Range:
    """What is known of one number variable: ``low <= x <= high``, and ``x`` is none of ``not_equal``."""

    low: int | None = None
    high: int | None = None
    not_equal: frozenset = frozenset()

    def decide(self, op: str, c: int) -> bool | None:
        """``x op c`` when this range settles it, else None."""
        lo, hi = self.low, self.high
        if op in ("==", "!="):
            if lo is not None and lo == hi:
                return (lo == c) == (op == "==")
            if (lo is not None and c < lo) or (hi is not None and c > hi) or c in self.not_equal:
                return op == "!="
            return None
        if op in (">", "<="):  # x > c is x >= c + 1; x <= c is not (x > c)
            result = self.decide(">=", c + 1)
            return None if result is None else result == (op == ">")
        if op == ">=":
            if lo is not None and lo >= c:
                return True
            if hi is not None and hi < c:
                return False
            return None
        if op == "<":
            result = self.decide(">=", c)
            return None if result is None else not result
        return None

    def learn(self, op: str, c: int) -> "_Range | None":
        """The range once ``x op c`` is known to hold; None if that cannot be (a dead branch)."""
        lo, hi, ne = self.low, self.high, self.not_equal
        if op == "!=":
            ne = ne | {c}
        elif op == "==":
            lo, hi = c, c
        elif op in (">=", ">"):
            bound = c if op == ">=" else c + 1
            lo = bound if lo is None else max(lo, bound)
        else:
            bound = c if op == "<=" else c - 1
            hi = bound if hi is None else min(hi, bound)
        if lo is not None and hi is not None and lo > hi:
            return None
        if lo is not None and lo == hi and lo in ne:
            return None
        return _Range(lo, hi, ne)


@dataclass(frozen=True)
class _Facts:
    """What is known at one place in the tree: true/false sub-formulas and ranges of number variables."""

    atoms: tuple = ()    # (formula, value) pairs
    ranges: tuple = ()   # (name, _Range) pairs

    def _range(self, name: str) -> _Range:
        for known, value in reversed(self.ranges):
            if known == name:
                return value
        return _Range()

    def lookup(self, node: Expr) -> bool | None:
        """The value of a true/false ``node`` if these facts settle it."""
        for known, value in reversed(self.atoms):
            if known == node:
                return value
        if isinstance(node, Compare):
            found = _name_against_constant(node)
            if found is not None:
                name, op, c = found
                return self._range(name).decide(op, c)
        return None

    def pinned(self, name: str) -> int | None:
        """The value of number variable ``name`` when the facts fix it (``bid == 7`` holds)."""
        r = self._range(name)
        return r.low if r.low is not None and r.low == r.high else None

    def assume(self, node: Expr, value: bool) -> "_Facts":
        """These facts and ``node`` having ``value``."""
        match node:
            case Bool():
                return self
            case Not(operand=operand):
                return self.assume(operand, not value)
            case BoolOp(op="and", left=left, right=right) if value:
                return self.assume(left, True).assume(right, True)
            case BoolOp(op="or", left=left, right=right) if not value:
                return self.assume(left, False).assume(right, False)
            case Compare(op=op, left=left, right=right):
                # Its negation is known too, for whichever form a later test takes.
                negation = Compare(_NEGATED[op], left, right)
                facts = replace(self, atoms=self.atoms + ((node, value), (negation, not value)))
                found = _name_against_constant(node)
                if found is not None:
                    name, op, c = found
                    learned = facts._range(name).learn(op if value else _NEGATED[op], c)
                    if learned is not None:  # a contradiction is a dead branch: learn nothing
                        facts = replace(facts, ranges=facts.ranges + ((name, learned),))
                return facts
        return replace(self, atoms=self.atoms + ((node, value),))


def _name_against_constant(node: Compare) -> tuple[str, str, int] | None:
    """``(name, op, c)`` for ``name op c`` or ``c op name`` (mirrored), else None."""
    if isinstance(node.left, Name) and _constant(node.right) is not None:
        return node.left.name, node.op, _constant(node.right)
    if isinstance(node.right, Name) and _constant(node.left) is not None:
        return node.right.name, _MIRRORED[node.op], _constant(node.left)
    return None


def _floor_div(a: int, b: int) -> int:
    return a // b if b else 0


def _fold_sum(node: Expr) -> Expr:
    """A sum or difference with its literals added up, its terms in the order written.

    The literals' total takes the place of the first literal (``6 + bid`` stays as
    it is, ``over + 5 - 5`` is ``over``) and a total of 0 goes.
    """
    terms: list[tuple[int, Expr]] = []  # (sign, term)

    def collect(n: Expr, sign: int) -> None:
        match n:
            case Binary(op="+", left=a, right=b):
                collect(a, sign)
                collect(b, sign)
            case Binary(op="-", left=a, right=b):
                collect(a, sign)
                collect(b, -sign)
            case Unary(op="-", operand=a) if _constant(n) is None:
                collect(a, -sign)
            case _:
                terms.append((sign, n))

    collect(node, 1)
    total = sum(sign * _constant(t) for sign, t in terms if _constant(t) is not None)
    out_terms: list[tuple[int, Expr]] = []
    placed = False
    for sign, term in terms:
        if _constant(term) is None:
            out_terms.append((sign, term))
        elif not placed:
            placed = True
            if total:
                out_terms.append((1 if total > 0 else -1, Num(abs(total))))
    if not out_terms:
        return Num(0)
    sign, term = out_terms[0]
    out = term if sign > 0 else _negate(term)
    for sign, term in out_terms[1:]:
        out = Binary("+" if sign > 0 else "-", out, term)
    return out


def _negate(node: Expr) -> Expr:
    c = _constant(node)
    if c is not None:
        return _int_node(-c)
    if isinstance(node, Unary):
        return node.operand
    return Unary("-", node)


def _fold_product(node: Expr) -> Expr:
    """A product with its literals multiplied out in front: ``over * 2 * 2`` is ``4 * over``."""
    factors: list[Expr] = []

    def collect(n: Expr) -> None:
        if isinstance(n, Binary) and n.op == "*":
            collect(n.left)
            collect(n.right)
        elif isinstance(n, Unary) and _constant(n) is None:
            factors.append(_int_node(-1))
            collect(n.operand)
        else:
            factors.append(n)

    collect(node)
    k = 1
    for f in factors:
        c = _constant(f)
        if c is not None:
            k *= c
    rest = [f for f in factors if _constant(f) is None]
    if k == 0 or not rest:
        return _int_node(k)
    if k == -1:  # `-a * b`, not `-(a * b)`
        rest[0], k = _negate(rest[0]), 1
    out = rest[0]
    for f in rest[1:]:
        out = Binary("*", out, f)
    # The literal in front, sign and all: `-2 * bid` reads better than `2 * -bid`.
    return out if k == 1 else Binary("*", _int_node(k), out)


class _Simplifier:
    """The rewrite of :func:`simplify`, one node kind per case."""

    def __init__(self, arithmetic: bool):
        self.arithmetic = arithmetic

    def run(self, node: Expr, facts: _Facts) -> Expr:
        match node:
            case Num() | Bool():
                return node
            case Name(name=name):
                known = facts.lookup(node)
                if known is not None:
                    return Bool(known)
                pinned = facts.pinned(name) if self.arithmetic else None
                return node if pinned is None else _int_node(pinned)
            case Unary(operand=operand):
                inner = self.run(operand, facts)
                return _negate(inner) if self.arithmetic else replace(node, operand=inner)
            case Binary(op=op, left=left, right=right):
                a, b = self.run(left, facts), self.run(right, facts)
                return self.binary(replace(node, left=a, right=b))
            case Compare():
                return self.compare(node, facts)
            case Not(operand=operand):
                inner = self.run(operand, facts)
                if isinstance(inner, Bool):
                    return Bool(not inner.value)
                if isinstance(inner, Not):
                    return inner.operand
                if isinstance(inner, Compare):
                    return replace(inner, op=_NEGATED[inner.op])
                return replace(node, operand=inner)
            case BoolOp(op=op, left=left, right=right):
                a = self.run(left, facts)
                if isinstance(a, Bool) and a.value == (op == "or"):
                    return a  # true or ..., false and ...
                # The right operand only counts when the left one did not decide.
                b = self.run(right, facts.assume(a, op == "and"))
                if isinstance(a, Bool):
                    return b
                if isinstance(b, Bool):
                    return b if b.value == (op == "or") else a
                return a if a == b else replace(node, left=a, right=b)
            case IfElse(cond=cond, then=then, orelse=orelse):
                c = self.run(cond, facts)
                if isinstance(c, Bool):
                    return self.run(then if c.value else orelse, facts)
                if isinstance(c, Not):  # if not c then A else B is if c then B else A
                    c, then, orelse = c.operand, orelse, then
                t = self.run(then, facts.assume(c, True))
                e = self.run(orelse, facts.assume(c, False))
                if t == e:
                    return t
                if t == Bool(True) and e == Bool(False):
                    return c
                if t == Bool(False) and e == Bool(True):
                    return self.run(Not(c), facts)
                return replace(node, cond=c, then=t, orelse=e)
            case Call(args=args):
                values = tuple(self.run(a, facts) for a in args)
                return self.call(replace(node, args=values))
        raise TypeError(f"not an expression node: {node!r}")

    def binary(self, node: Binary) -> Expr:
        if not self.arithmetic:
            return node
        op, a, b = node.op, node.left, node.right
        ca, cb = _constant(a), _constant(b)
        if op == "/":
            if ca is not None and cb is not None:
                return _int_node(_floor_div(ca, cb))
            if cb == 0 or ca == 0:
                return Num(0)  # x / 0 is 0 by definition; 0 / x is 0 for every x
            if cb == 1:
                return a
            if cb == -1:
                return _negate(a)
            return node
        if op in "+-":
            return _fold_sum(node)
        return _fold_product(node)

    def compare(self, node: Compare, facts: _Facts) -> Expr:
        a, b = self.run(node.left, facts), self.run(node.right, facts)
        op = node.op
        if self.arithmetic and _constant(a) is not None and _constant(b) is None:
            a, b, op = b, a, _MIRRORED[op]  # the constant on the right: `score >= 7`
        out = Compare(op, a, b)
        ca, cb = _constant(a), _constant(b)
        if ca is not None and cb is not None:
            return Bool(_COMPARE_FNS[op](ca, cb))
        if isinstance(a, Bool) and isinstance(b, Bool):
            return Bool(_COMPARE_FNS[op](a.value, b.value))
        if op in ("==", "!=") and (isinstance(a, Bool) or isinstance(b, Bool)):
            # x == true is x, x != true is not x ...
            literal, other = (a, b) if isinstance(a, Bool) else (b, a)
            return other if literal.value == (op == "==") else self.run(Not(other), facts)
        if a == b:
            return Bool(op in ("==", "<=", ">="))
        known = facts.lookup(out)
        return out if known is None else Bool(known)

    def call(self, node: Call) -> Expr:
        if not self.arithmetic or node.func not in FUNCTIONS:
            return node
        values = [_constant(a) for a in node.args]
        if node.func == "abs":
            if len(node.args) == 1 and values[0] is not None:
                return _int_node(abs(values[0]))
            return node
        low, _ = FUNCTIONS[node.func]
        if len(node.args) < low:
            return node
        pick = min if node.func == "min" else max
        # Nested calls of the same function flatten; repeated arguments go; literals combine.
        args: list[Expr] = []
        for arg in node.args:
            for part in (arg.args if isinstance(arg, Call) and arg.func == node.func and len(arg.args) >= low
                         else (arg,)):
                if part not in args:
                    args.append(part)
        literals = [_constant(a) for a in args if _constant(a) is not None]
        args = [a for a in args if _constant(a) is None]
        if literals:
            args.insert(0, _int_node(pick(literals)))
        if len(args) == 1:
            return args[0]
        return replace(node, args=tuple(args))


def _size(node: Expr) -> int:
    """How much there is to read: the number of *different* sub-formulas.

    A part written twice counts once, so ``if sweep then 2 * X else X`` is not
    mistaken for a formula worth splitting apart.
    """
    seen: set = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(_children(n))
    return len(seen)


def _tested(node: Expr) -> list[Expr]:
    """The true/false tests a formula's conditionals make, outermost first: split candidates."""
    found: list[Expr] = []

    def parts(cond: Expr) -> Iterator[Expr]:
        if isinstance(cond, BoolOp):
            yield from parts(cond.left)
            yield from parts(cond.right)
        elif isinstance(cond, Not):
            yield from parts(cond.operand)
        elif not isinstance(cond, Bool):
            yield cond

    stack = [node]
    while stack:
        n = stack.pop(0)
        if isinstance(n, IfElse):
            found.extend(p for p in parts(n.cond) if p not in found)
        stack.extend(_children(n))
    return found


def _factor(node: Expr, simplifier: _Simplifier, facts: _Facts) -> Expr:
    """Pull a test out to the top where that makes the formula smaller.

    ``if made and bid == 7 then 14 else if made then over else -bid`` asks ``made``
    twice; as ``if made then (if bid == 7 then 14 else over) else -bid`` it asks it
    once.  Splitting on a test ``t`` (``if t then e|t else e|not t``) keeps the
    meaning of any ``e``; it is kept only when it makes the formula strictly
    smaller (:func:`_size`).  Parts are factored first, from the inside out.
    """
    match node:
        case IfElse(cond=cond, then=then, orelse=orelse):
            node = replace(node, then=_factor(then, simplifier, facts.assume(cond, True)),
                           orelse=_factor(orelse, simplifier, facts.assume(cond, False)))
        case Unary(operand=x) | Not(operand=x):
            return replace(node, operand=_factor(x, simplifier, facts))
        case Binary(left=a, right=b) | Compare(left=a, right=b) | BoolOp(left=a, right=b):
            return replace(node, left=_factor(a, simplifier, facts), right=_factor(b, simplifier, facts))
        case Call(args=args):
            return replace(node, args=tuple(_factor(a, simplifier, facts) for a in args))
        case _:
            return node
    best, best_size = node, _size(node)
    for test in _tested(node):
        split = simplifier.run(IfElse(test, node, node), facts)
        if _size(split) < best_size:
            best, best_size = split, _size(split)
    if best is node or not isinstance(best, IfElse):
        return best
    # The branches of the split are new formulas: factor them in turn (each is smaller).
    return replace(best,
                   then=_factor(best.then, simplifier, facts.assume(best.cond, True)),
                   orelse=_factor(best.orelse, simplifier, facts.assume(best.cond, False)))


def simplify(expr: Expr, *, arithmetic: bool = True, factor: bool = True) -> Expr:
    """``expr`` with what is known folded away; the same value for every value of its variables.

    * Known conditions: in ``if made and bid == 7 then A else B``, ``made`` is true
      and ``bid`` is 7 throughout ``A``, so ``if made then over else -bid`` inside
      ``A`` becomes ``over``.  Ranges are tracked for ``name op number`` tests
      (``bid >= 5`` settles ``bid == 3``).
    * With ``arithmetic``: literals are folded (``2 * 2`` is ``4``, ``-(-x)`` is
      ``x``), ``+ 0``, ``* 1``, ``/ 1`` dropped, ``* 0`` is ``0``, constants of a sum
      collected (``over + 5 - 5`` is ``over``), the literal of a comparison put on
      the right (``7 <= score`` is ``score >= 7``), ``min``/``max`` of literals folded.
    * With ``factor``: a test asked in several branches is asked once at the top
      when that makes the formula smaller (see :func:`_factor`).

    ``arithmetic=False, factor=False`` only folds conditionals on known
    conditions, which is what inlining ``base`` into a house rule calls for.
    The result type-checks wherever ``expr`` does and never names a variable
    ``expr`` does not.
    """
    simplifier = _Simplifier(arithmetic)
    out = simplifier.run(expr, _Facts())
    if factor:
        out = _factor(out, simplifier, _Facts())
    return out

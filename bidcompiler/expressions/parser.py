"""Formula text to syntax tree: the grammar (``grammar/expr.lark``), the parser and the nesting limit.

Part of the expression language of variant files (bidcompiler/expressions/): the first
stage; its tree (nodes.py) goes to the checker and the code generator.
"""

from __future__ import annotations

import functools

from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedInput, VisitError

from ..errors import CompileError, Diagnostic, SourcePos
from ..resources import grammar_text
from ..yamlload import MAX_NUMBER, number_message
from .nodes import (
    _DEFAULT_ORIGIN,
    _NOPOS,
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
    Unary,
    _at,
    _children,
)
from .syntax_errors import _syntax_diagnostic


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
        if isinstance(err.orig_exc, RecursionError):
            # The stack ran out inside one of the transformer's own rules (3,000 `if … then` in
            # a row did), not between them: lark wraps it, and it is the same formula too deep.
            raise CompileError([Diagnostic(origin, _TOO_DEEP)]) from None
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

"""The expression language of variant files: parse, check, compile, unparse.

Small formulas in variant files (hand scoring, multipliers, game-end conditions)
are written in a tiny language whose grammar is ``grammar/expr.lark``::

    if made then over * multiplier else -bid
    max(score_us, score_them) >= 7 and not tied

The pipeline is one function per stage, like the rest of the compiler, and one
module of this package per stage (``nodes`` holds the AST they share):

* :func:`parse_expression` (``parser``; its syntax errors worded by
  ``syntax_errors``) -- text to an AST of frozen dataclasses (positions kept,
  but left out of equality, as in CPython's ``ast``);
* :func:`check_expression` (``checker``) -- names and types; returns *every* problem found;
* :func:`compile_expression` / :func:`compile_ast` (``codegen``) -- both of the above, then code
  generation: the AST becomes Python source for a ``lambda v: ...`` which is
  ``eval``-ed once, so evaluating a formula in the engine's hot loop costs one call;
* :func:`unparse` (``unparse``) -- canonical text with minimal parentheses;
  ``parse_expression(unparse(e)) == e`` for every AST the parser can produce;
* :func:`simplify` (``simplify``) -- the same formula with what is known removed,
  to show it (the rulebook, ``diff``); compiling never goes through it.

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

from .checker import check_expression
from .codegen import CompiledExpr, compile_ast, compile_expression
from .nodes import (
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
)
from .parser import MAX_DEPTH, ExprTransformer, parse_expression
from .simplify import simplify
from .unparse import unparse

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
    "MAX_DEPTH",
]

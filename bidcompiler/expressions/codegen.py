"""A checked formula compiled to Python: one ``lambda v: ...`` the engine calls.

Part of the expression language of variant files (bidcompiler/expressions/): the last
stage: parse (parser.py), check (checker.py), then generate and ``eval`` the
evaluator once; :class:`CompiledExpr` pickles by its canonical text (unparse.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from ..errors import CompileError, SourcePos
from .checker import check_expression
from .nodes import (
    _DEFAULT_ORIGIN,
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
)
from .parser import _check_depth, parse_expression
from .unparse import unparse


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

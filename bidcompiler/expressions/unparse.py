"""A syntax tree back to canonical formula text, with the fewest parentheses.

Part of the expression language of variant files (bidcompiler/expressions/): beside the
pipeline: the compiled formula's text, the rulebook and ``diff`` show it, and
``parse_expression(unparse(e)) == e``.
"""

from __future__ import annotations

from .nodes import Binary, Bool, BoolOp, Call, Compare, Expr, IfElse, Name, Not, Num, Unary


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

"""Hypothesis strategies for well-typed formula trees, shared by the expression and reading tests."""

from __future__ import annotations

import functools

from hypothesis import strategies as st

from bidcompiler.expressions import (
    BOOL, INT, Binary, Bool, BoolOp, Call, Compare, IfElse, Name, Not, Num, Unary,
)

COMPARISONS = ["==", "!=", "<", "<=", ">", ">="]


@functools.cache
def typed_trees(kind, depth: int, ints: tuple[str, ...], bools: tuple[str, ...], top: int = 30,
                max_args: int = 4, against_literals: bool = False):
    """Well-typed trees of type ``kind`` with at most ``depth`` levels of nesting.

    Leaves are literals 0..``top`` and the variables ``ints`` / ``bools``; ``min`` and
    ``max`` take 2..``max_args`` arguments.  With ``against_literals``, conditions also
    compare a variable with a literal (either way round), so that range reasoning
    (``bid >= 5``) is exercised often.
    """
    numbers = st.integers(0, top).map(Num)
    if kind is INT:
        leaf = st.one_of(numbers, st.sampled_from(ints).map(Name))
    else:
        leaf = st.one_of(st.booleans().map(Bool), st.sampled_from(bools).map(Name))
    if depth == 0:
        return leaf
    i = typed_trees(INT, depth - 1, ints, bools, top, max_args, against_literals)
    b = typed_trees(BOOL, depth - 1, ints, bools, top, max_args, against_literals)
    ops = st.sampled_from(COMPARISONS)
    if kind is INT:
        compound = st.one_of(
            st.builds(Unary, st.just("-"), i),
            st.builds(Binary, st.sampled_from("+-*/"), i, i),
            st.builds(IfElse, b, i, i),
            st.builds(Call, st.sampled_from(["min", "max"]), st.lists(i, min_size=2, max_size=max_args).map(tuple)),
            st.builds(Call, st.just("abs"), st.tuples(i)),
        )
    else:
        literal_comparisons = [
            st.builds(Compare, ops, st.sampled_from(ints).map(Name), numbers),
            st.builds(Compare, ops, numbers, st.sampled_from(ints).map(Name)),
        ] if against_literals else []
        compound = st.one_of(
            st.builds(Not, b),
            st.builds(BoolOp, st.sampled_from(["and", "or"]), b, b),
            st.builds(Compare, ops, i, i),
            *literal_comparisons,
            st.builds(Compare, st.sampled_from(["==", "!="]), b, b),
            st.builds(IfElse, b, b, b),
        )
    return st.one_of(leaf, compound)

"""A formula with what is known removed, for showing it: the same value everywhere.

Part of the expression language of variant files (bidcompiler/expressions/): beside the
pipeline, for people (the rulebook, ``diff``); compiling a formula never goes
through it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from .nodes import FUNCTIONS, Binary, Bool, BoolOp, Call, Compare, Expr, IfElse, Name, Not, Num, Unary, _children


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

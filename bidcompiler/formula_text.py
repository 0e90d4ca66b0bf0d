"""A formula of a variant file for people: simplified code and a plain-English reading.

The rulebook (``bidwhist rules``) and ``bidwhist diff`` show each scoring and
game-end formula twice: as code, simplified (:func:`bidcompiler.expressions.simplify`
folds away what a house rule's ``base`` left repeated), and in words::

    if made then (if bid == 7 then 14 else if bid == 5 then over + 5 else over) else -bid
    made: 14 points on a bid of 7, the declarers' books over six plus 5 on a bid of 5,
    otherwise the declarers' books over six; set: minus the bid

The reading is made from the tree by generic rules (a noun for each variable, a
clause for each test, a case list for each chain of ``if``), never from a table of
known formulas, so any formula a user writes gets one.  Where English could group
words two ways, the reading uses parentheses: clumsy, but never wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from .expressions import (
    Binary, Bool, BoolOp, Call, Compare, Expr, IfElse, Name, Not, Num, Unary, parse_expression, simplify, unparse,
)

__all__ = ["Wording", "simplified", "formula_code", "formula_shown", "reading"]


@dataclass(frozen=True)
class Wording:
    """How the reading names the players: ``the declarers`` (partnerships) or ``the declarer``.

    ``points`` says that a bare number in the formula is a score ("14 points",
    "nothing" for 0); a multiplier's or a count's numbers stay plain.  ``target``, where
    known, is said for the game's ``target`` (the code beside the words names it).
    """

    declarers: str = "the declarers"
    points: bool = False
    target: int | None = None

    @property
    def declarers_own(self) -> str:
        """The possessive: ``the declarers'`` / ``the declarer's``."""
        return self.declarers + ("'" if self.declarers.endswith("s") else "'s")


# A number variable as a noun phrase ({own} is the declaring side's possessive) and
# whether it takes a plural verb.
NOUNS = {
    "bid": ("the bid", False),
    "books": ("{own} books", True),
    "over": ("{own} books over six", True),
    "defender_books": ("the defenders' books", True),
    "defender_over": ("the defenders' books over six", True),
    "own_books": ("their own books", True),
    "total_books": ("the books in the hand", True),
    "score": ("the side's score", False),
    "opponent_score": ("the best other score", False),
    "sets": ("the times the side has been set", True),
    "sets_in_a_row": ("the side's contracts set in a row", True),
    "hands": ("the hands played", True),
    "games": ("the games the side has won", True),
    "target": ("the target", False),
    "played": ("the hands played with a contract", True),
    "last_bid": ("the bid of the hand just played", False),
}
# Books variables that "minus 6" turns into "... over six".
BOOKS_OVER = {"books": "{own} books over six", "own_books": "their own books over six",
              "defender_books": "the defenders' books over six"}
# A true/false variable as a clause, then its negation ({who} is the declaring side).
CLAUSES = {
    "notrump": ("the contract is in no trump", "the contract has a trump suit"),
    # A sweep is every book the side could take (runtime.kitty.swept): every trick where the
    # discards are the defenders' book.
    "sweep": ("{who} took every book they could take", "{who} did not take every book they could take"),
    "made": ("the contract is made", "the contract is set"),
    "swept": ("the side took every book it could take in the hand",
              "the side did not take every book it could take in the hand"),
    "last_declarer": ("the side declared the hand just played", "the side did not declare the hand just played"),
    "last_made": ("the hand just played was made", "the hand just played was set"),
}
# The same as a short condition after a value ("2 in no trump"), then its negation.
WHEN = {
    "notrump": ("in no trump", "in a suit contract"),
    "made": ("if made", "if set"),
}
# Counts compared with a number: a sentence whose {q} is "at least 3" etc.
COUNTS = {
    "sets": "the side has been set {q} {times}",
    "sets_in_a_row": "the side has been set {q} {times} in a row",
    "hands": "{q} {hands} been played",
    "games": "the side has won {q} {games}",
    "played": "{q} {hands} been played with a contract",
}
# The bid compared with a number, as a condition after a value.
BID_WHEN = {"==": "on a bid of {c}", ">=": "on a bid of {c} or more", "<=": "on a bid of {c} or less",
            ">": "on a bid above {c}", "<": "on a bid below {c}", "!=": "on any bid but {c}"}
RELATIONS = {">=": "at least", "<=": "at most", ">": "more than", "<": "less than", "==": "", "!=": "not"}
COUNT_RELATIONS = {">=": "at least", "<=": "at most", ">": "more than", "<": "fewer than", "==": "exactly"}
ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}
MULTIPLES = {2: "twice", 3: "three times", 4: "four times"}
SCALED = {2: "doubled", 3: "tripled", 4: "quadrupled"}
NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def simplified(expr: Expr) -> Expr:
    """The formula as shown: :func:`~bidcompiler.expressions.simplify` of ``expr``."""
    return simplify(expr)


def formula_code(expr: Expr) -> str:
    """The simplified formula's text, a nested conditional in parentheses; it parses back to the same tree."""
    return unparse(simplified(expr), grouped=True)


def formula_shown(text: str) -> str:
    """A compiled formula's text as every command prints it (``compile``'s summary, ``rules``,
    ``diff``): simplified, so one formula reads the same everywhere (``-2 * bid``, never
    ``2 * -bid`` in one place and ``-2 * bid`` in another).  An empty text stays empty."""
    return formula_code(parse_expression(text)) if text else text


def reading(expr: Expr, wording: Wording = Wording(), condition: bool | None = None) -> str:
    """The formula in plain English (simplified first); any well-formed tree gets one.

    ``condition`` says whether the formula gives true/false; None guesses from its
    shape (right for every name the engine provides).
    """
    tree = simplified(expr)
    words = _Reader(wording)
    if condition if condition is not None else _is_condition(tree):
        return words.clause(tree)[0]
    return words.value(tree, top=True)[0]


def _is_condition(e: Expr) -> bool:
    """Whether ``e`` gives true/false (from its shape: the tree has been type-checked)."""
    match e:
        case Bool() | Compare() | BoolOp() | Not():
            return True
        case Name(name=name):
            return name in CLAUSES or name in WHEN
        case IfElse(then=then, orelse=orelse):
            return _is_condition(then) or _is_condition(orelse)
    return False


def _constant(e: Expr) -> int | None:
    match e:
        case Num(value=value):
            return value
        case Unary(operand=operand):
            inner = _constant(operand)
            return None if inner is None else -inner
    return None


def _flatten(e: Expr, op: str) -> list[Expr]:
    if isinstance(e, BoolOp) and e.op == op:
        return _flatten(e.left, op) + _flatten(e.right, op)
    return [e]


def _negation(e: Expr) -> Expr:
    """A tree for ``not e`` without a ``not`` on top where one can be pushed inside."""
    match e:
        case Bool(value=value):
            return Bool(not value)
        case Not(operand=operand):
            return operand
        case Compare(op=op, left=left, right=right):
            return Compare(NEGATED[op], left, right)
        case BoolOp(op=op, left=left, right=right):
            return BoolOp("or" if op == "and" else "and", _negation(left), _negation(right))
        case IfElse(cond=cond, then=then, orelse=orelse):
            return IfElse(cond, _negation(then), _negation(orelse))
    return Not(e)


def _paren(text: str) -> str:
    return f"({text})"


def _join(items: list[str], last: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


class _Reader:
    """The renderer: one method per kind of phrase.

    ``value`` returns (text, level): level 0 has no list in it, 1 is a list
    separated by commas, 2 by semicolons; an enclosing list of the same or a lower
    level puts such a part in parentheses, so lists never run into each other.
    """

    def __init__(self, wording: Wording):
        self.w = wording

    # -------------------------------------------------------------- numbers

    def noun(self, e: Expr) -> tuple[str, bool]:
        """A number as a noun phrase and whether it is plural."""
        c = _constant(e)
        if c is not None:
            return str(c), False
        match e:
            case Name(name="target") if self.w.target is not None:
                return str(self.w.target), False
            case Unary(operand=Name(name="target")) if self.w.target is not None:
                return str(-self.w.target), False  # read as the number it is: -7
            case Name(name=name):
                if name in NOUNS:
                    text, plural = NOUNS[name]
                    return text.format(own=self.w.declarers_own), plural
                return f"`{name}`", False
            case Unary(operand=operand):
                inner, _ = self.noun(operand)
                return f"minus {_paren(inner) if isinstance(operand, (Binary, IfElse)) else inner}", False
            case Binary(op="-", left=Name(name=name), right=Num(value=6)) if name in BOOKS_OVER:
                return BOOKS_OVER[name].format(own=self.w.declarers_own), True
            case Binary(op="*", left=left, right=right) if _constant(left) is not None:
                k = _constant(left)
                inner = self.operand(right, strong=True)
                if abs(k) in MULTIPLES:
                    text = f"{MULTIPLES[abs(k)]} {inner}"
                else:
                    text = f"{abs(k)} times {inner}"
                return (text if k >= 0 else f"minus {text}"), False
            case Binary(op="/", left=left, right=Num(value=2)):
                return f"half {self.operand(left, strong=True)} (rounded down)", False
            case Binary(op=op, left=left, right=right):
                same = isinstance(left, Binary) and _level(left.op) == _level(op)
                left_text = self.noun(left)[0] if same else self.operand(left)
                text = f"{left_text} {ARITHMETIC[op]} {self.operand(right, strong=True)}"
                return (text + " (rounded down)" if op == "/" else text), False
            case Call(func=func, args=args):
                nouns = [self.operand(a, strong=True) for a in args]
                if func == "abs" and len(nouns) == 1:
                    return f"the absolute value of {nouns[0]}", False
                if func in ("max", "min"):
                    word = ("larger" if func == "max" else "smaller") if len(nouns) == 2 else \
                        ("largest" if func == "max" else "smallest")
                    return f"the {word} of {_join(nouns)}", False
                return f"`{func}` of {_join(nouns)}", False
            case IfElse():
                return _paren(self.value(e)[0]), False
        return f"`{unparse(e)}`", False

    def operand(self, e: Expr, strong: bool = False) -> str:
        """A noun inside arithmetic: a compound one in parentheses (``strong``: any compound)."""
        text, _ = self.noun(e)
        books_over = e.op == "-" and isinstance(e.left, Name) and e.left.name in BOOKS_OVER \
            and _constant(e.right) == 6 if isinstance(e, Binary) else False
        # "twice the bid plus 5" reads as (twice the bid) plus 5, as it means.
        multiple = isinstance(e, Binary) and e.op == "*" and _constant(e.left) is not None \
            and isinstance(e.right, Name) and not strong
        if isinstance(e, Binary) and not books_over and not multiple:
            return _paren(text)
        if strong and isinstance(e, Unary) and _constant(e) is None and isinstance(e.operand, Binary):
            return _paren(text)
        return text

    def value(self, e: Expr, top: bool = False) -> tuple[str, int]:
        """A number that may hold conditions: a noun, or a case list."""
        c = _constant(e)
        if c is not None and self.w.points:
            return ("nothing" if c == 0 else f"{c} point" + ("" if abs(c) == 1 else "s")), 0
        spread = self.spread(e)
        if spread is not None:
            return spread
        if not isinstance(e, IfElse):
            return self.noun(e)[0], 0
        cond, then, orelse = e.cond, e.then, e.orelse
        if isinstance(cond, Name) and cond.name == "made":
            made, set_ = self.value(then), self.value(orelse)
            return f"made: {self.fit(made, 1)}; set: {self.fit(set_, 1)}", 2
        scaled = self.scaled(cond, then, orelse)
        if scaled is not None:
            return scaled
        cases = []
        while isinstance(e, IfElse) and not (isinstance(e.cond, Name) and e.cond.name == "made"):
            cases.append((e.cond, self.value(e.then)))
            e = e.orelse
        default = self.value(e)
        conds = [self.when(c) for c, _ in cases]
        if all(level == 0 for _, (_, level) in cases) and default[1] == 0 and not any(";" in c for c in conds):
            items = [f"{text} {when}" for when, (_, (text, _)) in zip(conds, cases)]
            return ", ".join(items + [f"otherwise {default[0]}"]), 1
        items = [f"{when}: {self.fit(v, 1)}" for when, (_, v) in zip(conds, cases)]
        return "; ".join(items + [f"otherwise {self.fit(default, 1)}"]), 2

    def spread(self, e: Expr) -> tuple[str, int] | None:
        """A case list with a number added or a factor applied to every case.

        ``(if made then 0 else bid) + x`` reads "made: nothing; set: the bid; in
        every case plus x", ``2 * (if ...)`` "...; all doubled".
        """
        match e:
            case Binary(op="+" | "-" as op, left=IfElse() as cases, right=other) if not _has_if(other):
                pass
            case Binary(op="+" as op, left=other, right=IfElse() as cases) if not _has_if(other):
                pass
            case Binary(op="*", left=left, right=IfElse() as cases) if (_constant(left) or 0) > 1:
                k = _constant(left)
                return f"{self.value(cases)[0]}; all {SCALED.get(k, f'multiplied by {k}')}", 2
            case _:
                return None
        # "in every case" carries the sum over every case before it, as "all" does.
        return f"{self.value(cases)[0]}; in every case {ARITHMETIC[op]} {self.noun(other)[0]}", 2

    def scaled(self, cond: Expr, then: Expr, orelse: Expr) -> tuple[str, int] | None:
        """``if c then 2 * x else x`` as "x, doubled if c" (and ``x + k`` as "k more")."""
        words = None
        match then:
            case Binary(op="*", left=left, right=right) if right == orelse and (_constant(left) or 0) > 1:
                k = _constant(left)
                words = SCALED.get(k, f"multiplied by {k}")
            case Binary(op="+" | "-" as op, left=left, right=right) if left == orelse and (_constant(right) or 0) > 0:
                k = _constant(right)
                words = f"{k} {'more' if op == '+' else 'less'}"
        if words is None:
            return None
        base = self.value(orelse)
        when = self.when(cond)
        if base[1] == 0:
            return f"{base[0]}, {words} {when}", 1
        # "all" carries the scaling over every case before it; no parentheses needed.
        return f"{base[0]}; all {words} {when}", 2

    @staticmethod
    def fit(part: tuple[str, int], most: int) -> str:
        """``part``'s text, in parentheses if its list is of a level above ``most``."""
        text, level = part
        return _paren(text) if level > most else text

    # ------------------------------------------------------------ conditions

    def clause(self, e: Expr) -> tuple[str, str]:
        """A condition as a clause and its shape: ``atom``, ``and``, ``or`` or ``if``."""
        who = self.w.declarers
        match e:
            case Bool(value=value):
                return ("always" if value else "never"), "atom"
            case Name(name=name):
                if name in CLAUSES:
                    return CLAUSES[name][0].format(who=who), "atom"
                return f"`{name}` is true", "atom"
            case Not(operand=Name(name=name)):
                if name in CLAUSES:
                    return CLAUSES[name][1].format(who=who), "atom"
                return f"`{name}` is false", "atom"
            case Not(operand=operand):
                flipped = _negation(operand)
                if isinstance(flipped, Not):
                    inner, shape = self.clause(operand)
                    return f"it is not so that {_paren(inner) if shape != 'atom' else inner}", "atom"
                return self.clause(flipped)
            case Compare():
                return self.comparison(e), "atom"
            case BoolOp(op="and"):
                parts = [self.clause(p) for p in _flatten(e, "and")]
                texts = [_paren(t) if shape in ("or", "if") else t for t, shape in parts]
                return _join(texts), "and"
            case BoolOp(op="or"):
                parts = [self.clause(p) for p in _flatten(e, "or")]
                texts = [_paren(t) if shape == "if" else t for t, shape in parts]
                # An "or" of "and"s reads unambiguously with semicolons between the alternatives.
                if len(parts) > 2 or any(shape == "and" for _, shape in parts):
                    return "; or ".join(texts), "or"
                return " or ".join(texts), "or"
            case IfElse(cond=cond, then=then, orelse=orelse):
                t, ts = self.clause(then)
                o, os_ = self.clause(orelse)
                t = _paren(t) if ts in ("or", "if") else t
                o = _paren(o) if os_ in ("or", "if") else o
                return f"{self.when(cond)}, {t}; otherwise {o}", "if"
        return f"`{unparse(e)}`", "atom"

    def comparison(self, e: Compare) -> str:
        op, left, right = e.op, e.left, e.right
        c = _constant(right)
        if isinstance(left, Name) and left.name in COUNTS and c is not None and op in COUNT_RELATIONS:
            one = c == 1
            return COUNTS[left.name].format(
                q=f"{COUNT_RELATIONS[op]} {c}", times="time" if one else "times",
                hands="hand has" if one and op == "==" else "hands have", games="game" if one else "games")
        if _is_condition(left) or _is_condition(right):
            # true/false against true/false: "a is the same as b" in words.
            a, b = self.clause(left)[0], self.clause(right)[0]
            same = "exactly when" if op == "==" else "exactly when it is not so that"
            return f"{_paren(a)} holds {same} {_paren(b)}"
        l_text, plural = self.noun(left)
        r_text, _ = self.noun(right)
        relation = RELATIONS[op]
        verb = "are" if plural else "is"
        return f"{l_text} {verb} {relation + ' ' if relation else ''}{r_text}"

    def when(self, e: Expr) -> str:
        """A condition after a value: "if the contract is made", "on a bid of 7", "in no trump"."""
        match e:
            case Name(name=name) if name in WHEN:
                return WHEN[name][0]
            case Not(operand=Name(name=name)) if name in WHEN:
                return WHEN[name][1]
            case Compare(op=op, left=Name(name="bid"), right=right) if _constant(right) is not None:
                return BID_WHEN[op].format(c=_constant(right))
        text, shape = self.clause(e)
        return f"if {_paren(text) if shape == 'if' else text}"


def _has_if(e: Expr) -> bool:
    match e:
        case IfElse():
            return True
        case Unary(operand=x) | Not(operand=x):
            return _has_if(x)
        case Binary(left=a, right=b) | Compare(left=a, right=b) | BoolOp(left=a, right=b):
            return _has_if(a) or _has_if(b)
        case Call(args=args):
            return any(_has_if(a) for a in args)
    return False


def _level(op: str) -> int:
    return 0 if op in "+-" else 1

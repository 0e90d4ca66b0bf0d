"""Tests for the formula language: grammar, checker, code generation, unparse."""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark, Transformer
from lark.visitors import merge_transformers

from formula_strategies import typed_trees
from bidcompiler.errors import CompileError, SourcePos
from bidcompiler.expressions import (
    BOOL,
    INT,
    Binary,
    Bool,
    BoolOp,
    Call,
    CompiledExpr,
    Compare,
    ExprTransformer,
    IfElse,
    Name,
    Not,
    Num,
    Unary,
    check_expression,
    compile_ast,
    compile_expression,
    parse_expression,
    unparse,
)
from bidcompiler.resources import grammar_dir, grammar_path, grammar_text

INT_VARS = ("bid", "over", "books", "tricks_won", "multiplier")
BOOL_VARS = ("made", "boston", "is_dealer")
VARS = {**{n: INT for n in INT_VARS}, **{n: BOOL for n in BOOL_VARS}}

# Where the formulas of these tests pretend to sit: line 10, column 12 of a file.
AT = SourcePos("rules.yaml", 10, 12)


def parse(text: str):
    return parse_expression(text, AT)


def run(text: str, expected=INT, **env):
    """Compile ``text`` against VARS and evaluate it with ``env``."""
    return compile_expression(text, VARS, expected, AT).fn(env)


def errors(text: str, expected=INT) -> list[str]:
    """``file:line:col: message`` for every problem in ``text``."""
    try:
        compile_expression(text, VARS, expected, AT)
    except CompileError as err:
        return [str(d) for d in err.diagnostics]
    return []


def a(n):  # short AST builders for the expected trees below
    return Name(n)


# --------------------------------------------------------------------- precedence


@pytest.mark.parametrize(
    "text, tree",
    [
        ("1 + 2 * 3", Binary("+", Num(1), Binary("*", Num(2), Num(3)))),
        ("(1 + 2) * 3", Binary("*", Binary("+", Num(1), Num(2)), Num(3))),
        ("10 - 3 - 2", Binary("-", Binary("-", Num(10), Num(3)), Num(2))),
        ("8 / 4 / 2", Binary("/", Binary("/", Num(8), Num(4)), Num(2))),
        ("-a * b", Binary("*", Unary("-", a("a")), a("b"))),
        ("- -a", Unary("-", Unary("-", a("a")))),
        ("a + b < c * 2", Compare("<", Binary("+", a("a"), a("b")), Binary("*", a("c"), Num(2)))),
        ("not a == b", Not(Compare("==", a("a"), a("b")))),
        ("not a and b", BoolOp("and", Not(a("a")), a("b"))),
        ("a or b and c", BoolOp("or", a("a"), BoolOp("and", a("b"), a("c")))),
        ("a and b or c", BoolOp("or", BoolOp("and", a("a"), a("b")), a("c"))),
        ("a < 1 or b >= 2", BoolOp("or", Compare("<", a("a"), Num(1)), Compare(">=", a("b"), Num(2)))),
        ("if c then 1 else 2 + 3", IfElse(a("c"), Num(1), Binary("+", Num(2), Num(3)))),
        ("(if c then 1 else 2) + 3", Binary("+", IfElse(a("c"), Num(1), Num(2)), Num(3))),
        (
            "if a then 1 else if b then 2 else 3",
            IfElse(a("a"), Num(1), IfElse(a("b"), Num(2), Num(3))),
        ),
        ("min(a, b + 1, 3)", Call("min", (a("a"), Binary("+", a("b"), Num(1)), Num(3)))),
        ("abs(-x)", Call("abs", (Unary("-", a("x")),))),
        ("true and not false", BoolOp("and", Bool(True), Not(Bool(False)))),
        ("iffy + notes + true_", Binary("+", Binary("+", a("iffy"), a("notes")), a("true_"))),
        ("007", Num(7)),
    ],
)
def test_parse_tree(text, tree):
    assert parse(text) == tree


@pytest.mark.parametrize(
    "text, value",
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 - 3 - 2", 5),
        ("2 * 3 - 4 * 5", -14),
        ("-2 * 3", -6),
        ("100 / 10 / 5", 2),
        ("max(1, 5, 3) - min(4, 2)", 3),
        ("abs(3 - 10)", 7),
    ],
)
def test_arithmetic(text, value):
    assert run(text) == value


def test_positions_are_kept_but_ignored_by_equality():
    tree = parse("bid  +\n  over")
    assert tree == parse("bid + over")
    assert tree.pos == (1, 1)
    assert tree.right.pos == (2, 3)
    assert "pos" not in repr(tree)


def test_parenthesised_operand_position_starts_at_the_parenthesis():
    assert parse("(a + b) * c").pos == (1, 1)


# ------------------------------------------------------------------------ division


@pytest.mark.parametrize(
    "text, value",
    [("7 / 2", 3), ("-7 / 2", -4), ("7 / -2", -4), ("-7 / -2", 3), ("6 / 3", 2)],
)
def test_division_floors_like_python(text, value):
    assert run(text) == value


def test_division_by_zero_gives_zero():
    assert run("7 / 0") == 0
    assert run("books / (bid - bid)", books=9, bid=4) == 0
    assert run("books / bid + 1", books=9, bid=0) == 1


def test_divisor_is_evaluated_once_and_dividend_still_used():
    compiled = compile_expression("(books + 1) / (bid - 4) / 2", VARS, INT)
    assert compiled.fn({"books": 11, "bid": 5}) == 6
    assert compiled.fn({"books": 11, "bid": 4}) == 0


# ---------------------------------------------------------------------- conditional


def test_conditional_picks_a_branch():
    formula = "if made then over * multiplier else -bid * multiplier"
    assert run(formula, made=True, over=2, bid=5, multiplier=2) == 4
    assert run(formula, made=False, over=2, bid=5, multiplier=2) == -10


def test_conditional_else_if_chain():
    formula = "if books >= 13 then 100 else if books > 6 then books - 6 else 0"
    assert [run(formula, books=b) for b in (13, 9, 3)] == [100, 3, 0]


def test_conditional_only_evaluates_the_branch_taken():
    # The untaken branch reads a variable missing from the environment.
    assert run("if made then 1 else bid", made=True) == 1


def test_conditional_as_operand_needs_parentheses():
    assert run("1 + (if made then 2 else 3)", made=False) == 4
    assert errors("1 + if made then 2 else 3") == [
        "rules.yaml:10:16: expected a number, a name or `(`, found `if`"
    ]


# ---------------------------------------------------------------------- comparisons


@pytest.mark.parametrize(
    "op, results",
    [
        ("==", [False, True, False]),
        ("!=", [True, False, True]),
        ("<", [True, False, False]),
        ("<=", [True, True, False]),
        (">", [False, False, True]),
        (">=", [False, True, True]),
    ],
)
def test_comparison_operators(op, results):
    compiled = compile_expression(f"bid {op} 7", VARS, BOOL)
    assert [compiled.fn({"bid": b}) for b in (6, 7, 8)] == results


def test_equality_of_true_false_values():
    assert run("made == boston", BOOL, made=True, boston=True) is True
    assert run("made != (bid > 3)", BOOL, made=True, bid=5) is False


def test_comparisons_do_not_chain():
    assert errors("1 < bid < 7", BOOL) == [
        "rules.yaml:10:20: comparisons cannot be chained (found a second `<`); "
        "write `a < b and b < c` instead of `a < b < c`"
    ]
    assert run("1 < bid and bid < 7", BOOL, bid=3) is True


def test_boolean_operators_short_circuit():
    assert run("made or bid > 1", BOOL, made=True) is True
    assert run("made and bid > 1", BOOL, made=False) is False


# ---------------------------------------------------------------------------- names


def test_unknown_name_with_position_and_suggestion():
    assert errors("over + bd") == ["rules.yaml:10:19: unknown name `bd`; did you mean `bid`?"]


def test_unknown_name_without_close_match_lists_known_names():
    (message,) = errors("zzz")
    assert message.startswith("rules.yaml:10:12: unknown name `zzz`; known names: `bid`, `books`")


def test_function_used_as_a_name():
    assert errors("min + 1") == ["rules.yaml:10:12: `min` is a function; call it like `min(...)`"]


def test_unknown_function_suggests_a_known_one():
    assert errors("mx(bid, 1)") == ["rules.yaml:10:12: unknown function `mx`; did you mean `max`?"]


def test_names_lists_the_variables_used():
    compiled = compile_expression("if made then over else -bid", VARS, INT)
    assert compiled.names == frozenset({"made", "over", "bid"})


def test_keywords_are_reserved():
    assert errors("then + 1") == ["rules.yaml:10:12: expected a number, a name or `(`, found `then`"]
    assert errors("made and or boston", BOOL) == [
        "rules.yaml:10:21: expected a number, a name or `(`, found `or`"
    ]


# ---------------------------------------------------------------------- type errors


@pytest.mark.parametrize(
    "text, expected, message",
    [
        ("made + 1", INT, "10:12: `+` needs numbers, found true/false"),
        ("-made", INT, "10:13: `-` needs a number, found true/false"),
        ("made and bid", BOOL, "10:21: `and` needs true/false values, found a number"),
        ("bid or made", BOOL, "10:12: `or` needs true/false values, found a number"),
        ("not bid", BOOL, "10:16: `not` needs a true/false value, found a number"),
        ("bid < made", BOOL, "10:18: `<` needs numbers, found true/false"),
        ("bid == made", BOOL, "10:19: `==` compares two values of the same type, found a number and true/false"),
        ("if bid then 1 else 2", INT, "10:15: the condition of `if` must be true/false, found a number"),
        (
            "if made then 1 else boston",
            INT,
            "10:32: both branches of `if` must have the same type: "
            "`then` gives a number, `else` gives true/false",
        ),
        ("bid > 3", INT, "10:12: the formula must give a number, this gives true/false"),
        ("bid + 3", BOOL, "10:12: the formula must give true/false, this gives a number"),
        ("min(bid)", INT, "10:12: `min` needs at least 2 values, found 1"),
        ("max()", INT, "10:12: `max` needs at least 2 values, found 0"),
        ("abs(bid, over)", INT, "10:12: `abs` takes 1 value, found 2"),
        ("abs(made)", INT, "10:16: `abs` needs numbers, found true/false"),
    ],
)
def test_type_errors(text, expected, message):
    assert errors(text, expected) == [f"rules.yaml:{message}"]


def test_all_errors_are_reported_at_once_in_source_order():
    text = "if bd then made + 1 else max(over)\n  + (not boston)"
    assert errors(text) == [
        "rules.yaml:10:15: unknown name `bd`; did you mean `bid`?",
        "rules.yaml:10:23: `+` needs numbers, found true/false",
        "rules.yaml:10:37: `max` needs at least 2 values, found 1",
        "rules.yaml:11:6: `+` needs numbers, found true/false",
    ]


def test_check_expression_returns_diagnostics_without_raising():
    diagnostics = check_expression(parse("bid + made"), VARS, INT, AT)
    assert [(d.pos.line, d.pos.col) for d in diagnostics] == [(10, 18)]
    assert check_expression(parse("bid + 1"), VARS, INT, AT) == []


def test_variable_types_may_be_spelled_as_python_types_or_strings():
    assert check_expression(parse("if x then y else 0"), {"x": bool, "y": "int"}, int) == []


# -------------------------------------------------------------------- syntax errors


@pytest.mark.parametrize(
    "text, message",
    [
        (")", "10:12: expected a number, a name or `(`, found `)`"),
        ("bid +", "10:17: unexpected end of expression, expected a number, a name or `(`"),
        ("bid $ 2", "10:16: unknown character `$`"),
        ("bid = 2", "10:16: unknown character `=`; to compare, write `==`"),
        # Was "write `==`" for a comparison written the other way round.
        ("bid => 2", "10:16: unknown character `=`; to compare, write `>=`"),
        ("bid =< 2", "10:16: unknown character `=`; to compare, write `<=`"),
        ("Bid", "10:12: unknown character `B`; names are written in lowercase"),
        ("1.5", "10:13: unknown character `.`; numbers are whole numbers"),
        ("(bid + 1", "10:20: unexpected end of expression, expected `)`"),
        ("bid + 1)", "10:19: `)` without a matching `(`"),
        ("bid over", "10:16: expected an operator or the end of the expression, found `over`"),
        ("if made 1 else 2", "10:20: expected an operator or `then`, found `1`"),
        ("if made then 1", "10:26: unexpected end of expression, expected `else`"),
        ("min(bid over)", "10:20: expected an operator, `,` or `)`, found `over`"),
        ("bid +* 2", "10:17: expected a number, a name or `(`, found `*`"),
        # Was "expected , found `else`": the parser offers nothing after a whole conditional.
        ("if made then 1 else 2 else 3", "10:34: `else` without an `if` of its own: write "
                                         "`if CONDITION then A else B`"),
        ("bid then 2", "10:16: `then` without an `if` of its own: write `if CONDITION then A else B`"),
        # Were "expected a number, a name or `(`, found `*`" and "expected an operator or the end
        # of the expression, found `bid`".
        ("bid ** 2", "10:17: there is no power operator `**`; multiply (`bid * bid`)"),
        ("over ** 2", "10:18: there is no power operator `**`; multiply (`over * over`)"),
        ("2bid", "10:13: expected an operator, found `bid` right after a number; to multiply, write `* bid`"),
        ("1e3", "10:13: expected an operator, found `e3` right after a number; numbers are written out in "
                "digits (no `e`)"),
        ("", "10:12: the expression is empty"),
        ("   # just a comment", "10:12: the expression is empty"),
    ],
)
def test_syntax_errors(text, message):
    assert errors(text) == [f"rules.yaml:{message}"]


def test_syntax_error_on_a_later_line_of_the_expression():
    # Line 3 of the text is line 12 of the file; columns after the first line are
    # the text's own columns (SourcePos.shifted).
    assert errors("bid\n  + over\n  * )") == ["rules.yaml:12:5: expected a number, a name or `(`, found `)`"]


def test_syntax_error_is_a_compile_error_that_pickles():
    with pytest.raises(CompileError) as info:
        parse_expression("1 +", SourcePos("x.whist", 3, 7))
    err = pickle.loads(pickle.dumps(info.value))
    assert [str(d) for d in err.diagnostics] == [
        "x.whist:3:10: unexpected end of expression, expected a number, a name or `(`"
    ]


def test_comments_are_ignored():
    assert parse("bid # the contract\n + 1") == parse("bid + 1")


# -------------------------------------------------------------------------- unparse


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("if made then over else -bid", "if made then over else -bid"),
        ("if made   then (over) else (-bid)", "if made then over else -bid"),
        ("((a + b)) * c", "(a + b) * c"),
        ("a - (b - c)", "a - (b - c)"),
        ("(a - b) - c", "a - b - c"),
        ("a / (b * c)", "a / (b * c)"),
        ("-(a + b)", "-(a + b)"),
        ("-(-a)", "- -a"),
        ("not (a and b)", "not (a and b)"),
        ("(not a) and b", "not a and b"),
        ("(a == b) == c", "(a == b) == c"),
        ("(if a then 1 else 2) + 3", "(if a then 1 else 2) + 3"),
        ("if (if a then b else c) then 1 else 2", "if if a then b else c then 1 else 2"),
        ("min(a,b,  (c))", "min(a, b, c)"),
    ],
)
def test_unparse_is_canonical(text, canonical):
    assert unparse(parse(text)) == canonical
    assert parse(canonical) == parse(text)


def test_compiled_text_is_canonical_and_equality_ignores_layout():
    one = compile_expression("over+1", VARS, INT)
    two = compile_expression("  over   +\n 1 ", VARS, INT)
    assert one.text == "over + 1"
    assert one == two and hash(one) == hash(two)
    assert "fn" not in repr(one)


# -------------------------------------------------------------------------- pickling


def test_compiled_expression_pickles():
    compiled = compile_expression("if made then over * 2 / multiplier else -bid", VARS, INT, AT)
    clone = pickle.loads(pickle.dumps(compiled))
    assert isinstance(clone, CompiledExpr)
    assert clone == compiled
    assert clone.type is INT and clone.names == compiled.names
    env = {"made": True, "over": 3, "multiplier": 0, "bid": 5}
    assert clone.fn(env) == compiled.fn(env) == 0
    env["made"] = False
    assert clone(env) == -5


# ------------------------------------------------------- grammar reuse by importing


def test_expression_grammar_can_be_imported_by_another_grammar(tmp_path):
    (tmp_path / "outer.lark").write_text(
        """
        start: stmt*
        stmt: "score" TITLE ":" expr ";"
        TITLE: /[A-Z][a-z]*/
        %import expr (expr, NAME, INT, COMMENT)
        %import common.WS
        %ignore WS
        %ignore COMMENT
        """
    )

    class Outer(Transformer):
        def start(self, children):
            return dict(children)

        def stmt(self, children):
            title, expr = children
            return str(title), expr

    parser = Lark(
        (tmp_path / "outer.lark").read_text(),
        parser="lalr",
        propagate_positions=True,
        import_paths=[str(grammar_dir())],
    )
    tree = parser.parse("score Made: if made then over else -bid; # comment\nscore Set: min(a, 2);")
    result = merge_transformers(Outer(), expr=ExprTransformer()).transform(tree)
    assert result == {"Made": parse("if made then over else -bid"), "Set": parse("min(a, 2)")}
    # Positions are now file positions; origin (file, 1, 1) leaves them unchanged.
    assert result["Set"].pos == (2, 12)
    with pytest.raises(CompileError) as info:
        compile_ast(result["Set"], {}, INT, SourcePos("outer.whist", 1, 1))
    assert str(info.value.diagnostics[0].pos) == "outer.whist:2:16"


def test_parser_falls_back_to_no_cache_when_the_cache_cannot_be_written(monkeypatch):
    import bidcompiler.expressions.parser as module

    real_lark = module.Lark

    def no_cache_lark(*args, cache=False, **kwargs):
        if cache:
            raise PermissionError("read-only temp directory")
        return real_lark(*args, **kwargs)

    monkeypatch.setattr(module, "Lark", no_cache_lark)
    module._parser.cache_clear()
    try:
        assert parse("1 + 2") == Binary("+", Num(1), Num(2))
    finally:
        monkeypatch.undo()
        module._parser.cache_clear()


def test_grammar_files_are_found():
    assert grammar_path("expr.lark").is_file()
    assert "?expr" in grammar_text("expr.lark")


# ------------------------------------------ property tests: codegen vs interpreter

KEYWORDS = {"if", "then", "else", "and", "or", "not", "true", "false"}


def interpret(node, env):
    """A deliberately naive tree-walking evaluator: the reference semantics."""
    match node:
        case Num(value=value) | Bool(value=value):
            return value
        case Name(name=name):
            return env[name]
        case Unary(operand=x):
            return 0 - interpret(x, env)
        case Binary(op=op, left=left, right=right):
            x, y = interpret(left, env), interpret(right, env)
            if op == "+":
                return x + y
            if op == "-":
                return x - y
            if op == "*":
                return x * y
            return 0 if y == 0 else math.floor(Fraction(x, y))
        case Compare(op=op, left=left, right=right):
            x, y = interpret(left, env), interpret(right, env)
            return {
                "==": x == y,
                "!=": x != y,
                "<": x < y,
                "<=": x <= y,
                ">": x > y,
                ">=": x >= y,
            }[op]
        case BoolOp(op="and", left=left, right=right):
            return interpret(left, env) is True and interpret(right, env) is True
        case BoolOp(op="or", left=left, right=right):
            return interpret(left, env) is True or interpret(right, env) is True
        case Not(operand=x):
            return interpret(x, env) is False
        case IfElse(cond=c, then=t, orelse=e):
            return interpret(t, env) if interpret(c, env) else interpret(e, env)
        case Call(func=func, args=args):
            values = [interpret(x, env) for x in args]
            if func == "abs":
                return values[0] if values[0] >= 0 else -values[0]
            return sorted(values)[0 if func == "min" else -1]
    raise AssertionError(node)


def typed(kind, depth: int):
    """Well-typed ASTs of type ``kind`` and at most ``depth`` levels of nesting."""
    return typed_trees(kind, depth, tuple(INT_VARS), tuple(BOOL_VARS))


environments = st.fixed_dictionaries(
    {
        **{n: st.integers(-20, 20) for n in INT_VARS},
        **{n: st.booleans() for n in BOOL_VARS},
    }
)

names = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True).filter(lambda n: n not in KEYWORDS)

# Any AST the parser could produce, well-typed or not: unparse must not care.
untyped = st.recursive(
    st.one_of(st.integers(0, 10**6).map(Num), st.booleans().map(Bool), names.map(Name)),
    lambda sub: st.one_of(
        st.builds(Unary, st.just("-"), sub),
        st.builds(Binary, st.sampled_from("+-*/"), sub, sub),
        st.builds(Compare, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), sub, sub),
        st.builds(BoolOp, st.sampled_from(["and", "or"]), sub, sub),
        st.builds(Not, sub),
        st.builds(IfElse, sub, sub, sub),
        st.builds(Call, names, st.lists(sub, max_size=3).map(tuple)),
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from([INT, BOOL]), data=st.data(), env=environments)
def test_generated_code_agrees_with_the_interpreter(kind, data, env):
    tree = data.draw(typed(kind, 4))
    assert check_expression(tree, VARS, kind) == []
    compiled = compile_ast(tree, VARS, kind)
    assert compiled.fn(env) == interpret(tree, env)
    assert type(compiled.fn(env)) is (int if kind is INT else bool)
    assert compiled.names <= set(VARS)
    assert parse_expression(unparse(tree)) == tree


@settings(max_examples=300, deadline=None)
@given(untyped)
def test_unparse_round_trips_any_tree(tree):
    assert parse_expression(unparse(tree)) == tree


@settings(max_examples=50, deadline=None)
@given(kind=st.sampled_from([INT, BOOL]), data=st.data(), env=environments)
def test_pickled_compiled_expressions_still_agree(kind, data, env):
    tree = data.draw(typed(kind, 3))
    clone = pickle.loads(pickle.dumps(compile_ast(tree, VARS, kind)))
    assert clone.ast == tree
    assert clone.fn(env) == interpret(tree, env)


# ------------------------------------------------------------------ simplify

from bidcompiler.expressions import simplify  # noqa: E402


def simple(text: str, **options) -> str:
    return unparse(simplify(parse_expression(text), **options))


@pytest.mark.parametrize("text, simplified", [
    # The example: `base` inlined twice under `made and ...`.
    ("if made and bid == 7 then 14 else if made and bid == 5 then (if made then over else -bid) + 5 "
     "else if made then over else -bid",
     "if made then if bid == 7 then 14 else if bid == 5 then over + 5 else over else -bid"),
    ("if made and bid == 7 then 4 * (if made then over else -bid) else if made then over else -bid",
     "if made then if bid == 7 then 4 * over else over else -bid"),
    ("if made then base else 2 * base", "if made then base else 2 * base"),
    ("if made then over else 2 * -bid", "if made then over else -2 * bid"),
    ("0 + max(0, own_books - 6)", "max(0, own_books - 6)"),
    ("over * 1 + 0 - 0", "over"),
    ("over + 5 - 5", "over"),
    ("6 + bid", "6 + bid"),
    ("8 - bid", "8 - bid"),
    ("3 + over + 4", "7 + over"),
    ("over * 2 * 2", "4 * over"),
    ("- -over", "over"),
    ("over / 1", "over"),
    ("over / 0", "0"),
    ("7 / 2 + -7 / 2", "-1"),
    ("max(1, max(bid, 3), bid)", "max(3, bid)"),
    ("abs(-4)", "4"),
    ("7 <= score", "score >= 7"),
    ("not (bid < 3)", "bid >= 3"),
    ("not not made", "made"),
    ("made == true", "made"),
    ("made != true", "not made"),
    ("if not made then -bid else over", "if made then over else -bid"),
    ("if made then true else false", "made"),
    ("if sweep then over else over", "over"),
    ("false or sets >= 3", "sets >= 3"),
    ("score >= 7 or false", "score >= 7"),
    ("made and (made or sweep)", "made"),
    # Ranges: under `bid >= 5`, `bid == 3` is false and `bid > 4` true.
    ("if bid >= 5 then (if bid == 3 then 1 else 2) else 3", "if bid >= 5 then 2 else 3"),
    ("if bid >= 5 then (if bid > 4 then 1 else 2) else 3", "if bid >= 5 then 1 else 3"),
    ("if bid < 5 then 0 else if bid >= 5 then 1 else 2", "if bid < 5 then 0 else 1"),
    ("if bid == 7 then 2 * bid else bid", "if bid == 7 then 14 else bid"),
    ("if made or sweep then 1 else (if sweep then 2 else 3)", "if made or sweep then 1 else 3"),
])
def test_simplify(text, simplified):
    assert simple(text) == simplified


def test_simplify_can_fold_only_known_conditions():
    # What inlining `base` needs: no arithmetic, no restructuring.
    text = "if made and bid == 7 then 4 * (if made then over else -bid) else if made then over else -bid"
    assert simple(text, arithmetic=False, factor=False) == \
        "if made and bid == 7 then 4 * over else if made then over else -bid"
    assert simple("if made then over else 2 * -bid + 0", arithmetic=False, factor=False) == \
        "if made then over else 2 * -bid + 0"


def test_grouped_unparse_parenthesises_nested_conditionals_only_where_a_reader_needs_it():
    tree = simplify(parse_expression("if made and bid == 7 then 14 else if made then over else -bid"))
    text = unparse(tree, grouped=True)
    assert text == "if made then (if bid == 7 then 14 else over) else -bid"
    assert parse_expression(text) == tree
    chain = parse_expression("if bid == 7 then 1 else if bid == 6 then 2 else 3")
    assert unparse(chain, grouped=True) == unparse(chain)  # `else if` needs no parentheses


# Small numbers on both sides, so that tests like `bid == 3` are often true.
def small_typed(kind, depth: int):
    """Like ``typed`` but with literals 0..6 and comparisons against literals, to exercise ranges."""
    return typed_trees(kind, depth, tuple(INT_VARS), tuple(BOOL_VARS), top=6, max_args=3, against_literals=True)


small_environments = st.fixed_dictionaries(
    {**{n: st.integers(-2, 7) for n in INT_VARS}, **{n: st.booleans() for n in BOOL_VARS}})


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from([INT, BOOL]), data=st.data(),
       envs=st.lists(small_environments, min_size=1, max_size=8),
       options=st.sampled_from([{}, {"factor": False}, {"arithmetic": False, "factor": False}]))
def test_simplified_formula_evaluates_the_same_as_the_original(kind, data, envs, options):
    tree = data.draw(small_typed(kind, 4))
    out = simplify(tree, **options)
    original, simplified = compile_ast(tree, VARS, kind), compile_ast(out, VARS, kind)  # still type-checks
    for env in envs:
        assert simplified.fn(env) == original.fn(env), (unparse(tree), unparse(out), env)
    assert simplified.names <= original.names
    assert parse_expression(unparse(out, grouped=True)) == out
    assert parse_expression(unparse(out)) == out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from([INT, BOOL]), data=st.data())
def test_simplify_never_makes_a_formula_longer(kind, data):
    tree = data.draw(small_typed(kind, 4))
    assert len(unparse(simplify(tree, factor=False))) <= len(unparse(tree)) + 2  # `-2 * x` for `2 * -x`


def test_syntax_errors_carry_no_parser_exception():
    # A CompileError must pickle with nothing of Lark's inside (parser state, lexer,
    # modules): tblib, which dask.distributed installs, pickles an exception's
    # __context__ too, and a syntax error raised inside the parser's handler would
    # drag the parser along (seen: "cannot pickle 'module' object" after the Dask tests).
    from bidcompiler.whist import load_whist

    with pytest.raises(CompileError) as formula:
        parse_expression("1 +", SourcePos("x.whist", 3, 7))
    with pytest.raises(CompileError) as document:
        load_whist("game {\n  target = \n", "bad.whist", {})
    for info in (formula, document):
        assert info.value.__context__ is None and info.value.__cause__ is None
        clone = pickle.loads(pickle.dumps(info.value))
        assert [str(d) for d in clone.diagnostics] == [str(d) for d in info.value.diagnostics]

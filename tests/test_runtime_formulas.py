"""The runtime runs formulas itself: a Ruleset pickles, unpickles and goes through JSON with no compiler.

Issue 12, point 3: the compiler hands the runtime formulas as data
(runtime.formula.Formula); the runtime generates their evaluators, so a Ruleset
unpickled or read from JSON in a process where bidcompiler, lark and yaml cannot
be imported plays and scores exactly as the original.
"""

import json
import pickle
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidcompiler.expressions import BOOL, INT, compile_expression
from bidcompiler.lower import formula_tree
from bidcompiler.pipeline import load_ruleset, shipped_house_rules, shipped_variants
from runtime.formula import Formula, FormulaError
from runtime.records import hand_record
from runtime.ruleset_json import RulesetFormatError, ruleset_from_json, ruleset_to_json
from runtime.simulate import play_game, play_hand

VARS = {"bid": INT, "books": INT, "over": INT, "made": BOOL, "notrump": BOOL, "sweep": BOOL}


def every_ruleset():
    """Every shipped variant, and every house rule over standard where it fits."""
    specs = [(v, ()) for v in sorted(shipped_variants())]
    for rule in sorted(shipped_house_rules()):
        try:
            load_ruleset("standard", (rule,))
        except Exception:
            continue
        specs.append(("standard", (rule,)))
    return specs


SPECS = every_ruleset()


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: "+".join((s[0], *s[1])))
def test_json_round_trip_gives_an_equal_ruleset(spec):
    rules = load_ruleset(*spec)
    again = ruleset_from_json(json.loads(json.dumps(ruleset_to_json(rules))))
    assert again == rules
    assert again.action_names == rules.action_names
    assert pickle.loads(pickle.dumps(rules)) == rules


CHILD = """
import json, pickle, sys
for name in ("bidcompiler", "lark", "yaml", "jsonschema"):
    sys.modules[name] = None   # importing any of them now fails
from runtime.records import hand_record
from runtime.ruleset_json import ruleset_from_json
from runtime.simulate import play_game, play_hand
out = []
with open(sys.argv[1], "rb") as f:
    jobs = pickle.load(f)
for variant, with_rules, blob, doc in jobs:
    bots = "random" if with_rules else "heuristic"
    for rules in (pickle.loads(blob), ruleset_from_json(json.loads(doc))):
        hands = [hand_record(play_hand(rules, 7, i, bots), variant, with_rules) for i in range(3)]
        game = play_game(rules, 7, 0, bots)
        out.append({"hands": hands, "totals": list(game.tally.totals), "winner": game.tally.winner})
print(json.dumps(out))
"""


def test_rulesets_play_the_same_with_the_compiler_unavailable(tmp_path):
    """Three hands and a whole game under every rule set, in a process with no compiler.

    The heuristic bots read the rules through the engine (scores, game values), so they
    play the shipped variants; house rules over standard are played by random bots
    (building the heuristic's tables costs ~0.25 s a rule set, thrice here, and their
    code path is the same for every rule set)."""
    jobs, expected = [], []
    for variant, with_rules in SPECS:
        rules = load_ruleset(variant, with_rules)
        jobs.append((variant, list(with_rules), pickle.dumps(rules), json.dumps(ruleset_to_json(rules))))
        bots = "random" if with_rules else "heuristic"
        hands = [hand_record(play_hand(rules, 7, i, bots), variant, list(with_rules)) for i in range(3)]
        game = play_game(rules, 7, 0, bots)
        expected += [{"hands": hands, "totals": list(game.tally.totals), "winner": game.tally.winner}] * 2
    job_file = tmp_path / "jobs.pickle"
    job_file.write_bytes(pickle.dumps(jobs))
    done = subprocess.run([sys.executable, "-c", CHILD, str(job_file)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(expected))


# --- the evaluator against the compiler's own -----------------------------------------
INT_LEAVES = st.one_of(st.integers(-20, 20).map(str), st.sampled_from(["bid", "books", "over"]))
BOOL_LEAVES = st.sampled_from(["made", "notrump", "sweep", "true", "false"])


def int_exprs():
    return st.recursive(INT_LEAVES, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from("+-*/"), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(bool_exprs_of(inner), inner, inner).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        inner.map(lambda x: f"abs({x})"), inner.map(lambda x: f"-{x}")), max_leaves=12)


def bool_exprs_of(ints):
    return st.one_of(
        BOOL_LEAVES,
        st.tuples(ints, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), ints).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(BOOL_LEAVES, st.sampled_from(["and", "or"]), BOOL_LEAVES).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        BOOL_LEAVES.map(lambda b: f"not {b}"))


ENVS = st.fixed_dictionaries({"bid": st.integers(-10, 10), "books": st.integers(0, 13), "over": st.integers(-6, 7),
                              "made": st.booleans(), "notrump": st.booleans(), "sweep": st.booleans()})


@settings(max_examples=300, deadline=None)
@given(int_exprs(), ENVS)
def test_runtime_evaluation_equals_the_compilers(text, env):
    compiled = compile_expression(text, VARS, INT)
    data = Formula(formula_tree(compiled.ast), compiled.text, "int")
    assert data(env) == compiled(env)
    again = Formula.from_json(json.loads(json.dumps(data.to_json())))
    assert again == data and again(env) == compiled(env)
    assert pickle.loads(pickle.dumps(data))(env) == compiled(env)


@pytest.mark.parametrize("tree", [
    (), ("num", "3"), ("name", 3), ("import", "os"), ("call", "eval", ("num", 1)), ("+", ("num", 1)),
    ("if", ("bool", True), ("num", 1)), "v", ("num", True), ("bool", 1),
    ({"a": 1}, ("num", 1), ("num", 2)), (["+"], ("num", 1), ("num", 2)),
])
def test_malformed_trees_are_refused(tree):
    with pytest.raises(FormulaError):
        Formula(tree)


def test_a_tree_too_deep_is_refused_not_a_recursion_error():
    tree = ("num", 1)
    for _ in range(5000):
        tree = ("neg", tree)
    with pytest.raises(FormulaError):
        Formula(tree)


def test_a_document_that_is_not_a_ruleset_is_refused():
    with pytest.raises(RulesetFormatError):
        ruleset_from_json({"format": "something-else"})
    good = ruleset_to_json(load_ruleset("standard"))
    for key in ("scoring", "bids", "tables"):
        broken = dict(good)
        del broken[key]
        with pytest.raises(RulesetFormatError):
            ruleset_from_json(broken)
    broken = json.loads(json.dumps(good))
    broken["scoring"]["made"]["tree"] = ["call", "open", ["num", 1]]
    with pytest.raises(RulesetFormatError):
        ruleset_from_json(broken)

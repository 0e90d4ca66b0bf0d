"""Fuzzing the compiler with hypothesis: whatever a variant file says, the compiler
either produces a variant the engine can play, or a ``CompileError`` whose every
diagnostic says what is wrong and where.

Three families of inputs, all starting from the shipped files:

1. *Malformed text*: the text (or the bytes) of shipped variants and house rules with
   random character and byte edits, truncations, deleted/duplicated/swapped lines,
   changed indentation, inserted YAML syntax (``{ [ : &a *a !tag`` tabs ``---``) and
   random unicode.
2. *Structured mutations*: the parsed data of shipped files with keys deleted and
   values replaced (other types, extreme integers, random strings, random formulas
   both valid and not, random strains, rankings and orders, 1..9 players, odd deal
   sizes), dumped back with ``yaml.safe_dump``.
3. *Random but valid variants* built from scratch (these must compile and play),
   and random house-rule overlays (partial documents, ``null`` removals, formulas
   using ``base``) laid over the shipped variants from files in a temporary folder.

The property, for every input: compiling either succeeds, and then the lowered
``Ruleset`` plays a few random hands to the end (legal actions are never empty
before the end, no card is played twice, every hand ends within a bound on the
number of steps), or it raises ``CompileError`` whose diagnostics each have a
message and a ``file:line:col`` inside one of the input files.  Any other exception
is a bug.  Each bug the fuzzers found has a plain regression test at the end.
"""

from __future__ import annotations

import copy
import itertools
import os
import random
import re
from pathlib import Path

import pytest
import yaml
from fuzzing import FUZZ, byte_mutations, huge_numbers, strange_text
from fuzzing import scaled as fuzz_scaled
from hypothesis import event, given, reject, settings
from hypothesis import strategies as st

from bidcompiler.errors import CompileError
from bidcompiler.expressions import Bool, parse_expression, simplify
from bidcompiler.lower import lower
from bidcompiler.convert import schema_shape, to_whist
from bidcompiler.pipeline import compile_file, compile_text, file_kind, load_layer_text, variant_schema
from bidcompiler.rulebook import rulebook
from runtime.game import GameTally, deal
from runtime.hand import PLAY, HandState
from runtime.notation import parse_call

VARIANTS_DIR = Path(__file__).resolve().parent.parent / "variants"
SHIPPED = sorted(VARIANTS_DIR.glob("*.yaml"))
SHIPPED_VARIANTS = [p for p in SHIPPED if file_kind(p) == "variant"]
SHIPPED_RULES = [p for p in SHIPPED if file_kind(p) == "house-rule"]
TEXTS = {p: p.read_text(encoding="utf-8") for p in SHIPPED}
DATA = {p: yaml.safe_load(TEXTS[p]) for p in SHIPPED}

# About 3,200 examples in all by default (a couple of minutes on 2 cores);
# BIDWHIST_FUZZ_SCALE=N runs N times as many, drawing new ones each run (tests/fuzzing.py).
def scaled(n: int) -> int:
    """This module's share of ``n`` examples at scale 1, times the scale."""
    return fuzz_scaled(max(1, int(n * 0.6)))


# ============================================================ the property


def _same(path: str) -> str:
    """One spelling per file: ``fuzz/../variants/x.yaml`` is ``variants/x.yaml``."""
    return str(Path(path).resolve())


# The shipped files by their one spelling, with their text: worked out once (resolving each
# path for every example took a tenth of this module's time; the tests never move them).
SHIPPED_KNOWN: dict[str, str | None] = {_same(str(p)): TEXTS[p] for p in SHIPPED}
SHIPPED_REAL = frozenset(Path(p) for p in SHIPPED_KNOWN)


def _known_files(filename: str, overlays=()) -> dict[str, str | None]:
    """The files a compile may point into (one spelling each), with their text where known."""
    files = dict(SHIPPED_KNOWN)
    files[_same(filename)] = None
    for path in overlays:
        files[_same(path)] = None
    return files


YAML_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")  # as PyYAML counts lines


def check_diagnostics(exc: CompileError, files: dict[str, str | None], user_files=None) -> None:
    """Every diagnostic has a message and a position inside one of the input files.

    The position exists in the file it names (its line is one of the file's lines, its
    column at most one past the end of that line).  ``user_files``: when the shipped
    files are laid only *under* the user's files (which alone can be wrong, since the
    shipped ones compile), the files that hold every offending value; each diagnostic
    must lead with one of them, never with a shipped file the user did not write.
    """
    assert exc.diagnostics, "a CompileError without diagnostics"
    for d in exc.diagnostics:
        assert isinstance(d.message, str) and d.message.strip(), f"empty message at {d.pos}"
        assert d.pos.file, f"no file name: {d}"
        if d.pos.file.startswith("--set ") and "--set" in files:
            continue  # a --set change is one command-line argument: named whole, no line or column
        assert _same(d.pos.file) in files, f"diagnostic names no input file: {d}"
        if user_files is not None:
            assert _same(d.pos.file) in {_same(str(f)) for f in user_files}, \
                f"the offending value is in {sorted(map(str, user_files))}, but the diagnostic names another file: {d}"
        if (d.pos.line, d.pos.col) == (0, 0):  # about the whole file: it cannot be read
            assert re.match(r"file too large|not a regular file|cannot read|no such file", d.message), d
            continue
        assert d.pos.line >= 1 and d.pos.col >= 1, f"no line/column inside {d.pos.file}: {d}"
        text = files[_same(d.pos.file)]
        if text is None:
            text = _read(d.pos.file)
        if text is not None:  # each syntax counts lines as its parser does
            lines = text.split("\n") if d.pos.file.endswith(".whist") else YAML_LINE_BREAK.split(text)
            assert d.pos.line <= len(lines), f"line beyond the end of the file: {d}"
            assert d.pos.col <= len(lines[d.pos.line - 1]) + 1, f"column beyond the end of the line: {d}"
        for related in d.related:
            assert related.file, f"related position without a file: {d}"
        str(d)  # renders


def _read(path: str) -> str | None:
    try:
        return Path(path).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def play_hands(rules, seed: int, hands: int = 3) -> None:
    """Deal and play ``hands`` hands with random legal actions, checking the engine's invariants."""
    rng = random.Random(seed)
    tally = GameTally(rules)
    dealer = rng.randrange(rules.players)
    assert len(set(rules.cards)) == len(rules.cards), "two cards of the deck have one name"
    max_steps = 4 * rules.n_cards + (len(rules.bids) + 3) * rules.players * 2 + 50
    for _ in range(hands):
        dealt, kitty = deal(rules, rng)
        all_cards = [c for h in dealt for c in h] + kitty
        # The hands and the kitty hold every card once, except those set aside unseen (deal.undealt).
        assert len(set(all_cards)) == len(all_cards) == rules.n_cards - rules.undealt, \
            "the deal does not use the whole deck exactly"
        assert set(all_cards) <= set(rules.deck())
        state = HandState(rules, dealer, dealt, kitty)
        played: set[int] = set()
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, f"no legal action in phase {state.phase_name} (seat {state.current_player()})"
            assert len(set(legal)) == len(legal) and all(0 <= a < rules.n_actions for a in legal)
            action = rng.choice(legal)
            if state.phase_name == "auction":  # records write calls by name: the name reads back
                assert parse_call(rules, rules.action_names[action]) == action, \
                    f"call {rules.action_names[action]!r} does not read back as itself"
            if state.phase == PLAY and action < rules.n_cards:
                assert action not in played, f"{rules.cards[action]} played twice"
                played.add(action)
            state.apply_action(action)
            steps += 1
            assert steps <= max_steps, "the hand does not end"
        assert state.current_player() == -1 and state.legal_actions() == []
        assert state.score is not None and len(state.score) == rules.sides
        if state.declarer >= 0:
            assert all(not h for h in state.hands), "a hand ended with cards still held"
            assert len(state.tricks) == rules.hand_size
            in_tricks = [c for _, trick, _ in state.tricks for c in trick]
            assert len(in_tricks) == len(set(in_tricks)) == rules.hand_size * rules.players
        tally.add_hand(state)
        if tally.winner is not None:
            tally = GameTally(rules)
        dealer = tally.next_dealer(state)


def _shipped(path) -> bool:
    return Path(path).resolve() in SHIPPED_REAL


def compile_and_play(text: str, filename: str, seed: int, overlays=(), sets=(), must_compile: bool = False):
    """The property: a playable variant or a well-formed CompileError, nothing else.

    When no shipped house rule is laid over the user's files, every diagnostic names
    one of the user's files (see :func:`check_diagnostics`).
    """
    try:
        variant = compile_text(text, filename, with_rules=tuple(str(p) for p in overlays), sets=tuple(sets))
    except CompileError as exc:
        if must_compile:
            raise
        user = None
        if not any(_shipped(p) for p in overlays) and (overlays or sets or not _shipped(filename)):
            user = [p for p in (filename, *overlays) if not _shipped(p)]
        check_diagnostics(exc, {**_known_files(filename, overlays), **({"--set": None} if sets else {})}, user)
        event("CompileError")
        return None
    play_hands(lower(variant), seed)
    event("compiled and played")
    return variant


def compile_file_and_play(path: Path, seed: int):
    """As :func:`compile_and_play` for a file on disk (its bytes may not be UTF-8)."""
    try:
        variant = compile_file(path)
    except CompileError as exc:
        check_diagnostics(exc, _known_files(str(path)), [path])
        event("CompileError")
        return None
    play_hands(lower(variant), seed)
    event("compiled and played")
    return variant


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


_counter = itertools.count()


def write_file(folder: Path, content: str | bytes, stem: str = "overlay", ext: str = ".yaml") -> Path:
    """A new file in ``folder`` holding ``content``."""
    path = folder / f"{stem}-{next(_counter)}{ext}"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


seeds = st.integers(min_value=0, max_value=2**32 - 1)
shipped_variant = st.sampled_from(SHIPPED_VARIANTS)
shipped_rule = st.sampled_from(SHIPPED_RULES)
shipped_file = st.sampled_from(SHIPPED)


# ============================================================ 1. malformed text

YAML_BITS = ["{", "}", "[", "]", ":", ": ", "- ", "&a ", "*a", "!tag ", "!!int ", "!!str ", "!!map ",
             "\t", "---\n", "...\n", "#", "'", '"', "|\n", ">-\n", "~", "null", "? ", ",", "%YAML 1.2\n",
             "\n", "  ", "<<: *a\n", "&a [x]\n", "- *a\n", "\\", "@", "`", "0x1F", "1e999", "-0", "9" * 30,
             "yes", "no", "on", "2024-01-01", ".inf", "\ufeff", "\u00a0", "\u2028", "\r\n", "\r"]
# Every code point but the surrogates (Cs): exactly those UTF-8 can write.  Not codec="utf-8":
# the same characters, but hypothesis then encodes all 1.1 million code points to find them (~2 s).
unicode_text = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=6)
insertions = st.one_of(st.sampled_from(YAML_BITS), unicode_text)


@st.composite
def mutated_text(draw, text: str, insertions=insertions) -> str:
    """``text`` after 1-4 random edits (``insertions``: the snippets it may insert)."""
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        op = draw(st.sampled_from(["replace", "insert", "delete", "truncate", "del-line", "dup-line",
                                   "swap-lines", "indent", "dedent", "tab-indent", "insert-line"]))
        n = len(text)
        if op == "replace" and n:
            i = draw(st.integers(0, n - 1))
            text = text[:i] + draw(insertions)[:1] + text[i + 1:]
        elif op == "insert":
            i = draw(st.integers(0, n))
            text = text[:i] + draw(insertions) + text[i:]
        elif op == "delete" and n:
            i = draw(st.integers(0, n - 1))
            j = draw(st.integers(i, min(n, i + 20)))
            text = text[:i] + text[j:]
        elif op == "truncate":
            text = text[:draw(st.integers(0, n))]
        elif op in ("del-line", "dup-line", "indent", "dedent", "tab-indent", "insert-line"):
            k = draw(st.integers(0, len(lines) - 1))
            if op == "del-line":
                del lines[k]
            elif op == "dup-line":
                lines.insert(k, lines[k])
            elif op == "indent":
                lines[k] = " " * draw(st.integers(1, 4)) + lines[k]
            elif op == "dedent":
                lines[k] = lines[k].lstrip(" ")
            elif op == "tab-indent":
                lines[k] = "\t" + lines[k]
            else:
                lines.insert(k, draw(insertions))
            text = "\n".join(lines)
        elif op == "swap-lines" and len(lines) > 1:
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
    return text


@st.composite
def mutated_bytes(draw, data: bytes) -> bytes:
    """``data`` with 1-3 random bytes replaced, inserted or removed (often not UTF-8 any more)."""
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, max(0, len(buf) - 1)))
        op = draw(st.sampled_from(["set", "insert", "delete"]))
        byte = draw(st.integers(0, 255))
        if op == "set" and buf:
            buf[i] = byte
        elif op == "insert":
            buf.insert(i, byte)
        elif buf:
            del buf[i]
    return bytes(buf)


@settings(FUZZ, max_examples=scaled(1500))
@given(st.data(), shipped_variant, seeds)
def test_malformed_variant_text(data, path, seed):
    text = data.draw(mutated_text(TEXTS[path]))
    # Under its own name, so `extends: standard` and relative paths behave as shipped.
    compile_and_play(text, str(path.parent / "mutant.yaml"), seed)


@settings(FUZZ, max_examples=scaled(350))
@given(st.data(), shipped_variant, shipped_rule, seeds)
def test_malformed_house_rule_text(workdir, data, base, rule, seed):
    overlay = write_file(workdir, data.draw(mutated_text(TEXTS[rule])))
    compile_and_play(TEXTS[base], str(base), seed, overlays=(overlay,))


def compile_mutant_and_play(mutant, path, base, seed) -> None:
    """A mutated copy of shipped ``path``: a house rule is laid over ``base``, a variant compiled
    alone; either a positioned error naming the files, or a ruleset that plays."""
    if file_kind(path) == "house-rule":
        try:
            variant = compile_file(base, with_rules=(str(mutant),))
        except CompileError as exc:
            check_diagnostics(exc, _known_files(str(base), (mutant,)), [mutant])
            event("CompileError")
        else:
            play_hands(lower(variant), seed)
            event("compiled and played")
    else:
        compile_file_and_play(mutant, seed)


@settings(FUZZ, max_examples=scaled(250))
@given(st.data(), shipped_file, shipped_variant, seeds)
def test_mutated_bytes(workdir, data, path, base, seed):
    mutant = write_file(workdir, data.draw(mutated_bytes(TEXTS[path].encode("utf-8"))), stem="bytes")
    compile_mutant_and_play(mutant, path, base, seed)


# ============================================================ 2. structured mutations

HAND_INT = ["bid", "books", "over", "defender_books", "defender_over", "own_books", "total_books"]
HAND_BOOL = ["notrump", "sweep"]
GAME_INT = ["score", "opponent_score", "sets", "hands", "games"]
GAME_BOOL = ["swept"]


_FORMULAS: dict = {}


def formulas(ints: list[str], bools: list[str], want: str, depth: int = 3) -> st.SearchStrategy[str]:
    """Well-typed formulas of the expression language (as text); built once per signature."""
    key = (tuple(ints), tuple(bools), want, depth)
    if key not in _FORMULAS:
        _FORMULAS[key] = _formulas(list(ints), list(bools), want, depth)
    return _FORMULAS[key]


def _formulas(ints: list[str], bools: list[str], want: str, depth: int) -> st.SearchStrategy[str]:
    def num(d: int) -> st.SearchStrategy[str]:
        leaf = st.one_of(st.integers(0, 30).map(str), st.sampled_from(ints))
        if d <= 0:
            return leaf
        sub, cond = num(d - 1), boolean(d - 1)
        return st.one_of(
            leaf,
            st.tuples(sub, st.sampled_from(["+", "-", "*", "/"]), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            sub.map(lambda a: f"-{a}"),
            st.tuples(cond, sub, sub).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
            st.tuples(st.sampled_from(["min", "max"]), st.lists(sub, min_size=2, max_size=3))
            .map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            sub.map(lambda a: f"abs({a})"),
        )

    def boolean(d: int) -> st.SearchStrategy[str]:
        leaf = st.one_of(st.sampled_from(["true", "false", *bools]))
        if d <= 0:
            return leaf
        sub, n = boolean(d - 1), num(d - 1)
        return st.one_of(
            leaf,
            st.tuples(n, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), n).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
            st.tuples(sub, st.sampled_from(["and", "or"]), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            sub.map(lambda a: f"not ({a})"),
        )

    return num(depth) if want == "int" else boolean(depth)


FORMULA_TOKENS = ["if", "then", "else", "and", "or", "not", "true", "false", "(", ")", "+", "-", "*", "/",
                  "==", "<", ">=", "!=", "=", ",", "min", "max", "abs", "bid", "books", "score", "made",
                  "base", "sweep", "swept", "over", "bokks", "7", "0", "99999999999999999999", "&", "%",
                  ".", "'", "Score", "#", "min(", "max(1)", "abs(1, 2)", "foo(1)", "1 < 2 < 3"]
any_formula = st.one_of(
    formulas(HAND_INT, HAND_BOOL, "int"),
    formulas(HAND_INT, HAND_BOOL, "bool"),
    formulas(GAME_INT, GAME_BOOL, "bool"),
    formulas(HAND_INT + GAME_INT + ["made", "base"], HAND_BOOL + GAME_BOOL, "int"),
    st.lists(st.sampled_from(FORMULA_TOKENS), min_size=0, max_size=8).map(" ".join),
)

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
ORDER_NAMES = ["uptown", "downtown", "sideways", "number", "downtown-aces-bad", "x"]
STRAIN_NAMES = ["uptown", "downtown", "notrump", "number", "special", "x1"]
TRUMPS = ["suit", "none", "suit-or-none", "none-or-first-lead"]

scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(-3, 20),
    st.sampled_from([-(2**63), -1, 0, 1, 2**31, 2**63, 10**30]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["S", "H", "D", "C", "T", "10", "BJ", "LJ", "2S", "uptown", "notrump", "suit",
                     "none", "partners", "individual", "random", "left", "once", "until-passed",
                     "redeal", "house-rule", "variant", "standard", "penalty", "free", "out"]),
)
random_strain = st.fixed_dictionaries(
    {"name": st.sampled_from(STRAIN_NAMES),
     "trump": st.sampled_from(TRUMPS),
     "direction": st.one_of(st.sampled_from(ORDER_NAMES),
                            st.lists(st.sampled_from(ORDER_NAMES), min_size=1, max_size=3, unique=True))},
    optional={"aliases": st.lists(st.sampled_from(["hi", "lo", "nt", "up", "no"]), max_size=3, unique=True),
              "bare": st.booleans()},
)
values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.sampled_from(["a", "name", "from", "to", "hand", "x"]),
                                               children, max_size=3)),
    max_leaves=8,
)
domain_values = st.one_of(
    any_formula,
    st.integers(1, 9),  # players
    st.integers(-2, 60),  # hand and kitty sizes, levels
    st.permutations(RANKS).flatmap(lambda r: st.integers(1, 13).map(lambda n: list(r[:n]))),
    st.lists(st.sampled_from(["S", "H", "D", "C"]), min_size=0, max_size=5),
    st.lists(random_strain, min_size=0, max_size=3),
    st.lists(st.lists(st.sampled_from(STRAIN_NAMES), min_size=0, max_size=3), min_size=0, max_size=3),
    st.dictionaries(st.sampled_from(ORDER_NAMES),
                    st.one_of(st.none(), st.permutations(RANKS).map(list)), max_size=3),
    st.lists(st.sampled_from(["BJ", "LJ", "2S", "AS", "ZZ", "10"]), max_size=3),
)
new_values = st.one_of(values, domain_values)


def _paths(node, prefix=()):
    """Every path into a YAML data tree (keys and list indexes)."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _get(node, path):
    for key in path:
        node = node[key]
    return node


TOP_KEYS = ["players", "sides", "deck", "deal", "orders", "auction", "declaration", "kitty", "play",
            "scoring", "game", "name", "kind", "extends", "title"]


@st.composite
def mutated_data(draw, data):
    """A deep copy of ``data`` with 1-3 structural edits."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        op = draw(st.sampled_from(["delete", "replace", "replace", "replace", "add", "swap"]))
        if op == "add" or not paths:
            parent_paths = [p for p in _paths(data) if isinstance(_get(data, p), dict)]
            parent = _get(data, draw(st.sampled_from(parent_paths)))
            key = draw(st.one_of(st.sampled_from(TOP_KEYS + ["from", "to", "hand", "kitty", "extra", "win",
                                                              "lose", "made", "declarer", "multiplier",
                                                              "renege", "trumps_above", "floor", "rubber",
                                                              "passes_end", "rounds", "if_all_pass"]),
                                 st.text(min_size=1, max_size=6)))
            parent[key] = draw(new_values)
            continue
        path = draw(st.sampled_from(paths))
        parent, key = _get(data, path[:-1]), path[-1]
        if op == "delete":
            del parent[key]
        elif op == "replace":
            parent[key] = draw(new_values)
        else:  # swap two lists (or two values) found in the document
            other = draw(st.sampled_from(paths))
            if other[:len(path)] != path and path[:len(other)] != other:
                oparent, okey = _get(data, other[:-1]), other[-1]
                parent[key], oparent[okey] = oparent[okey], parent[key]
    return data


def dump(data) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


@settings(FUZZ, max_examples=scaled(700))
@given(st.data(), shipped_variant, seeds)
def test_structured_mutations_of_variants(data, path, seed):
    mutant = data.draw(mutated_data(DATA[path]))
    compile_and_play(dump(mutant), str(path.parent / "mutant.yaml"), seed)


@settings(FUZZ, max_examples=scaled(250))
@given(st.data(), shipped_variant, shipped_rule, seeds)
def test_structured_mutations_of_house_rules(workdir, data, base, rule, seed):
    overlay = write_file(workdir, dump(data.draw(mutated_data(DATA[rule]))))
    compile_and_play(TEXTS[base], str(base), seed, overlays=(overlay,))


# ============================================================ 3. random valid variants and overlays

EXTRAS = ["BJ", "LJ", "RJ", "XJ", "ZZ", "J1", "J2", "0A"]
NAME_POOL = ["uptown", "downtown", "notrump", "number", "special", "sideways", "x1", "flat", "nt2"]
ALIAS_POOL = ["hi", "lo", "up", "down", "nt", "no", "sp", "z9"]


def _rank_writer(draw):
    """How a file writes its ranks: ``T`` or ``10``, digits as numbers or strings."""
    ten = draw(st.sampled_from(["T", "10", 10]))
    digits_as_numbers = draw(st.booleans())

    def write(rank: str):
        if rank == "T":
            return ten
        return int(rank) if rank.isdigit() and digits_as_numbers else rank
    return write


variant_names = st.tuples(st.sampled_from(["a", "x", "my-game", "0", "v2-test", "house", "b9"]),
                          st.integers(0, 99)).map(lambda t: f"{t[0]}{t[1]}")


@st.composite
def valid_variants(draw):
    """A complete variant that every check of the compiler should accept."""
    players = draw(st.integers(3, 5))
    sides = "partners" if players == 4 and draw(st.booleans()) else "individual"
    suits = draw(st.lists(st.sampled_from(["S", "H", "D", "C"]), min_size=1, max_size=4, unique=True))
    min_ranks = max(1, -(-players // len(suits)))
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=min(13, min_ranks + 1), max_size=13, unique=True))
    extra = draw(st.lists(st.sampled_from(EXTRAS), max_size=4, unique=True))
    total = len(suits) * len(ranks) + len(extra)
    hand = draw(st.integers(1, total // players))
    kitty = total - players * hand
    has_kitty = kitty > 0

    n_orders = draw(st.integers(1, 3))
    order_names = draw(st.lists(st.sampled_from(ORDER_NAMES), min_size=n_orders, max_size=n_orders, unique=True))
    write = _rank_writer(draw)
    orders = {name: [write(r) for r in draw(st.permutations(ranks))] for name in order_names}

    n_strains = draw(st.integers(1, 4))
    names = draw(st.lists(st.sampled_from(NAME_POOL), min_size=n_strains, max_size=n_strains, unique=True))
    aliases = draw(st.lists(st.sampled_from(ALIAS_POOL), unique=True, max_size=6))
    strains = []
    for i, name in enumerate(names):
        trump = draw(st.sampled_from(TRUMPS))
        if trump == "none-or-first-lead":
            direction = draw(st.sampled_from(order_names))
        else:
            direction = draw(st.lists(st.sampled_from(order_names), min_size=1, max_size=len(order_names),
                                      unique=True))
            if len(direction) == 1 and draw(st.booleans()):
                direction = direction[0]
        strain = {"name": name, "trump": trump, "direction": direction}
        mine = aliases[i::n_strains]
        if mine:
            strain["aliases"] = mine
        if draw(st.booleans()):  # (at most one strain is said as the bare number)
            strain["bare"] = draw(st.booleans()) and not any(s.get("bare") for s in strains)
        strains.append(strain)
    used = {d for s in strains for d in ([s["direction"]] if isinstance(s["direction"], str) else s["direction"])}
    for name in order_names:  # every order must be played in by some strain
        if name not in used:
            target = next((s for s in strains if s["trump"] != "none-or-first-lead"), None)
            if target is None:
                del orders[name]
                continue
            if isinstance(target["direction"], str):
                target["direction"] = [target["direction"]]
            target["direction"].append(name)
    shuffled = draw(st.permutations(names))
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(names) - 1)), max_size=len(names) - 1)))
    ranking = [list(shuffled[a:b]) for a, b in zip([0, *cuts], [*cuts, len(names)]) if shuffled[a:b]]

    discards = draw(st.sampled_from(["declarer-book", "first-trick", "none"])) if has_kitty else None
    books = hand + (1 if has_kitty and discards != "none" else 0)
    # A bid of n over six asks for 6 + n books: the ladder ends at the bid of all the books.
    counts = draw(st.sampled_from(["books", "books-over-six"])) if books >= 6 else "books"
    top = books - (6 if counts == "books-over-six" else 0)
    low = draw(st.integers(0, top))
    high = draw(st.integers(low, top))
    rounds = draw(st.sampled_from(["once", "until-passed"]))
    auction = {"levels": {"from": low, "to": high, "counts": counts}, "strains": strains, "ranking": ranking,
               "rounds": rounds}
    if rounds == "until-passed" and draw(st.booleans()):
        auction["passes_end"] = draw(st.integers(1, players - 1))
    if_all_pass = draw(st.sampled_from(["dealer-must-bid", "dealer-bids-lowest", "dealer-bids-or-redeal", "redeal"]))
    auction["if_all_pass"] = if_all_pass
    auction["dealer_may_take"] = draw(st.booleans())
    if draw(st.booleans()):
        auction["redeal_without"] = draw(st.lists(st.sampled_from(ranks), max_size=3, unique=True))
    if if_all_pass == "dealer-bids-or-redeal" or auction.get("redeal_without"):
        auction["redeal_dealer"] = draw(st.sampled_from(["same", "next"]))
    if if_all_pass == "redeal":
        auction["all_pass_dealer"] = draw(st.sampled_from(["same", "next"]))
    if draw(st.booleans()):
        auction["first_caller"] = "left-of-dealer"

    trump_suits = any(s["trump"] != "none" for s in strains)
    notrump = any(s["trump"] in ("none", "suit-or-none", "none-or-first-lead") for s in strains)
    first_lead_trump = any(s["trump"] == "none-or-first-lead" for s in strains)
    variant = {
        "name": draw(variant_names),
        "players": players,
        "sides": sides,
        "deck": {"suits": suits, "ranks": [write(r) for r in ranks], "extra": extra or None},
        "deal": {"hand": hand, "kitty": kitty},
        "orders": orders,
        "auction": auction,
        "declaration": None,
        "kitty": None,
        # Trump named by the first lead needs the declarer to make it.
        "play": {"first_lead": "declarer" if first_lead_trump else draw(st.sampled_from(["declarer", "eldest"]))},
        "scoring": {
            "made": draw(formulas(HAND_INT, HAND_BOOL, "bool", 2)),
            "declarer": draw(formulas(HAND_INT, HAND_BOOL + ["made"], "int", 2)),
            "defender": draw(formulas(HAND_INT, HAND_BOOL + ["made"], "int", 2)),
        },
        "game": {"win": draw(formulas(GAME_INT, GAME_BOOL, "bool", 2).filter(_can_be_won)),
                 "tie": draw(st.sampled_from(["declarer", "higher"]))},
    }
    if draw(st.booleans()):
        variant["deal"].update(first_dealer="random", rotation="left")
    if has_kitty:
        variant["kitty"] = {"discards": discards}
        show = None
        if trump_suits:  # (the kitty is shown for the sake of trump)
            show = draw(st.sampled_from(["never", "auction", "suit-contracts"]))
            variant["kitty"]["show"] = show
        out = False
        if extra and notrump:
            extras_rule = draw(st.sampled_from(["no-suit", "free"] + (["out"] if kitty >= len(extra) else [])))
            variant["play"]["notrump_extras"] = extras_rule
            out = extras_rule == "out"
        # Jokers that leave play in notrump need notrump known at the kitty: said by every bid.
        undecided = any(s["trump"] in ("suit-or-none", "none-or-first-lead") for s in strains)
        after_ok = not first_lead_trump and show != "suit-contracts" and not (out and undecided)
        variant["declaration"] = {"when": draw(st.sampled_from(["before-kitty"] + (["after-kitty"] if after_ok else [])))}
    elif extra and notrump:
        variant["play"]["notrump_extras"] = draw(st.sampled_from(["no-suit", "free"]))
    if trump_suits and draw(st.booleans()):
        cards = [r + s for s in suits for r in ranks] + extra
        variant["play"]["trumps_above"] = draw(st.lists(st.sampled_from(cards), max_size=3, unique=True))
    two_sides = sides == "partners" or players == 2  # a renege's books go to "the other side"
    variant["play"]["renege"] = draw(st.sampled_from(["refuse", "penalty"] if two_sides else ["refuse"]))
    # The books a renege gives are at most the hand's books (its tricks at least); the default 3
    # only where a hand has 3 tricks.
    tricks = variant["deal"]["hand"]
    if variant["play"]["renege"] == "penalty" and (tricks < 3 or draw(st.booleans())):
        variant["play"]["renege_books"] = draw(st.integers(1, min(5, tricks)))
    if draw(st.booleans()):
        variant["scoring"]["multiplier"] = draw(formulas(HAND_INT, HAND_BOOL + ["made"], "int", 1))
    if draw(st.booleans()):
        variant["scoring"]["multiply"] = draw(st.lists(st.sampled_from(["declarer", "defenders"]), unique=True))
    if draw(st.booleans()):
        variant["game"]["lose"] = draw(formulas(GAME_INT, GAME_BOOL, "bool", 1).filter(_can_end))
    if draw(st.booleans()):
        variant["game"]["floor"] = draw(st.one_of(st.none(), st.integers(-50, 0)))
    if draw(st.booleans()):
        variant["game"]["rubber"] = draw(st.integers(1, 5))
    return variant


def _can_be_won(text: str) -> bool:
    """Whether a drawn game.win is not plainly ``false`` (a game no side could win is refused)."""
    return simplify(parse_expression(text)) != Bool(False)


def _can_end(text: str) -> bool:
    """Whether a drawn game.lose is not plainly ``true`` (every side losing every hand is refused)."""
    return simplify(parse_expression(text)) != Bool(True)


@settings(FUZZ, max_examples=scaled(250))
@given(valid_variants(), seeds)
def test_random_valid_variants_compile_and_play(variant, seed):
    compile_and_play(dump(variant), "random-variant.yaml", seed, must_compile=True)


NULLABLE = [("declaration",), ("kitty",), ("play",), ("deck", "extra"), ("auction", "redeal_without"),
            ("play", "trumps_above"), ("play", "notrump_extras"), ("kitty", "discards"), ("kitty", "show"),
            ("game", "floor"), ("orders", "downtown"), ("orders", "uptown")]
BASE_FORMULAS = {
    ("scoring", "declarer"): ["if sweep then 2 * base else base", "base + 1", "max(base, 0)", "-base",
                              "if made and bid == 7 then 4 * base else base", "base * base"],
    ("scoring", "defender"): ["base + max(0, own_books - 6)", "base", "min(base, 3)"],
    ("scoring", "multiplier"): ["base * 2", "if notrump then base else 1", "base"],
    ("scoring", "made"): ["base or sweep", "base and books > 0", "not base"],
    ("game", "win"): ["base or swept", "base and hands > 1", "base or score >= 100"],
    ("game", "lose"): ["base or sets >= 3", "base", "base and false"],
}


def _dict_at(node: dict, path: tuple) -> dict:
    """The mapping at ``path`` in ``node``, made (or made a mapping) on the way."""
    for key in path:
        if not isinstance(node.get(key), dict):
            node[key] = {}
        node = node[key]
    return node


@st.composite
def random_overlays(draw, source: dict):
    """A house rule: a few settings taken from ``source``, null removals and ``base`` formulas."""
    overlay: dict = {"name": draw(variant_names)}
    overlay["kind"] = draw(st.sampled_from(["house-rule", "house-rule", "house-rule", "variant", None]))
    if overlay["kind"] is None:
        del overlay["kind"]
    if draw(st.booleans()):
        overlay["description"] = draw(st.text(max_size=20))
    for path in draw(st.lists(st.sampled_from(list(_paths(source))[1:]), max_size=4)):
        cut = next((i for i, key in enumerate(path) if isinstance(key, int)), len(path))
        path = path[:cut]  # lists are replaced whole
        if path and path[0] != "name":
            _dict_at(overlay, path[:-1])[path[-1]] = copy.deepcopy(_get(source, path))
    for path in draw(st.lists(st.sampled_from(NULLABLE), max_size=2)):
        _dict_at(overlay, path[:-1])[path[-1]] = None
    for path in draw(st.lists(st.sampled_from(list(BASE_FORMULAS)), max_size=2)):
        _dict_at(overlay, path[:-1])[path[-1]] = draw(st.sampled_from(BASE_FORMULAS[path]))
    return overlay


SET_PATHS = ["players", "sides", "deal.hand", "deal.kitty", "auction.levels.from", "auction.levels.to",
             "auction.rounds", "auction.passes_end", "auction.ranking", "auction.redeal_without", "play.renege",
             "play.trumps_above", "play.notrump_extras", "deck.extra", "deck.ranks", "orders.downtown", "kitty",
             "kitty.show", "declaration.when", "scoring.declarer", "scoring.multiplier", "game.win", "game.floor",
             "name", "kind", "extends", "deal", "auction.strains.0", "x.y", "players.z", ".", "a..b", ""]
SET_VALUES = ["4", "3", "5", "9", "0", "-1", "13", "1", "~", "", "null", "[BJ]", "[]", "{}", "[[number]]",
              "partners", "individual", "penalty", "out", "free", "after-kitty", "suit-contracts", "base + 1",
              "if sweep then 2 * base else base", "score >= 3", "[K, Q]", "[2, 3]", "{hand: 13}", "&a x", "*a",
              "!tag x", "'", "[", "x: y", "a\nplayers: 9", "4.0", "9" * 30]
set_assignments = st.one_of(
    st.tuples(st.sampled_from(SET_PATHS), st.sampled_from(SET_VALUES)).map("=".join),
    st.tuples(st.sampled_from(SET_PATHS), unicode_text).map("=".join),
    unicode_text,
)


@settings(FUZZ, max_examples=scaled(150))
@given(st.data(), shipped_variant, seeds)
def test_random_overlays_over_shipped_variants(workdir, data, base, seed):
    source = data.draw(valid_variants(), label="source of settings")
    layers = data.draw(st.lists(st.one_of(random_overlays(source).map(dump), shipped_rule), min_size=1, max_size=3),
                       label="overlays")
    sets = data.draw(st.lists(set_assignments, max_size=2), label="--set")
    overlays = [layer if isinstance(layer, Path) else write_file(workdir, layer) for layer in layers]
    compile_and_play(TEXTS[base], str(base), seed, overlays=overlays, sets=sets)


@settings(FUZZ, max_examples=scaled(100))
@given(st.data(), shipped_variant, seeds)
def test_random_variants_extending_shipped_ones(workdir, data, base, seed):
    overlay = data.draw(random_overlays(data.draw(valid_variants(), label="source of settings")))
    overlay.pop("kind", None)
    overlay["extends"] = data.draw(st.sampled_from([base.stem, str(base), os.path.relpath(base, workdir)]))
    text = dump(overlay)
    compile_and_play(text, str(write_file(workdir, text, stem="extending")), seed)


@settings(FUZZ, max_examples=scaled(100))
@given(valid_variants(), st.lists(shipped_rule, min_size=1, max_size=2), seeds)
def test_shipped_house_rules_over_random_variants(variant, rules, seed):
    compile_and_play(dump(variant), "random-variant.yaml", seed, overlays=rules)


# ============================================================ 4. the .whist syntax, bytes and extremes

SHAPE = schema_shape(variant_schema())


def to_whist_text(text: str, filename: str) -> str:
    """A YAML file's text in the .whist syntax, as ``bidwhist convert --to whist`` writes it."""
    doc = load_layer_text(text, filename)
    return to_whist(doc.data, SHAPE, doc.comments())


WHIST = {p: to_whist_text(TEXTS[p], str(p)) for p in SHIPPED}
WHIST_BITS = ["{", "}", "[", "]", "=", "<", ";", "\n", "remove ", "remove", '"', "\\\n", "#", ",", "==", "= =",
              "variant x\n", "house-rule y\n", "extends standard\n", 'extends "nonexistent"\n', "extends\n",
              "a { b { c {", "} } }", "[[[", "]]]", "x [a, [b, [c]]]\n", "9" * 30, "-1", "1e999", "\t", "\r",
              "\ufeff", "\u2028", '"\\u0000"', '"\\"', "players 4\n", "players\n", "deal { hand }\n",
              "auction { strains { remove uptown } }\n", "scoring { declarer = }\n", "game { win = score >= }\n",
              "orders { uptown }\n", "deck { suits }\n", "kind variant\n", "kind house-rule\n"]
whist_insertions = st.one_of(st.sampled_from(WHIST_BITS), unicode_text)


@settings(FUZZ, max_examples=scaled(500))
@given(st.data(), shipped_variant, seeds)
def test_malformed_whist_variant_text(data, path, seed):
    text = data.draw(mutated_text(WHIST[path], whist_insertions))
    compile_and_play(text, str(path.parent / "mutant.whist"), seed)


@settings(FUZZ, max_examples=scaled(200))
@given(st.data(), shipped_variant, shipped_rule, seeds)
def test_malformed_whist_house_rule_text(workdir, data, base, rule, seed):
    overlay = write_file(workdir, data.draw(mutated_text(WHIST[rule], whist_insertions)), stem="overlay", ext=".whist")
    compile_and_play(TEXTS[base], str(base), seed, overlays=(overlay,))


@settings(FUZZ, max_examples=scaled(300))
@given(st.data(), shipped_variant, seeds)
def test_structured_mutations_of_whist_variants(data, path, seed):
    mutant = data.draw(mutated_data(DATA[path]))
    try:
        text = to_whist(mutant, SHAPE)
    except Exception:  # the converter writes valid documents; a few mutants have no .whist spelling
        reject()
    compile_and_play(text, str(path.parent / "mutant.whist"), seed)


@settings(FUZZ, max_examples=scaled(300))
@given(st.data(), shipped_file, shipped_variant, st.booleans(), seeds)
def test_byte_mutations_of_both_syntaxes(workdir, data, path, base, whist, seed):
    """Bit flips, truncation, NULs, invalid UTF-8 and repeated runs in a file read from disk."""
    text = WHIST[path] if whist else TEXTS[path]
    ext = ".whist" if whist else ".yaml"
    mutant = write_file(workdir, data.draw(byte_mutations(text.encode("utf-8"))), stem="bytes", ext=ext)
    compile_mutant_and_play(mutant, path, base, seed)


def _deep(kind: str, depth: int, whist: bool) -> str:
    """A value (YAML) or statement (.whist) nested ``depth`` deep."""
    if kind == "list":
        return "[" * depth + "1" + "]" * depth
    if kind == "map":
        return "{a: " * depth + "1" + "}" * depth if not whist else "a {\n" * depth + "b 1\n" + "}\n" * depth
    depth = min(depth, 300)  # (indented lines: the text grows as depth squared)
    return ("\n" + "".join("  " * i + "a:\n" for i in range(depth)) + "  " * depth + "1") if not whist \
        else "a { " * depth + "}" * depth


@st.composite
def extreme_edit(draw, text: str, whist: bool) -> str:
    """``text`` with one extreme: deep nesting, a huge number, strange unicode, a long line, a key repeated."""
    lines = text.split("\n")
    k = draw(st.integers(0, len(lines) - 1))
    op = draw(st.sampled_from(["deep", "deep", "number", "number", "unicode", "long", "repeat-key"]))
    if op == "deep":
        depth = draw(st.sampled_from([10, 63, 64, 65, 100, 330, 500, 2000]))
        kind = draw(st.sampled_from(["list", "map", "block"]))
        indent = re.match(r"[ ]*", lines[k]).group(0)
        key = draw(st.sampled_from(["extra", "ranking", "x", "play", "deal", "hand"]))
        sep = " " if whist else ": "
        lines.insert(k, f"{indent}{key}{sep}{_deep(kind, depth, whist)}")
    elif op == "number":
        numbers = [(m.start(), m.end()) for m in re.finditer(r"(?<![A-Za-z])\d+", lines[k])]
        if not numbers:
            return text
        a, b = draw(st.sampled_from(numbers))
        lines[k] = lines[k][:a] + draw(huge_numbers) + lines[k][b:]
    elif op == "unicode":
        i = draw(st.integers(0, len(lines[k])))
        lines[k] = lines[k][:i] + draw(strange_text) + lines[k][i:]
    elif op == "long":
        char = draw(st.sampled_from(["x", "é", "\u2028"]))  # (YAML counts each \u2028 as a line)
        lines.insert(k, "# " + char * draw(st.sampled_from([1000, 30000] if char != "\u2028" else [10, 1000])))
    else:
        lines.insert(k, lines[k])
    return "\n".join(lines)


@settings(FUZZ, max_examples=scaled(300))
@given(st.data(), shipped_file, shipped_variant, st.booleans(), seeds)
def test_extreme_values_in_both_syntaxes(workdir, data, path, base, whist, seed):
    text = data.draw(extreme_edit(WHIST[path] if whist else TEXTS[path], whist), label="text")
    mutant = write_file(workdir, text, stem="extreme", ext=".whist" if whist else ".yaml")
    compile_mutant_and_play(mutant, path, base, seed)


def test_a_file_over_the_size_limit_is_refused_by_name(tmp_path):
    """One limit for a variant file, said with its size, in both syntaxes."""
    for ext, head in ((".yaml", "name: x\n"), (".whist", "variant x\n")):
        path = tmp_path / f"big{ext}"
        path.write_text(head + "#" + "x" * (300 << 10) + "\n", encoding="utf-8")
        with pytest.raises(CompileError) as info:
            compile_file(path)
        [d] = info.value.diagnostics
        assert d.pos.file == str(path) and "file too large" in d.message and "256 KiB" in d.message


# ============================================================ regressions found by the fuzzers

STANDARD = TEXTS[VARIANTS_DIR / "standard.yaml"]


def standard_with(old: str, new: str) -> str:
    assert old in STANDARD
    return STANDARD.replace(old, new, 1)


def compile_error(text: str, filename: str = "v.yaml", overlays=()) -> list[str]:
    """The diagnostics of a text that must not compile, as ``file:line:col: message``."""
    with pytest.raises(CompileError) as info:
        compile_text(text, filename, with_rules=tuple(str(p) for p in overlays))
    check_diagnostics(info.value, _known_files(filename, overlays))
    return [str(d).splitlines()[0] for d in info.value.diagnostics]


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_regression_undecodable_file_points_at_the_bad_byte(tmp_path):
    # Was: "not UTF-8 text" with no line or column.
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"name: x\r\ntitle: caf\xc3\xa9 \xff\n")  # the column counts the \xc3\xa9 as one
    with pytest.raises(CompileError) as info:
        compile_file(path)
    [d] = info.value.diagnostics
    assert (d.pos.file, d.pos.line, d.pos.col) == (str(path), 2, 13)
    assert "not UTF-8" in d.message


def test_regression_extends_a_name_too_long_for_the_file_system():
    # Was: OSError (File name too long) from Path.is_file.
    text = "name: x\nextends: " + "a" * 300 + "\n"
    [message] = compile_error(text)
    assert message.startswith("v.yaml:2:10: unknown variant 'aaa")


def test_regression_extends_an_unknown_variant_is_placed_on_the_extends_line():
    # Was: a diagnostic whose "file" was the unknown name, without line or column.
    [message] = compile_error("name: x\nextends: nope\n")
    assert message.startswith("v.yaml:2:10: unknown variant 'nope' (shipped: ")
    [message] = compile_error("name: x\nextends: ./nope.yaml\n")
    assert message == "v.yaml:2:10: extends './nope.yaml': no such file"


def test_regression_yaml_integer_too_long_to_convert():
    # Was: ValueError (Exceeds the limit (4300 digits) for integer string conversion).
    text = standard_with("players: 4", "players: " + "9" * 5000)
    # Now (issue 15) every number of a variant file is bounded, and the bound is said.
    assert compile_error(text) == [f"v.yaml:{line_of(text, 'players:')}:10: number too large: a number of 5000 "
                                   "digits (numbers in a variant file are at most 1,000,000 in absolute value)"]


def test_regression_formula_literal_too_long_to_convert():
    # Was: lark.exceptions.VisitError wrapping the same ValueError.
    text = standard_with("defender: 0", 'defender: "1 + ' + "9" * 5000 + '"')
    assert compile_error(text) == [f"v.yaml:{line_of(text, 'defender:')}:18: number too large: a number of 5000 "
                                   "digits (numbers in a variant file are at most 1,000,000 in absolute value)"]


@pytest.mark.parametrize("old, new, col, found", [
    ("players: 4", "players: 4.0", 10, "4.0"),
    ("hand: 12", "hand: 12.0", 9, "12.0"),
    ("{from: 3, to: 7}", "{from: 3.0, to: 7}", 18, "3.0"),
])
def test_regression_whole_floats_are_not_integers(old, new, col, found):
    # Was: JSON Schema accepts 4.0 as an integer; the engine then failed with TypeError.
    text = standard_with(old, new)
    assert compile_error(text) == [f"v.yaml:{line_of(text, new)}:{col}: expected an integer, found {found}"]


@pytest.mark.parametrize("formula", [
    "-" * 400 + "1",  # RecursionError-deep unary chains, and
    " + ".join(["bid"] * 250),  # too many nested parentheses for Python's compile()
    "not " * 100 + "made",
    "min(" * 70 + "1" + ", 1)" * 70,
    "-" * 3000 + "1",  # deeper than the parser's tree transformer can recurse
])
def test_regression_deeply_nested_formula(formula):
    # Was: SyntaxError "too many nested parentheses" from code generation, or RecursionError.
    text = standard_with("declarer: if made then over else -bid", f"declarer: {formula}")
    [message] = compile_error(text)
    assert message.startswith(f"v.yaml:{line_of(text, 'declarer:')}:")
    assert "formula nested too deeply" in message


def test_a_formula_64_levels_deep_still_compiles():
    formula = "(1 / " * 31 + "bid" + ")" * 31 + " + 0"
    variant = compile_text(standard_with("declarer: if made then over else -bid", f"declarer: {formula}"), "v.yaml")
    play_hands(lower(variant), seed=1)


def test_regression_null_inside_a_new_mapping_removes_the_setting():
    # Was: TypeError ('NoneType' object is not iterable) building the order.
    text = standard_with("downtown: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K]    # aces good",
                         "downtown: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K]\n  sideways: ~")
    variant = compile_text(text, "v.yaml")
    assert [o.name for o in variant.orders] == ["uptown", "downtown"]
    play_hands(lower(variant), seed=2)


def test_regression_levels_beyond_the_books_of_a_hand():
    # Was: a hang (and unbounded memory) building a bid ladder of 10**8 levels.
    text = standard_with("{from: 3, to: 7}", "{from: 3, to: 1000000}")
    assert compile_error(text) == [
        f"v.yaml:{line_of(text, 'levels:')}:25: levels: to 1000000 (a bid of 1000006 books) is more than the 13 "
        "books of a hand"]
    # The books of a hand: 12 tricks and the discards' book; a bid of 7 over six asks for all 13.
    compile_text(standard_with("{from: 3, to: 7}", "{from: 3, to: 7}"), "v.yaml")
    assert "(a bid of 14 books) is more than the 13 books" in compile_error(
        standard_with("{from: 3, to: 7}", "{from: 3, to: 8}"))[0]


def test_regression_trump_by_first_lead_with_a_choice_of_orders():
    # Was: KeyError (1, -1) in the engine: the first lead declares before any order is chosen.
    text = standard_with("      trump: none\n", "      trump: none-or-first-lead\n")
    assert compile_error(text) == [
        f"v.yaml:{line_of(text, 'direction: [uptown, downtown]')}:18: strain 'notrump' names trump by the "
        "first lead, so it plays in one order, not a choice of uptown, downtown"]


def test_regression_jokers_out_need_a_kitty_as_large_as_the_extras():
    # Was: IndexError (a hand left short, or a swap from an empty pile) during play.
    text = (standard_with("extra: [BJ, LJ]", "extra: [BJ, LJ, XA, XB, XC, XD]")
            .replace("hand: 12", "hand: 14").replace("kitty: 6", "kitty: 2")
            .replace("notrump_extras: no-suit", "notrump_extras: out").replace("{from: 3, to: 7}", "{from: 1, to: 7}"))
    assert compile_error(text) == [
        f"v.yaml:{line_of(text, 'notrump_extras:')}:19: notrump_extras: out needs a kitty of at least 6 cards "
        "(one per extra card), not 2"]
    # A kitty exactly as large as the extras plays.
    variant = compile_text(standard_with("hand: 12", "hand: 13").replace("kitty: 6", "kitty: 2")
                           .replace("notrump_extras: no-suit", "notrump_extras: out"), "v.yaml")
    play_hands(lower(variant), seed=3, hands=20)


def test_regression_a_variant_extending_a_house_rule_lacks_players():
    # Was: KeyError 'players' in build_variant.
    body = STANDARD.split("\ndeck:", 1)[1]
    messages = compile_error(f"name: x\nextends: kitty-first\ndeck:{body}")
    # Now one message, at the `extends` line, saying the file is a house rule.
    assert [m.split(": ", 1)[1].split("\n")[0] for m in messages] == [
        "extends 'kitty-first', which is a house rule, not a variant: a variant extends a variant"]


def test_regression_two_bare_strains_would_share_their_bids_names():
    # Was: both strains' bids written "4", so a record read back the wrong bid.
    text = standard_with("    - name: downtown\n", "    - name: downtown\n      bare: true\n").replace(
        "    - name: uptown\n", "    - name: uptown\n      bare: true\n", 1)
    assert compile_error(text) == [
        f"v.yaml:{line_of(text, 'name: downtown') + 1}:13: strains 'uptown' and 'downtown' are both bare: "
        "a bid such as '7' would name both; at most one strain may be bare"]


def test_regression_ten_and_t_in_one_deck():
    # Was: accepted, and the deck held TS, TH, TD and TC twice each.
    text = standard_with("ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]",
                         "ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, 10, J, Q, K, A]").replace("hand: 12", "hand: 13")
    assert compile_error(text) == [
        f"v.yaml:{line_of(text, 'ranks: [2')}:10: deck.ranks lists rank T 2 times (10 and T are the same rank): "
        "the deck would hold the same cards twice"]


def test_regression_extends_cycle_through_another_spelling_of_the_path(tmp_path):
    # Was: not seen as a cycle: dir/../dir/x.yaml grew until the path was too long.
    folder = tmp_path / "dir"
    folder.mkdir()
    (folder / "x.yaml").write_text("name: x\nextends: ../dir/x.yaml\n")
    with pytest.raises(CompileError) as info:
        compile_file(folder / "x.yaml")
    assert [str(d) for d in info.value.diagnostics] == [
        f"{folder / 'x.yaml'}:2:10: extends '../dir/x.yaml' makes a cycle of variants"]


@pytest.mark.parametrize("style", ["folded", "literal", "plain", "double-quoted", "escaped"])
def test_regression_errors_in_multi_line_formulas_point_at_their_line_and_column(style):
    # Was: the column counted along the folded value, past the end of the file's line
    # (x.yaml:70:94 for a mistake on line 72, column 25).
    formula = {
        "folded": ">-\n    (score >= 7 and opponent_score == 0)\n    or (score >= 21 and scor - opponent_score >= 2)",
        "literal": "|\n    (score >= 7 and opponent_score == 0)\n    or (score >= 21 and scor - opponent_score >= 2)",
        "plain": "(score >= 7 and opponent_score == 0)\n    or (score >= 21 and scor - opponent_score >= 2)",
        "double-quoted": '"(score >= 7 and opponent_score == 0)\n    or (score >= 21 and scor - opponent_score >= 2)"',
        "escaped": '"score >= 7 \\t and scor > 0"',
    }[style]
    text = standard_with("  win:\n    target: score >= target\n", f"  win: {formula}\n")
    line = line_of(text, "scor ")
    col = text.splitlines()[line - 1].index("scor ") + 1
    assert compile_error(text) == [f"v.yaml:{line}:{col}: unknown name `scor`; did you mean `score`?"]


def test_a_trick_of_cards_that_never_win_goes_to_its_leader():
    # Possible only with at least as many cards of no suit as players; rules.md is
    # silent, and the engine, the solver and the rulebook agree: the leader takes it.
    text = (standard_with("extra: [BJ, LJ]", "extra: [BJ, LJ, XA, XB]").replace("kitty: 6", "kitty: 8")
            .replace("notrump_extras: no-suit", "notrump_extras: free"))
    rules = lower(compile_text(text, "v.yaml"))
    extras = [rules.card_id(c) for c in ("BJ", "LJ", "XA", "XB")]
    normal = [c for c in range(rules.n_cards) if c not in extras]
    hands = [normal[s * 11:(s + 1) * 11] + [extras[s]] for s in range(4)]
    state = HandState(rules, 3, hands, normal[44:])
    for name in ("4 notrump", "pass", "pass", "pass", "direction uptown"):
        state.apply_action(rules.action_names.index(name))
    while state.phase != PLAY:  # the declarer discards, keeping its extra card
        state.apply_action(next(a for a in state.legal_actions() if a not in extras))
    leader = state.seat
    assert leader == 0
    for seat in (0, 1, 2, 3):  # free extras: each plays its own, though able to follow
        state.apply_action(extras[seat])
    assert state.tricks[-1] == (leader, tuple(extras), leader)
    assert state.seat == leader and state.won[leader] == 1
    # The rulebook says so, since the variant can make such a trick.
    assert "A trick made only of cards that never win goes to the player who led it." in \
        rulebook(compile_text(text, "v.yaml"))


# ---- a composed value's position comes from the layer that wrote it (issue 15)
# The fuzz run at 10x found `test_extreme_values_in_both_syntaxes` reporting an error
# at standard.yaml:78:5 for a house rule laid over cincinnati (which extends standard).
# Three ways a message about a value the user's file wrote named a shipped file:

CINCINNATI = VARIANTS_DIR / "cincinnati.yaml"
TEN_HANDS = TEXTS[VARIANTS_DIR / "ten-hands.yaml"]


def compile_over(base: Path, rule_text: str, folder: Path, ext: str = ".yaml") -> list:
    """The diagnostics of a house rule laid over ``base``, checked as the fuzzers check them."""
    rule = write_file(folder, rule_text, stem="rule", ext=ext)
    with pytest.raises(CompileError) as info:
        compile_file(base, with_rules=(str(rule),))
    check_diagnostics(info.value, _known_files(str(base), (rule,)), [rule])
    return [(Path(d.pos.file), d.pos.line, d.pos.col, d.message) for d in info.value.diagnostics]


@pytest.mark.parametrize("whist", [False, True])
@pytest.mark.parametrize("base", ["standard", "cincinnati"])
def test_regression_removing_every_win_condition_is_placed_on_the_removal(tmp_path, whist, base):
    # Was: standard.yaml:78:5 (where standard first wrote game.win), in a file the user
    # did not write: a house rule removing the last way to win (ten-hands with its
    # condition commented out, the very edit the fuzzer made) was placed in its base.
    text = TEN_HANDS.replace("target: played", "target: #played")
    if whist:
        text = to_whist_text(text, "ten.yaml")
    [(file, line, col, message)] = compile_over(VARIANTS_DIR / f"{base}.yaml", text, tmp_path,
                                                ".whist" if whist else ".yaml")
    assert file.parent == tmp_path and line == line_of(text, "#played") and col > 1
    assert message == "game.win: every condition is removed, so no side could ever win"


def test_regression_a_condition_too_deep_once_joined_is_placed_at_that_condition(tmp_path):
    # Was: standard.yaml:78:279, a column past the end of standard's line 78: the joined
    # text "(score >= target) or (not not ... swept)" was placed at game.win in standard.
    deep = "not " * 63 + "swept"  # 64 deep: accepted alone, one level too deep under the `or`
    rule = f"kind: house-rule\nname: deep\ngame:\n  win:\n    sweep: {deep}\n"
    assert compile_over(CINCINNATI, rule, tmp_path) == [(
        next(tmp_path.glob("rule-*.yaml")), 5, 12,
        "game.win.sweep: formula nested too deeply (more than 64 operators, calls or conditions inside one "
        "another; in a chain such as a + b + c each operator counts) (joined by `or` to the other conditions "
        "of game.win)")]
    # Alone, the same condition compiles (one way to win needs no `or`).
    alone = f"kind: house-rule\nname: deep\ngame:\n  win:\n    target: ~\n    sweep: {deep}\n"
    compile_file(CINCINNATI, with_rules=(str(write_file(tmp_path, alone, stem="alone")),))


def test_regression_a_word_two_strains_share_is_placed_in_the_users_file(tmp_path):
    # Was: standard.yaml:42:7 (standard's downtown) for a variant that extends standard and
    # gives uptown downtown's aliases; now the user's line, standard's named beside it.
    text = TEXTS[CINCINNATI].replace("extends: standard", f"extends: {VARIANTS_DIR / 'standard.yaml'}")
    text = text.replace("    - name: downtown\n", "")  # its aliases now belong to uptown
    path = write_file(tmp_path, text, stem="mine")
    with pytest.raises(CompileError) as info:
        compile_file(path)
    check_diagnostics(info.value, _known_files(str(path)), [path])
    strains = [d for d in info.value.diagnostics if "names both strain" in d.message]
    assert [str(d).splitlines()[0] for d in strains] == [
        f"{path}:{line_of(text, 'aliases: [special')}:16: '{word}' names both strain 'uptown' and strain 'downtown' "
        f"(here: auction.strains.0.aliases; auction.strains.1.aliases at "
        f"shipped 'standard', line {line_of(STANDARD, 'aliases: [low')})"
        for word in ("low", "down")]
    # order_aliases no longer names a setting no file wrote (it pointed at standard's line 9, `name:`).
    assert not any("order_aliases.downtown at" in d.message for d in info.value.diagnostics)


def test_regression_a_ladder_too_tall_after_the_users_kitty_change_leads_with_the_users_file(tmp_path):
    # Found by the 10^5-case run: extending cutthroat (levels up to 18: 17 cards and the
    # discards' book) with `kitty.discards: none` leaves 17 books; the error was placed at
    # cutthroat.yaml's `to: 18` alone, a line the user cannot edit.  Now it leads with the
    # user's kitty change, cutthroat's ladder named beside it.
    text = "name: a0\nkitty:\n  discards: none\n  show: never\nextends: cutthroat\n"
    path = write_file(tmp_path, text, stem="mine")
    with pytest.raises(CompileError) as info:
        compile_file(path)
    check_diagnostics(info.value, _known_files(str(path)), [path])
    (ladder,) = [d for d in info.value.diagnostics if "books of a hand" in d.message]
    first = str(ladder).splitlines()[0]
    assert first.startswith(f"{path}:3:13: levels: to 18 is more than the 17 books of a hand (here: kitty.discards; "
                            "auction.levels.to at ")
    assert first.endswith("at shipped 'cutthroat', line 23)")


@pytest.mark.parametrize("name, text, where", [
    # YAML counts NEL as a line break (PyYAML's marks do): the bad character is line 2.
    ("nel.yaml", "\x85\x08# x\nname: a\n", "nel.yaml:2:1: unacceptable character #x0008"),
    # The text syntax breaks lines at "\n" only: U+2028 inside a comment is not a line.
    ("ls.whist", "#\u2028A\nhouse-rule x\nplay {\n  roles {\n    notrump { BJ top }\n}\n",
     "ls.whist:6:2: missing `}` after the play block (opened at line 3)"),
])
def test_regression_positions_count_lines_as_each_syntax_does(tmp_path, name, text, where):
    # Found by the second 10^5-case run: the reported position and the quoted source line
    # counted lines with str.splitlines (which also breaks at U+2028 and NEL), the
    # parsers otherwise; the caret pointed past the end of the line it quoted.
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CompileError) as info:
        compile_file(path)
    (d,) = info.value.diagnostics
    assert str(d).splitlines()[0].startswith(f"{tmp_path}/{where}")
    check_diagnostics(info.value, _known_files(str(path)), [path])

"""Each rule has one interpreter in runtime/; everything else asks the engine (issue 12, points 1-2).

The first test parses the files that must not read rule settings and fails on any
attribute access of a Ruleset rule-setting field (or a Strain's declaration
fields).  The others check the rule modules on small cases and that
``HandState.from_actions`` rebuilds a played hand exactly.
"""

import ast
import random
from pathlib import Path

from bidcompiler.pipeline import load_ruleset
from runtime.auction import auction_rules
from runtime.contract import Contract, declaration
from runtime.game import deal
from runtime.hand import PLAY, HandState
from runtime.kitty import kitty_rules
from runtime.ruleset import NO_SUIT, NO_TRUMP, PlayTable
from runtime.scoring import penalised_books, score_hand
from runtime.tricks import TRUMP_BONUS, follow_cards, strength_keys, winning_index

ROOT = Path(__file__).resolve().parents[1]

# The rule settings of runtime/ruleset.py's Ruleset; only the rule modules and hand.py may read them.
SETTINGS = {"rounds", "passes_end", "if_all_pass", "dealer_may_take", "redeal_cards", "redeal_dealer",
            "all_pass_dealer", "declare_before_kitty", "discards_book", "kitty_show", "kitty_show_contracts",
            "first_leader",
            "first_caller", "renege", "renege_books", "tie_break", "first_dealer", "rotation",
            "kitty_taken_by", "must_bid", "overcall_by", "overcall_partner", "dealer_bids_from"}
# A Strain's declaration settings: read only through runtime/contract.py's Declaration.
STRAIN_SETTINGS = {"trump", "directions", "bare"}

CHECKED = [ROOT / "runtime" / "bots", ROOT / "runtime" / "solver", ROOT / "runtime" / "solver_fast.py",
           ROOT / "runtime" / "records.py", ROOT / "runtime" / "trickster.py",
           ROOT / "runtime" / "session.py", ROOT / "runtime" / "simulate.py", ROOT / "runtime" / "metrics.py",
           ROOT / "runtime" / "backends.py", ROOT / "bidcompiler" / "cli"]

# Names that only look like rule settings, each listed by file and source text:
# - ``play.first_dealer`` is a played game's first dealer (GamePlay), not the setting;
# - ``tricks.renege_books`` is the TrickRules interpreter's own answer;
# - ``a.if_all_pass`` in render.py is the compiler's IR (the compile summary), not the Ruleset.
ALLOWED = {
    ("runtime/metrics.py", "play.first_dealer"),
    ("bidcompiler/cli/hand_rules.py", "tricks.renege_books"),
    ("bidcompiler/cli/render.py", "a.if_all_pass"),
}


def _files():
    for target in CHECKED:
        if target.is_dir():
            yield from sorted(target.rglob("*.py"))
        elif target.exists():
            yield target


def _strain_like(node: ast.AST, strain_names: set[str]) -> bool:
    """Whether ``node`` is a strain: ``x.strains[i]``, or a name bound to one (``strain``, a loop over strains)."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Attribute) and node.value.attr == "strains"
    return isinstance(node, ast.Name) and ("strain" in node.id.lower() or node.id in strain_names)


def _reads(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    # Names that iterate over ``….strains`` (``for s in rules.strains``, comprehensions).
    strain_names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)):
            it = node.iter
            if isinstance(it, ast.Attribute) and it.attr == "strains" and isinstance(node.target, ast.Name):
                strain_names.add(node.target.id)
        elif isinstance(node, ast.Assign) and _strain_like(node.value, set()):  # s = rules.strains[i]
            strain_names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
            continue
        # ``self.first_dealer`` and the like are the checked classes' own attributes, not a Ruleset's.
        own = isinstance(node.value, ast.Name) and node.value.id == "self"
        strain = node.attr in STRAIN_SETTINGS and _strain_like(node.value, strain_names)
        if (node.attr in SETTINGS and not own) or strain:
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_rule_setting_is_read_outside_its_interpreter():
    problems = []
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        for line, text in _reads(path):
            if (rel, text) not in ALLOWED:
                problems.append(f"{rel}:{line}: reads {text}; ask the engine (hand.py or a rule module)")
    assert not problems, "\n".join(problems)


def test_the_check_sees_a_direct_read(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(rules, state):\n    s = rules.strains[0]\n    return rules.discards_book, s.trump, "
                   "rules.strains[1].directions, state.trump\n")
    assert sorted(t for _, t in _reads(bad)) == ["rules.discards_book", "rules.strains[1].directions", "s.trump"]


# --------------------------------------------------------------------------- auction
def test_auction_legal_calls_next_caller_and_take():
    rules = load_ruleset("standard")
    ar = auction_rules(rules)
    hands, kitty = deal(rules, random.Random(3))
    state = HandState(rules, 0, hands, kitty)
    assert state.current_player() == ar.first_seat(0) == 1
    assert state.legal_actions()[0] == rules.pass_action
    assert ar.next_caller(1, [False] * 4, 0, 1, 1) == 2
    state.apply_action(rules.first_bid_action)  # seat 1 bids the lowest
    assert rules.first_bid_action not in state.legal_actions()  # must outrank it
    for _ in range(2):
        state.apply_action(rules.pass_action)
    # The dealer: may take where the variant lets it, and the matching bid means take.
    if ar.offers_take:
        assert state.call_meaning(rules.first_bid_action) == rules.take_action
        assert state.ends_auction(rules.take_action)
    else:
        assert state.call_meaning(rules.first_bid_action) == rules.first_bid_action
    refusal = ar.explain(state, rules.first_bid_action, rules.action_names[rules.first_bid_action])
    assert refusal.rule in ("bid-too-low", "dealer-bid")


# --------------------------------------------------------------------------- kitty
def _play_until(rules, seed, stop):
    rng = random.Random(seed)
    hands, kitty = deal(rules, rng)
    state = HandState(rules, 0, hands, kitty)
    while not state.is_terminal() and not stop(state):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_kitty_visibility_and_the_discards_book():
    rules = load_ruleset("standard")
    kr = kitty_rules(rules)
    state = _play_until(rules, 5, lambda s: s.phase == PLAY)
    if state.declarer < 0:
        return
    assert state.kitty_taken()
    assert state.kitty_visible_to(state.declarer)
    others = [s for s in range(rules.players) if s != state.declarer]
    assert all(state.kitty_visible_to(s) == kr.shown_at_deal or state.kitty_seen for s in others)
    # Before any trick the first-trick book is pending; the declarer's book counts at once.
    if kr.book_to_first_trick:
        assert state.discards_book_pending() and state.discards_book_side() is None
    elif kr.book_to_declarer:
        assert state.discards_book_side() == rules.side_of[state.declarer]
    assert state.books_to_play() == rules.hand_size + (1 if state.discards_book_pending() else 0)
    assert kr.book_side(rules.side_of, 0, [], []) is None  # no discards, no book


# --------------------------------------------------------------------------- tricks
def _table(trump, suit_of, power, free=False):
    return PlayTable(trump=trump, direction=0, suit_of=tuple(suit_of), power=tuple(power), free_no_suit=free)


def test_trick_winner_suit_led_trumps_jokers_and_promoted_cards():
    # Cards 0-2 hearts (suit 0), 3-4 spades (suit 1), 5 a joker of no suit, 6 a promoted trump (natural suit 0).
    suit_of = [0, 0, 0, 1, 1, NO_SUIT, 1]
    power = [1, 5, 3, 2, 4, 99, 9]
    nt = _table(NO_TRUMP, suit_of, power)
    assert winning_index(nt, 0, [0, 1, 3, 5]) == 1  # highest heart; a spade and a joker cannot win
    spades = _table(1, suit_of, power)
    assert winning_index(spades, 0, [1, 3, 2]) == 1  # the low trump beats the high heart
    assert winning_index(spades, 0, [1, 3, 6]) == 2  # the promoted card is the top trump
    assert winning_index(nt, NO_SUIT, [5]) == 0
    keys = strength_keys(spades)
    assert keys[5] == -1 and keys[6] == 9 + TRUMP_BONUS and keys[0] == 1
    assert follow_cards(spades, 1, [0, 3, 5]) == [3]
    assert follow_cards(_table(1, suit_of, power, free=True), 1, [0, 3, 5]) == [3, 5]
    assert follow_cards(spades, 0, [3, 4]) is None  # void: anything goes


# --------------------------------------------------------------------------- scoring
def test_scoring_is_a_pure_function_of_the_contract_and_books():
    rules = load_ruleset("standard")
    bid = next(i for i, b in enumerate(rules.bids) if b.level == 4)
    contract = Contract(declarer=0, side=0, bid=bid, level=4, strain=rules.bids[bid].strain,
                        trump=0, direction=0, declared=True)
    made = score_hand(rules, contract, [11, 2])
    again = score_hand(rules, contract, [11, 2])
    assert made == again and made.made and made.score[0] > 0 and made.books == [11, 2]
    assert not score_hand(rules, contract, [8, 5]).made
    # A renege by seat 0 moves renege_books to the other side before scoring.
    assert penalised_books(rules, [11, 2], [0]) == [11 - rules.renege_books, 2 + rules.renege_books]


def test_declaration_says_what_each_strain_declares():
    rules = load_ruleset("standard")
    for b in range(len(rules.bids)):
        decl = declaration(rules, b)
        assert decl.contract_keys(rules), rules.bids[b].text
        assert decl.chooses_direction == (decl.fixed_direction is None)


# --------------------------------------------------------------------------- the one replayer
def test_from_actions_reproduces_played_hands_exactly():
    for name in ("standard",):
        rules = load_ruleset(name)
        for seed in range(30):
            state = _play_until(rules, seed, lambda s: False)
            again = HandState.from_actions(rules, state.dealer, [list(h) for h in state.dealt], state.kitty,
                                           state.history)
            assert again.history == state.history
            assert (again.tricks, again.books, again.score, again.contract) == \
                (state.tricks, state.books, state.score, state.contract)
            ids = HandState.from_actions(rules, state.dealer, [list(h) for h in state.dealt], state.kitty,
                                         [a for _, a in state.history])
            assert ids.score == state.score


def test_from_actions_reports_the_index_of_an_illegal_action():
    rules = load_ruleset("standard")
    hands, kitty = deal(rules, random.Random(1))
    try:
        HandState.from_actions(rules, 0, hands, kitty, [rules.pass_action, rules.take_action])
    except Exception as exc:  # noqa: BLE001 - IllegalAction, checked below
        assert type(exc).__name__ == "IllegalAction" and exc.index == 1
    else:
        raise AssertionError("take with no bid was accepted")


# --------------------------------------------------------------------------- dealing order
def test_next_dealer_follows_the_rotation_and_hands_mode_asks_it():
    from runtime.game import next_dealer
    from runtime.simulate import play_hand

    left, right = load_ruleset("standard"), load_ruleset("standard+deal-right")
    assert [next_dealer(left, d) for d in range(4)] == [1, 2, 3, 0]
    assert [next_dealer(right, d) for d in range(4)] == [3, 0, 1, 2]
    assert next_dealer(left, 2, 5) == 3 and next_dealer(right, 2, 5) == 1 and next_dealer(left, 1, 0) == 1
    for rules in (left, right):
        dealers = [play_hand(rules, 7, i, "random").dealer for i in range(6)]
        assert all(b == next_dealer(rules, a) for a, b in zip(dealers, dealers[1:])), dealers

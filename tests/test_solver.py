"""The double-dummy solver (runtime/solver/) and `bidwhist analyze`.

The solver is checked against two references that share no code with it:

* the DDS library (through the ``endplay`` package) on 52-card, 13-trick, no-kitty
  deals played uptown with a trump suit or in notrump — whole deals from the start
  of play, and many smaller deals (every hand cut to a few cards of a 52-card deck,
  also from the middle of a trick);
* a tiny exhaustive minimax written here on the engine's own ``HandState`` (legal
  actions, clone, apply), on small endgames of every kind of variant: jokers that
  never win in notrump, jokers thrown at will, promoted trumps, three players each
  alone, trump named by the first card led, the discards' book won by the first
  trick, a trick of nothing but cards of no suit (won by its leader) in a variant
  with four extra cards.

``BIDWHIST_DDS_DEALS`` sets how many whole 13-trick deals are compared with DDS
(default 4: a whole deal takes the pure-Python solver seconds, see bench/dds.py).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from endplay.dds import solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Card, Deal, Denom, Player

from bidcompiler.cli import cli
from bidcompiler.lower import lower
from bidcompiler.pipeline import compile_text, load_ruleset
from runtime.game import deal
from runtime.hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, DISCARD, OVER, PLAY, HandState
from runtime.notation import pbn_deal
from runtime.records import hand_record
from runtime.ruleset import NO_TRUMP
from runtime.solver import DoubleDummy, can_use_dds, solve, solve_actions

FULL_DEALS = int(os.environ.get("BIDWHIST_DDS_DEALS", "4"))


@lru_cache(maxsize=None)
def rules_of(spec: str):
    name, *with_rules = spec.split("+")
    return load_ruleset(name, tuple(with_rules))


# --------------------------------------------------------------------------- building positions
def start_play(rules, hands, kitty, dealer: int, declarer: int, strain: str,
               trump: int | None = None, direction: str | None = None, rng=None) -> HandState:
    """Drive a hand through the public API to its first card: ``declarer`` wins the
    auction with a bid of ``strain``, names ``trump`` (a suit index, or None for no
    trump) and ``direction``, and discards at random."""
    rng = rng or random.Random(0)
    state = HandState(rules, dealer, hands, kitty)
    while state.phase == AUCTION:
        legal = state.legal_actions()
        if state.current_player() == declarer and state.high_bid < 0:
            bids = [a for a in legal if rules.first_bid_action <= a < rules.first_trump_action
                    and rules.strains[rules.bids[a - rules.first_bid_action].strain].name == strain]
            state.apply_action(bids[0])
        elif rules.pass_action in legal:
            state.apply_action(rules.pass_action)
        else:
            state.apply_action(legal[0])
    assert state.declarer == declarer, "the auction went to another seat"
    while state.phase != PLAY:
        if state.phase == DECLARE_TRUMP:
            state.apply_action(rules.no_trump_action if trump is None else rules.first_trump_action + trump)
        elif state.phase == DECLARE_DIRECTION:
            state.apply_action(rules.first_direction_action + rules.order_aliases[direction or "uptown"])
        elif state.phase == DISCARD:
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            raise AssertionError(f"unexpected phase {state.phase}")
    return state


def small_rules(spec: str, hand_size: int, kitty_size: int = 0):
    """A variant cut to ``hand_size`` cards each (the deal is any part of the deck)."""
    return dataclasses.replace(rules_of(spec), hand_size=hand_size, kitty_size=kitty_size)


def small_deal(rules, rng):
    deck = rules.deck()
    rng.shuffle(deck)
    n, k = rules.hand_size, rules.kitty_size
    hands = [sorted(deck[i * n:(i + 1) * n]) for i in range(rules.players)]
    return hands, deck[rules.players * n:rules.players * n + k]


def play_randomly(state: HandState, cards: int, rng) -> HandState:
    for _ in range(cards):
        if state.phase != PLAY:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# --------------------------------------------------------------------------- the independent reference
def brute_force(state: HandState) -> int:
    """Exhaustive minimax on HandState: the declaring side's books still to come."""
    rules = state.rules
    side = rules.side_of[state.declarer]
    memo: dict = {}

    def gain(st: HandState) -> int:
        if st.phase == OVER:
            return 0
        key = (tuple(map(tuple, st.hands)), tuple(st.trick), st.seat, st.trump, bool(st.tricks))
        if key in memo:
            return memo[key]
        here = st.books_so_far()[side]
        maximise = rules.side_of[st.current_player()] == side
        best = None
        for action in st.legal_actions():
            child = st.clone()
            child.apply_action(action)
            value = child.books_so_far()[side] - here + gain(child)
            if best is None or (value > best if maximise else value < best):
                best = value
        memo[key] = best
        return best

    return gain(state)


def snapshot(state: HandState):
    return (json.dumps(state.observation(0), sort_keys=True), [list(h) for h in state.hands],
            list(state.trick), state.seat, state.leader, list(state.won), state.table, state.trump)


# Small endgames of every kind of variant: (variant spec, strain word, trump suit or None, direction).
ENDGAMES = [
    ("cincinnati", "uptown", 0, None),
    ("cincinnati", "notrump", None, "uptown"),
    ("cincinnati", "downtown", 2, None),
    ("standard", "uptown", 1, None),                        # jokers are the top trumps
    ("standard", "notrump", None, "uptown"),                # jokers of no suit never win
    ("standard", "notrump", None, "downtown"),
    ("standard+jokers-free-in-notrump", "notrump", None, "uptown"),
    ("standard+big-joker-notrump", "notrump", None, "uptown"),   # the big joker wins every trick
    ("standard+big-joker-notrump", "notrump", None, "downtown"),
    ("standard+big-joker-notrump", "uptown", 2, None),            # suit contracts as standard
    ("standard+spades-trump", "downtown", None, None),            # spades trump, named by no one
    ("standard+jokers-and-deuce", "uptown", 3, None),       # 2S a trump in any suit contract
    ("standard+deuce-of-spades", "downtown", 0, None),
    ("northeast52", "", 1, "downtown-aces-bad"),
    ("cutthroat", "uptown", 2, None),                       # three players, each alone
    ("cutthroat", "notrump", None, "uptown"),
]


def endgame(spec, strain, trump, direction, rng, cards_left: int, extra: int):
    rules = rules_of(spec)
    hands, kitty = deal(rules, rng)
    dealer = rng.randrange(rules.players)
    declarer = (dealer + 1) % rules.players
    strain = strain or rules.strains[0].name
    state = start_play(rules, hands, kitty, dealer, declarer, strain, trump, direction, rng)
    played = rules.players * (len(state.hands[state.seat]) - cards_left) + extra
    return play_randomly(state, played, rng)


@pytest.mark.parametrize("spec, strain, trump, direction", ENDGAMES)
def test_solve_matches_exhaustive_minimax_on_endgames(spec, strain, trump, direction):
    rng = random.Random(f"{spec}/{strain}/{trump}")
    rules = rules_of(spec)
    cards_left = 4 if rules.players == 3 else 3
    for i in range(12):
        state = endgame(spec, strain, trump, direction, rng, cards_left, extra=i % rules.players)
        if state.phase != PLAY:
            continue
        before = snapshot(state)
        assert solve(state) == brute_force(state), (spec, state.observation(state.seat))
        assert snapshot(state) == before


@pytest.mark.parametrize("spec, strain, hand_size, kitty", [
    ("oregon", "", 3, 0),                 # the first card led names trump (or notrump is declared)
    ("northeast52", "", 3, 4),            # the first trick also wins the discards: worth two books
    ("standard", "notrump", 3, 2),        # the discards are the declarers' book
    ("cutthroat", "notrump", 4, 0),
])
def test_solve_from_the_first_card_of_small_deals(spec, strain, hand_size, kitty):
    rng = random.Random(spec)
    rules = small_rules(spec, hand_size, kitty)
    strain = strain or rules.strains[0].name
    checked = 0
    for _ in range(10):
        hands, kit = small_deal(rules, rng)
        dealer = rng.randrange(rules.players)
        declarer = (dealer + 1) % rules.players
        state = start_play(rules, hands, kit, dealer, declarer, strain,
                           trump=rng.choice([None, 0, 1, 2, 3]), rng=rng)
        before = snapshot(state)
        expected = brute_force(state)
        assert solve(state) == expected
        values = solve_actions(state)
        assert set(values) == set(state.legal_actions())
        mine = rules.side_of[state.seat] == rules.side_of[declarer]
        assert (max if mine else min)(values.values()) == expected
        assert snapshot(state) == before
        checked += 1
    assert checked == 10


def test_first_lead_names_trump_values_notrump_and_every_lead():
    rules = small_rules("oregon", 3)
    # Seat 1 declares.  In notrump its low spade loses to the ace and seat 0 runs the
    # hearts; a spade led makes spades trump: the ace still wins, but then seat 1
    # ruffs the hearts.
    hands = [["AS", "KH", "QH"], ["2S", "3S", "4S"], ["AD", "KD", "QD"], ["5C", "6C", "7C"]]
    ids = [[rules.card_id(c) for c in h] for h in hands]
    state = start_play(rules, ids, [], 0, 1, rules.strains[0].name)
    assert state.table is None and state.seat == 1
    values = solve_actions(state)
    assert values[rules.no_trump_action] == 0
    for card in ("2S", "3S", "4S"):
        assert values[rules.card_id(card)] == 2
    assert solve(state) == 2 == brute_force(state)


def test_jokers_never_win_in_notrump_and_top_the_trumps_otherwise():
    for trump, expected in ((None, 0), (0, 2)):
        rules = small_rules("standard", 2, 0)
        hands = [["BJ", "LJ"], ["2H", "3H"], ["2D", "3D"], ["4H", "5H"]]
        ids = [[rules.card_id(c) for c in h] for h in hands]
        strain = "notrump" if trump is None else "uptown"
        state = start_play(rules, ids, [], 3, 0, strain, trump=trump, direction="uptown")
        assert solve(state) == expected == brute_force(state)
        if trump is None:
            # A joker led: the next card played sets the suit, and the jokers take nothing.
            assert solve_actions(state) == {rules.card_id("BJ"): 0, rules.card_id("LJ"): 0}


VARIANTS = Path(__file__).resolve().parent.parent / "variants"


@lru_cache(maxsize=None)
def four_extras(notrump_extras: str):
    """Standard with four extra cards of no suit in notrump (BJ, LJ, XA, XB): as many
    as players, so a trick can be made of nothing but cards that never win."""
    text = (VARIANTS / "standard.yaml").read_text(encoding="utf-8")
    for old, new in (("extra: [BJ, LJ]", "extra: [BJ, LJ, XA, XB]"), ("kitty: 6", "kitty: 8"),
                     ("notrump_extras: no-suit", f"notrump_extras: {notrump_extras}")):
        assert old in text
        text = text.replace(old, new, 1)
    return lower(compile_text(text, "v.yaml"))


@pytest.mark.parametrize("notrump_extras", ["free", "no-suit"])
def test_a_trick_of_cards_that_never_win_goes_to_its_leader(notrump_extras):
    """The rule (decided with the engine's): a trick in which no card can win, every
    card of no suit, goes to the player who led it.  Each seat holds one extra card."""
    rules = dataclasses.replace(four_extras(notrump_extras), hand_size=3, kitty_size=0)
    extras = [rules.card_id(c) for c in ("BJ", "LJ", "XA", "XB")]
    normal = [c for c in range(rules.n_cards) if c not in extras]
    rng = random.Random(notrump_extras)
    # Seat 0 declares and leads its extra card; everyone else can only (or may) add its own.
    hands = [[rules.card_id(c) for c in h] for h in
             (["BJ", "AS", "2H"], ["LJ", "KS", "3H"], ["XA", "QS", "4H"], ["XB", "JS", "5H"])]
    state = start_play(rules, hands, [], 3, 0, "notrump", direction="uptown")
    assert state.seat == 0
    expected = brute_force(state)
    assert solve(state) == expected
    # Three extra cards on the table: the fourth makes a trick no card can win.
    three = _after(state, extras[:3])
    side = rules.side_of[0]
    for action, value in solve_actions(three).items():
        child = _after(three, [action])
        assert value == child.books_so_far()[side] + brute_force(child)
        if action == extras[3]:
            assert child.tricks[-1][2] == 0 and child.seat == 0  # the leader's, the engine says too
    assert solve(three) == brute_force(three)
    # Random small deals where one extra card lies in each hand, from the first card
    # and from the middle of a trick.
    for i in range(12):
        cards = rng.sample(normal, 8)
        hands = [sorted([extras[s], *cards[2 * s:2 * s + 2]]) for s in range(4)]
        declarer = rng.randrange(4)
        state = start_play(rules, hands, [], (declarer + 3) % 4, declarer, "notrump",
                           direction=rng.choice(["uptown", "downtown"]))
        play_randomly(state, i % 4, rng)
        assert solve(state) == brute_force(state), hands
        side = rules.side_of[declarer]
        here = state.books_so_far()[side]
        for action, value in solve_actions(state).items():
            child = state.clone()
            child.apply_action(action)
            assert value == child.books_so_far()[side] - here + brute_force(child)


def _after(state: HandState, cards) -> HandState:
    child = state.clone()
    for c in cards:
        child.apply_action(c)
    return child


def test_mid_trick_positions_and_solve_actions_agree_with_solve():
    rng = random.Random(11)
    for spec, strain, trump, direction in ENDGAMES:
        rules = rules_of(spec)
        for extra in range(1, rules.players):
            state = endgame(spec, strain, trump, direction, rng, 3, extra)
            if state.phase != PLAY:
                continue
            side = rules.side_of[state.declarer]
            before = snapshot(state)
            values = solve_actions(state)
            assert snapshot(state) == before
            assert set(values) == set(state.legal_actions())
            here = state.books_so_far()[side]
            for action, value in values.items():
                child = state.clone()
                child.apply_action(action)
                assert value == child.books_so_far()[side] - here + solve(child), (spec, action)
            mine = rules.side_of[state.seat] == side
            assert solve(state) == (max if mine else min)(values.values())


def same_position(state: HandState, rules) -> HandState:
    """``state`` again under other rules with the same deck, through the public API."""
    other = HandState(rules, state.dealer, [list(h) for h in state.dealt], list(state.kitty))
    for _, action in state.calls:
        other.apply_action(action)
    while other.phase != PLAY:
        if other.phase == DECLARE_TRUMP:
            other.apply_action(rules.no_trump_action if state.trump == NO_TRUMP
                               else rules.first_trump_action + state.trump)
        elif other.phase == DECLARE_DIRECTION:
            other.apply_action(rules.first_direction_action + state.direction)
        else:
            other.apply_action(state.discards[len(other.discards)])
    for card in [c for _, t, _ in state.tricks for c in t] + list(state.trick):
        other.apply_action(card)
    return other


def test_a_renege_penalty_variant_is_solved_as_if_following_were_compulsory():
    rng = random.Random(5)
    lenient = rules_of("standard+renege-penalty")
    for _ in range(6):
        plain = endgame("standard", "uptown", 0, None, rng, 3, extra=1)
        state = same_position(plain, lenient)
        assert state.hands == plain.hands and state.trick == plain.trick
        assert solve(state) == solve(plain) == brute_force(plain)
        values = solve_actions(state)
        assert set(values) == set(state.legal_actions())  # every card, reneges included
        for card in plain.legal_actions():
            assert values[card] == solve_actions(plain)[card]


def test_a_solver_instance_keeps_its_table_between_positions():
    rng = random.Random(3)
    state = endgame("cincinnati", "notrump", None, "uptown", rng, 6, 0)
    dd = DoubleDummy()
    side = state.rules.side_of[state.declarer]
    here = state.books_so_far()[side]
    first = dd.solve(state)
    assert dd.solve(state) == first == solve(state)
    while state.phase == PLAY:
        best = dd.solve_actions(state)
        mine = state.rules.side_of[state.seat] == state.rules.side_of[state.declarer]
        target = (max if mine else min)(best.values())
        state.apply_action(next(a for a, v in best.items() if v == target))
    assert state.books[side] == here + first  # perfect play takes exactly what the solver promised


# --------------------------------------------------------------------------- DDS, 52 cards
def dds_deal(rules, state: HandState) -> Deal:
    """The same position for DDS: the hands at the start of the trick, then its cards."""
    hands = [list(h) for h in state.hands]
    for i, card in enumerate(state.trick):
        hands[(state.leader + i) % 4].append(card)
    d = Deal(pbn_deal(rules, hands))
    d.first = Player(state.leader)
    d.trump = Denom.nt if state.trump == NO_TRUMP else Denom(state.trump)
    for card in state.trick:
        name = rules.cards[card]
        d.play(Card(name[1] + name[0]))
    return d


def test_pbn_deal_spells_a_deal_as_bridge_programs_read_it():
    rules = load_ruleset("cincinnati")
    names = ["AS KS 2S TH 9H AD 3D 2D KC QC JC TC 2C", "QS", "3S 4S", ""]
    hands = [[rules.cards.index(n) for n in text.split()] for text in names]
    assert pbn_deal(rules, hands) == "N:AK2.T9.A32.KQJT2 Q... 43... ..."
    with pytest.raises(ValueError, match="jokers"):
        pbn_deal(load_ruleset("standard"), [[load_ruleset("standard").cards.index("BJ")]])


def dds_declarer_tricks(rules, state: HandState) -> int:
    """DDS's count for the side to move, turned into the declaring side's tricks."""
    best = max(score for _, score in solve_board(dds_deal(rules, state), SolveMode.OptimalOne))
    mine = rules.side_of[state.seat] == rules.side_of[state.declarer]
    return best if mine else len(state.hands[state.seat]) - best


def dds_position(rng, cards: int, extra: int = 0) -> HandState:
    """A random 52-card deal cut to ``cards`` each, uptown, trump or notrump, ``extra`` cards into a trick."""
    rules = rules_of("cincinnati")
    deck = rules.deck()
    rng.shuffle(deck)
    hands = [sorted(deck[i * 13:i * 13 + cards]) for i in range(4)]
    small = dataclasses.replace(rules, hand_size=cards)
    dealer = rng.randrange(4)
    declarer = rng.randrange(4)
    trump = rng.choice([None, 0, 1, 2, 3])
    if dealer == declarer:  # the declarer calls before the dealer
        dealer = (declarer + 3) % 4
    state = start_play(small, hands, [], dealer, declarer,
                       "notrump" if trump is None else rules.strains[0].name, trump, "uptown")
    return play_randomly(state, extra, rng)


def test_whole_deals_equal_dds_from_the_start_of_play():
    rng = random.Random(2024)
    rules = rules_of("cincinnati")
    for i in range(FULL_DEALS):
        state = dds_position(rng, 13)
        assert solve(state) == dds_declarer_tricks(rules, state), (i, dds_deal(rules, state).to_pbn())


def test_small_52_card_deals_equal_dds_from_the_start_and_mid_trick():
    rng = random.Random(7)
    rules = rules_of("cincinnati")
    compared = 0
    for i in range(240):
        state = dds_position(rng, 6 + i % 3, extra=i % 4 if i % 3 == 0 else 0)
        if state.phase != PLAY:
            continue
        assert solve(state) == dds_declarer_tricks(rules, state), (i, dds_deal(rules, state).to_pbn())
        compared += 1
    assert compared >= 200


def dealt_position(cards: int, hands: list[str], declarer: int, trump: int, played=()) -> HandState:
    """A 52-card deal given by card names (``cards`` each), uptown, ``declarer`` leading, then ``played``."""
    rules = rules_of("cincinnati")
    small = dataclasses.replace(rules, hand_size=cards)
    ids = [sorted(rules.card_id(c) for c in h.split()) for h in hands]
    state = start_play(small, ids, [], (declarer + 3) % 4, declarer, rules.strains[0].name, trump, "uptown")
    for card in played:
        state.apply_action(rules.card_id(card))
    return state


def test_a_run_of_equal_cards_is_not_generalised_to_positions_that_split_it():
    """Regression (whole deal 67 of the DDS test): the table gave a bound to positions
    where a run of cards searched once (KH QH JH over partner's TH) is split (QH JH
    8H), and 8H ducked under partner's trump gives partner an entry to its clubs."""
    rules = rules_of("cincinnati")
    state = dealt_position(8, ["5S 6S 7S 8S KS 5H AH AD", "TH 4D 7D TD 6C TC AC 5C",
                               "JS QS AS 6H 8D 9D KD KC", "3S TS 8H JH QH KH 5D QD"],
                           declarer=1, trump=1, played=["5C", "KC"])
    assert DoubleDummy().solve(state) == dds_declarer_tricks(rules, state) == 4
    state = dealt_position(13, ["KS 8S 7S 6S 5S 4S AH 5H 2H AD 6D QC 8C",
                                "TH 9H 7H TD 7D 4D 2D AC TC 6C 5C 4C 2C",
                                "AS QS JS 9S 6H 3H KD JD 9D 8D KC JC 9C",
                                "TS 3S 2S KH QH JH 8H 4H QD 5D 3D 7C 3C"], declarer=3, trump=1)
    assert DoubleDummy().solve(state) == dds_declarer_tricks(rules, state) == 7


def test_one_solver_across_many_positions_matches_exhaustive_minimax():
    """The table is shared by every position one instance solves (bounds are given to
    whole classes of positions): many random 4-card endings, one instance."""
    rng = random.Random(11)
    dd = DoubleDummy()
    checked = 0
    for i in range(60):
        state = dds_position(rng, 4, extra=i % 4)
        if state.phase != PLAY:
            continue
        assert dd.solve(state) == brute_force(state), (i, dds_deal(state.rules, state).to_pbn())
        checked += 1
    assert checked >= 50


@pytest.mark.parametrize("spec, strain, trump, direction", [
    ("cincinnati", "notrump", None, "uptown"),
    ("standard", "notrump", None, "downtown"),                # jokers of no suit, low cards win
    ("standard+jokers-free-in-notrump", "notrump", None, "uptown"),
    ("cincinnati", "uptown", 3, None),                        # trumps often gone by the ending
])
def test_notrump_leads_weighed_by_top_cards_keep_every_value(spec, strain, trump, direction):
    """Four-player endings of four cards where leads are ordered by who holds each
    suit's top cards (no trumps in play): one solver instance, every position and
    every card's value against exhaustive minimax."""
    rng = random.Random(f"leads/{spec}/{strain}")
    rules = rules_of(spec)
    dd = DoubleDummy()
    checked = 0
    for i in range(8):
        state = endgame(spec, strain, trump, direction, rng, 4, extra=i % 4)
        if state.phase != PLAY:
            continue
        assert dd.solve(state) == brute_force(state), (spec, i)
        values = dd.solve_actions(state)
        for action, value in values.items():
            child = state.clone()
            child.apply_action(action)
            side = rules.side_of[state.declarer]
            gained = child.books_so_far()[side] - state.books_so_far()[side]
            assert value == gained + brute_force(child), (spec, i, action)
        checked += 1
    assert checked >= 6


# --------------------------------------------------------------------------- bidwhist analyze
def write(tmp_path, data, name="hand.json"):
    path = tmp_path / name
    if isinstance(data, list):
        path.write_text("".join(json.dumps(r) + "\n" for r in data), encoding="utf-8")
    elif isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_text(json.dumps(data), encoding="utf-8")
    return path


def analyze(*args):
    result = CliRunner().invoke(cli, ["analyze", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def suits_record(dealer: int = 3, with_rules=()) -> dict:
    """A whole `standard` hand dealt by suits, seat 0 declaring spades; seat 0 first
    leads its low heart, then everyone plays perfectly."""
    ranks = "AKQJT98765432"
    rules = rules_of("+".join(("standard", *with_rules)))
    hands = [[rules.card_id(r + s) for r in ranks[:12]] for s in "SHDC"]
    kitty = [rules.card_id(c) for c in ("2S", "2H", "2D", "2C", "BJ", "LJ")]
    state = HandState(rules, dealer, hands, kitty)
    while state.phase == AUCTION:
        if state.current_player() == 0:
            state.apply_action(rules.first_bid_action + next(
                i for i, b in enumerate(rules.bids) if b.text == "4 uptown"))
        else:
            state.apply_action(rules.pass_action)
    state.apply_action(rules.first_trump_action + 0)
    for card in ("2D", "2C", "3S", "4S", "5S", "6S"):
        state.apply_action(rules.card_id(card))
    assert state.phase == PLAY and state.seat == 0
    state.apply_action(rules.card_id("2H"))
    while state.phase == PLAY:
        values = solve_actions(state)
        mine = rules.side_of[state.seat] == rules.side_of[state.declarer]
        target = (max if mine else min)(values.values())
        state.apply_action(next(a for a, v in values.items() if v == target))
    return hand_record(state, "standard", list(with_rules))


def test_analyze_reports_each_trick_and_where_books_were_lost(tmp_path):
    record = suits_record()
    path = write(tmp_path, record)
    result = analyze(path, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = json.loads(result.stdout)
    assert out["error"] is None
    assert out["contract"]["declarer"] == 0
    positions = out["positions"]
    assert len(positions) == 13  # before each of the 12 tricks, and at the end
    first, last = positions[0], positions[-1]
    assert first["trick"] == 0 and first["books"] == [1, 0]  # the discards' book
    assert last["dd"] == 0 and last["dd_declaring_books"] == out["books"][0]
    changes = [p["change"] for p in positions[1:]]
    assert sum(changes) == last["dd_declaring_books"] - first["dd_declaring_books"]
    for p in positions:
        assert p["dd_declaring_books"] == p["books"][0] + p["dd"]
        assert p["dd_declaring_books"] + p["dd_defending_books"] == 13
    every = json.loads(analyze(path, "--json", "--every-card").stdout)
    assert len(every["positions"]) == 48 + 1
    assert every["positions"][0] == positions[0]
    text = analyze(path)
    assert text.exit_code == 0
    assert "4 uptown by seat 0" in text.stdout and "can reach" in text.stdout
    if any(changes):
        assert "lost" in text.stdout


def test_analyze_a_game_record_and_a_hand_without_contract(tmp_path):
    rules = rules_of("standard+all-pass-redeal")
    hands, kitty = deal(rules, random.Random(1))
    state = HandState(rules, 0, hands, kitty)
    while state.phase == AUCTION:
        state.apply_action(rules.pass_action)
    thrown = hand_record(state, "standard", ["all-pass-redeal"])
    played = suits_record(dealer=1, with_rules=("all-pass-redeal",))
    path = write(tmp_path, [thrown, played], "game.jsonl")
    result = analyze(path, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = json.loads(result.stdout)
    assert out["error"] is None and len(out["hands"]) == 2
    assert out["hands"][0]["contract"] is None and out["hands"][0]["positions"] == []
    alone = json.loads(analyze(write(tmp_path, played), "--json").stdout)
    assert out["hands"][1]["positions"] == alone["positions"]
    text = analyze(path).stdout
    assert "no contract" in text and "hand 1" in text


def test_analyze_errors_match_replay(tmp_path):
    record = suits_record()
    record["play"][5] = record["play"][4]  # a card already played
    path = write(tmp_path, record)
    replayed = json.loads(CliRunner().invoke(cli, ["replay", str(path), "--json"]).stdout)
    result = analyze(path, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == replayed["error"]
    plain = analyze(path)
    assert plain.exit_code == 1
    assert f"{replayed['error']['at']}: {replayed['error']['message']}" in plain.stderr
    bad = write(tmp_path, "{not json", "bad.json")
    result = analyze(bad)
    assert result.exit_code == 2 and "invalid JSON" in result.stderr and result.stdout == ""
    other = write(tmp_path, {"format": "something-else"}, "other.json")
    assert analyze(other).exit_code == 2


# ---------------------------------------------------------------- the DDS backend
def test_the_dds_backend_gives_our_searchs_answers_and_is_used_where_it_applies():
    """Backend ``dds`` hands DDS the positions it plays exactly as the rules say (jokers
    out of play, promoted trumps and downtown mapped by power, four players in
    partnerships) and our search all others; every answer equals our own search's and
    exhaustive minimax's."""
    used = {}
    for spec, strain, trump, direction in ENDGAMES:
        rng = random.Random(f"dds/{spec}/{strain}/{trump}")
        rules = rules_of(spec)
        used[spec, strain] = 0
        for i in range(10):
            state = endgame(spec, strain, trump, direction, rng, 3 + i % 2, extra=i % rules.players)
            if state.phase != PLAY:
                continue
            own, dds = DoubleDummy(), DoubleDummy(backend="dds")
            expected = brute_force(state)
            assert own.solve(state) == dds.solve(state) == expected, (spec, state.observation(state.seat))
            assert own.solve_actions(state) == dds.solve_actions(state), (spec, state.observation(state.seat))
            assert (dds.dds_calls > 0) == can_use_dds(state)
            assert dds.dds_calls + dds.own_calls == 2
            used[spec, strain] += dds.dds_calls > 0
    # DDS plays the 52-card deals, downtown, and jokers as the top trumps ...
    assert used["cincinnati", "downtown"] == used["standard", "uptown"] == 10
    assert used["northeast52", ""] == 10
    # ... never three players alone, nor a big joker that wins every trick while in play.
    assert used["cutthroat", "uptown"] == used["cutthroat", "notrump"] == 0
    assert used["standard+big-joker-notrump", "notrump"] == 0


def test_the_dds_backend_in_mid_trick_positions_of_standard_suit_contracts():
    """Jokers as the top trumps, five or six cards left, stopped anywhere in a trick:
    DDS's answer (cards renamed by power among the cards in play) equals our search's."""
    rng = random.Random("dds-mid-trick")
    dds = DoubleDummy(backend="dds")
    for i in range(6):
        state = endgame("standard", "uptown", i % 4, None, rng, 5 + i % 2, extra=i % 4)
        assert state.phase == PLAY
        assert dds.solve(state) == DoubleDummy().solve(state), state.observation(state.seat)
    assert dds.dds_calls == 6


def test_an_unknown_backend_is_refused():
    with pytest.raises(ValueError, match="backend must be one of own, fast, dds"):
        DoubleDummy(backend="quick")


def test_analyze_solver_choices_are_the_solver_backends():
    # The CLI writes them out so `--help` does not import the solver; they must stay equal.
    from bidcompiler.cli.analyze import SOLVERS
    from runtime.solver import BACKENDS
    assert SOLVERS == BACKENDS


@pytest.mark.parametrize("backend", ["fast", "dds"])
def test_analyze_gives_the_same_analysis_with_every_solver(tmp_path, backend):
    # fast: numba compiles the search on its first use on a machine (cached after that).
    pytest.importorskip({"fast": "numba", "dds": "endplay"}[backend])
    path = write(tmp_path, suits_record())
    own = analyze("--json", "--every-card", path)
    other = analyze("--json", "--every-card", "--solver", backend, path)
    assert own.exit_code == other.exit_code == 0
    assert json.loads(other.stdout) == json.loads(own.stdout)


def test_analyze_solver_without_its_package_is_a_usage_error(tmp_path, monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "numba" else real(name, *a))
    result = analyze("--solver", "fast", write(tmp_path, suits_record()))
    assert result.exit_code == 2
    assert "pip install 'bidwhist[fast]'" in result.stderr and "--solver" in result.stderr

"""Property tests (hypothesis) of the compiled ``standard`` engine over random seeds.

Each property draws a seed (and sometimes a bias of the bot towards ``pass``, so that
forced dealers come up), deals and plays with a seeded random bot, and checks an
invariant of rules.md section 1 or of the engine's OpenSpiel-like API:

* the deal: every card of the 54-card deck is dealt exactly once, 12 to a seat and
  6 to the kitty;
* a played hand has 13 books: 12 tricks of 4 cards plus the discards' book, and every
  card is either played or discarded;
* legal actions are never empty before the end; at the end there are none and
  ``current_player()`` is -1;
* every legal action is accepted (on a clone) and every other action id is refused
  with an ``IllegalAction`` naming the rule and the seat, leaving the state as it was;
* ``clone()`` is independent of the original;
* the score changes exactly as section 1 says, recomputed here from the contract and
  the books (made if books - 6 >= bid: books - 6, else -bid; doubled in notrump; the
  other side 0);
* a seed replays exactly, both a simulated hand and a whole ``GameState`` driven by
  a seeded bot, and a game's totals are the sum of its hands' scores;
* ``observation(seat)`` never shows another seat's cards or the kitty.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidcompiler.pipeline import load_ruleset
from runtime.errors import IllegalAction
from runtime.game import GameState, deal
from runtime.hand import AUCTION, HandState
from runtime.simulate import play_hand

RULES = load_ruleset("standard")
DECK = sorted(RULES.cards)
CARD_NAMES = frozenset(RULES.cards)

seeds = st.integers(min_value=0, max_value=2**64 - 1)
pass_bias = st.sampled_from([0.0, 0.6, 0.95])
FAST = settings(max_examples=300, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=100, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ helpers
def new_hand(seed: int) -> tuple[HandState, random.Random]:
    rng = random.Random(seed)
    hands, kitty = deal(RULES, rng)
    return HandState(RULES, rng.randrange(RULES.players), hands, kitty), rng


def choose(state: HandState, rng: random.Random, bias: float) -> int:
    legal = state.legal_actions()
    if state.phase_name == "auction" and RULES.pass_action in legal and rng.random() < bias:
        return RULES.pass_action
    return rng.choice(legal)


def play_out(seed: int, bias: float = 0.0, on_step=None) -> HandState:
    """Play a whole hand with a seeded random bot; ``on_step(state, i)`` before each action."""
    state, rng = new_hand(seed)
    i = 0
    while not state.is_terminal():
        if on_step is not None:
            on_step(state, i)
        state.apply_action(choose(state, rng, bias))
        i += 1
    return state


def snapshot(state: HandState) -> tuple:
    """Everything observable about a hand state, as immutable data."""
    return (
        state.phase, state.seat, tuple(tuple(h) for h in state.hands), tuple(state.kitty),
        tuple(state.calls), state.high_bid, state.declarer, state.trump, state.direction,
        tuple(state.discards), tuple(state.trick), tuple(state.tricks), tuple(state.won),
        None if state.books is None else tuple(state.books),
        None if state.score is None else tuple(state.score),
        tuple(state.legal_actions()),
    )


def expected_refusal(state: HandState, action: int) -> str | None:
    """The rule the engine's errors documentation names for refusing ``action`` here
    (None where section 1 has no such action at all, e.g. ``take`` or an id out of range)."""
    phase = state.phase_name
    in_range = 0 <= action < RULES.n_actions
    is_card = 0 <= action < RULES.n_cards
    is_bid = RULES.first_bid_action <= action < RULES.first_trump_action
    is_declaration = RULES.first_trump_action <= action < RULES.first_direction_action + len(RULES.orders)
    if phase == "auction":
        if action == RULES.pass_action:
            return "dealer-must-bid"
        if is_bid:
            return "bid-too-low"
        return "wrong-phase" if is_card or is_declaration else None
    if phase == "declare":
        return "declare" if in_range else None
    if is_card:
        if action not in state.hands[state.seat]:
            return "not-in-hand"
        assert phase == "play", "every held card may be discarded"
        return "follow-suit"
    return "wrong-phase" if in_range else None


def card_strings(value) -> set[str]:
    """Every card name anywhere inside an observation (keys and values)."""
    found = set()
    if isinstance(value, str):
        if value in CARD_NAMES:
            found.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= card_strings(k) | card_strings(v)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            found |= card_strings(v)
    return found


def side_of(seat: int) -> int:
    return seat % 2  # partners sit opposite: sides {0, 2} and {1, 3}


# ------------------------------------------------------------------ the deal
@FAST
@given(seeds)
def test_each_card_dealt_exactly_once(seed):
    rng = random.Random(seed)
    hands, kitty = deal(RULES, rng)
    assert [len(h) for h in hands] == [12, 12, 12, 12] and len(kitty) == 6
    dealt = [c for h in hands for c in h] + kitty
    assert sorted(RULES.cards[c] for c in dealt) == DECK
    assert len(DECK) == 54 and {"BJ", "LJ"} <= set(DECK)
    state = play_hand(RULES, seed % 1000, seed % 97)
    dealt = [c for h in state.dealt for c in h] + list(state.kitty)
    assert sorted(RULES.cards[c] for c in dealt) == DECK


# ------------------------------------------------------------------ a played hand
@FAST
@given(seeds, pass_bias)
def test_thirteen_books_twelve_tricks_and_the_discards(seed, bias):
    state = play_out(seed, bias)
    assert state.contract is not None  # standard: the dealer must bid, so always a contract
    assert len(state.tricks) == 12 and all(len(cards) == 4 for _, cards, _ in state.tricks)
    assert len(state.discards) == 6
    assert sum(state.books) == 13
    played = [c for _, cards, _ in state.tricks for c in cards]
    assert sorted(RULES.cards[c] for c in played + state.discards) == DECK
    assert all(not h for h in state.hands)
    side = side_of(state.declarer)
    won = [0, 0]
    for _, _, winner in state.tricks:
        won[side_of(winner)] += 1
    assert state.books[side] == won[side] + 1  # the discards are the declaring side's book
    assert state.books[1 - side] == won[1 - side]
    # The declarer leads the first trick; each trick's winner leads the next.
    assert state.tricks[0][0] == state.declarer
    for previous, trick in zip(state.tricks, state.tricks[1:]):
        assert trick[0] == previous[2]


@FAST
@given(seeds, pass_bias)
def test_legal_actions_never_empty_until_the_end(seed, bias):
    def check(state, i):
        legal = state.legal_actions()
        assert legal, f"no legal action at step {i}"
        assert legal == sorted(set(legal))
        assert all(0 <= a < RULES.n_actions for a in legal)
        assert state.current_player() in range(4) and not state.is_terminal()
        if state.phase_name in ("play", "discard"):
            assert set(legal) <= set(state.hands[state.current_player()])

    state = play_out(seed, bias, check)
    assert state.is_terminal()
    assert state.current_player() == -1
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction):
        state.apply_action(RULES.pass_action)


@settings(max_examples=150, deadline=None, database=None)
@given(seeds, pass_bias)
def test_legal_accepted_everything_else_refused_with_rule_and_seat(seed, bias):
    picker = random.Random(seed ^ 0x5EED)
    checked_phases = set()

    def check(state, i):
        phase = state.phase_name
        # Every state of the first three auction steps and the first of each phase,
        # then about one play state in eight.
        if not (i < 3 or phase not in checked_phases or picker.random() < 0.125):
            return
        checked_phases.add(phase)
        before = snapshot(state)
        seat = state.current_player()
        legal = set(state.legal_actions())
        for action in list(range(RULES.n_actions)) + [-1, RULES.n_actions]:
            copy = state.clone()
            if action in legal:
                copy.apply_action(action)
                assert snapshot(copy) != before
                continue
            with pytest.raises(IllegalAction) as info:
                copy.apply_action(action)
            error = info.value
            assert error.seat == seat, (phase, action, error.seat)
            rule = expected_refusal(state, action)
            assert isinstance(error.rule, str) and error.rule
            assert rule is None or error.rule == rule, (phase, action, error.rule)
            assert f"seat {seat}" in error.message
            assert snapshot(copy) == before, "a refused action changed the state"
        assert snapshot(state) == before

    play_out(seed, bias, check)
    assert checked_phases == {"auction", "declare", "discard", "play"}


@FAST
@given(seeds, st.integers(min_value=0, max_value=70))
def test_clone_is_independent(seed, stop):
    state, rng = new_hand(seed)
    for _ in range(stop):
        if state.is_terminal():
            break
        state.apply_action(choose(state, rng, 0.0))
    before = snapshot(state)
    observations = [state.observation(s) for s in range(4)]
    copy = state.clone()
    assert snapshot(copy) == before
    # Drive the clone to the end: the original must not move.
    other = random.Random(seed + 1)
    while not copy.is_terminal():
        copy.apply_action(other.choice(copy.legal_actions()))
    assert snapshot(state) == before
    assert [state.observation(s) for s in range(4)] == observations
    # And the original still plays on by itself, to a full hand.
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.books) == 13
    assert sum(copy.books) == 13


@FAST
@given(seeds, pass_bias)
def test_score_follows_section_1(seed, bias):
    state = play_out(seed, bias)
    contract = state.contract
    declarer = contract["declarer"]
    side = side_of(declarer)
    assert contract["side"] == side
    books = [0, 0]
    for _, _, winner in state.tricks:
        books[side_of(winner)] += 1
    books[side] += 1  # the discards
    assert state.books == books
    bid = contract["bid"]
    notrump = contract["strain"] == "notrump"
    assert (contract["trump"] is None) == notrump
    made = books[side] - 6 >= bid
    points = books[side] - 6 if made else -bid
    if notrump:
        points *= 2
    expected = [0, 0]
    expected[side] = points
    assert state.score == expected
    assert state.made is made


# ------------------------------------------------------------------ replays and games
@FAST
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=10_000))
def test_simulated_hand_replays_exactly(seed, index):
    a = play_hand(RULES, seed, index)
    b = play_hand(RULES, seed, index)
    assert a.dealer == b.dealer and a.dealt == b.dealt and a.kitty == b.kitty
    assert a.calls == b.calls and a.discards == b.discards
    assert a.contract == b.contract
    assert a.tricks == b.tricks and a.books == b.books and a.score == b.score
    # The dealer rotates to the left from the run's first dealer.
    assert play_hand(RULES, seed, index + 1).dealer == (a.dealer + 1) % 4


def play_game(seed: int, bot_seed: int) -> tuple[GameState, list[int]]:
    game = GameState(RULES, seed)
    rng = random.Random(bot_seed)
    actions = []
    while not game.is_terminal():
        legal = game.legal_actions()
        assert legal
        action = rng.choice(legal)
        actions.append(action)
        game.apply_action(action)
    return game, actions


@SLOW
@given(seeds, seeds)
def test_game_replays_from_seed_and_actions(seed, bot_seed):
    game, actions = play_game(seed, bot_seed)
    assert game.winner in (0, 1)
    assert game.current_player() == -1 and game.legal_actions() == []
    replay = GameState(RULES, seed)
    for i, action in enumerate(actions):
        assert not replay.is_terminal(), f"replay ended early, at action {i}"
        replay.apply_action(action)
    assert replay.is_terminal()
    assert replay.totals == game.totals and replay.winner == game.winner
    assert len(replay.history) == len(game.history)
    for a, b in zip(game.history, replay.history):
        assert (a.dealer, a.dealt, a.kitty, a.tricks, a.score) == (b.dealer, b.dealt, b.kitty, b.tricks, b.score)


@SLOW
@given(seeds, seeds)
def test_game_totals_are_the_sum_of_hand_scores(seed, bot_seed):
    game, _ = play_game(seed, bot_seed)
    totals = [sum(h.score[s] for h in game.history) for s in range(2)]
    assert game.totals == totals
    # The game ended on its last hand, and not before: +7 wins, -7 loses (section 1).
    running = [0, 0]
    for n, hand in enumerate(game.history):
        assert sum(hand.books) == 13
        running = [running[s] + hand.score[s] for s in range(2)]
        decided = any(t >= 7 or t <= -7 for t in running)
        assert decided == (n == len(game.history) - 1), (n, running)
    assert (running[game.winner] >= 7) or (running[1 - game.winner] <= -7)
    # The deal passes to the left each hand.
    for previous, hand in zip(game.history, game.history[1:]):
        assert hand.dealer == (previous.dealer + 1) % 4


@SLOW
@given(seeds, seeds, st.integers(min_value=0, max_value=400))
def test_game_clone_continues_identically(seed, bot_seed, stop):
    game, actions = play_game(seed, bot_seed)
    stop = min(stop, len(actions) - 1)
    original = GameState(RULES, seed)
    for action in actions[:stop]:
        original.apply_action(action)
    copy = original.clone()
    totals, hands = list(original.totals), len(original.history)
    for action in actions[stop:]:
        copy.apply_action(action)  # deals the same next hands: the generator is copied
    assert copy.totals == game.totals and copy.winner == game.winner
    assert original.totals == totals and len(original.history) == hands
    assert not original.is_terminal()


# ------------------------------------------------------------------ observations
@settings(max_examples=150, deadline=None, database=None)
@given(seeds, pass_bias)
def test_observation_hides_other_hands_and_the_kitty(seed, bias):
    checked = set()

    def check(state, i):
        played = {RULES.cards[c] for _, cards, _ in state.tricks for c in cards}
        played |= {RULES.cards[c] for c in state.trick}
        kitty = {RULES.cards[c] for c in state.kitty}
        for seat in range(4):
            obs = state.observation(seat)
            own = {RULES.cards[c] for c in state.hands[seat]}
            assert set(obs["hand"]) == own and len(obs["hand"]) == len(own)
            visible = own | played
            if seat == state.declarer:
                visible |= {RULES.cards[c] for c in state.discards}
            leaked = card_strings(obs) - visible
            assert not leaked, f"seat {seat} sees {sorted(leaked)} in phase {state.phase_name}"
            if seat != state.declarer or state.phase_name in ("auction", "declare"):
                # Nobody else ever sees the kitty, nor the declarer before taking it.
                assert not (card_strings(obs) & kitty - played)
            checked.add(state.phase_name)

    state = play_out(seed, bias, check)
    assert checked == {"auction", "declare", "discard", "play"}
    # The finished hand's observation shows no unplayed card but the declarer's discards.
    for seat in range(4):
        obs = state.observation(seat)
        extra = card_strings(obs) - {RULES.cards[c] for _, cards, _ in state.tricks for c in cards}
        assert extra == (set() if seat != state.declarer else {RULES.cards[c] for c in state.discards})
        assert obs["score"] == state.score and obs["books"] == state.books


@SLOW
@given(seeds, seeds, st.integers(min_value=0, max_value=200))
def test_game_observation_hides_other_hands(seed, bot_seed, stop):
    game, actions = play_game(seed, bot_seed)
    game = GameState(RULES, seed)
    for action in actions[:min(stop, len(actions) - 1)]:
        game.apply_action(action)
    hand = game.hand
    played = {RULES.cards[c] for _, cards, _ in hand.tricks for c in cards} | {RULES.cards[c] for c in hand.trick}
    for seat in range(4):
        obs = game.observation(seat)
        visible = {RULES.cards[c] for c in hand.hands[seat]} | played
        if seat == hand.declarer:
            visible |= {RULES.cards[c] for c in hand.discards}
        assert card_strings(obs) <= visible
        assert obs["totals"] == game.totals and obs["hand_number"] == len(game.history)


@FAST
@given(seeds)
def test_observation_is_a_snapshot(seed):
    """A bot that edits its observation must not edit the game (plain data, not views)."""
    state = play_out(seed)
    score, books = list(state.score), list(state.books)
    obs = state.observation(0)
    obs["score"][0] += 100
    obs["books"][1] += 100
    obs["tricks_won"][0] += 100
    assert state.score == score and state.books == books
    assert state.observation(0)["score"] == score


@FAST
@given(seeds, st.sampled_from(["standard", "oregon", "hawaii", "cutthroat", "northeast52",
                               "standard+all-pass-redeal", "standard+rise-and-fly"]))
def test_ends_auction_says_what_the_call_would_do(seed, variant):
    """``HandState.ends_auction(a)`` (asked by bots) agrees with calling ``a`` on a copy."""
    rules = load_ruleset(variant)
    rng = random.Random(seed)
    hands, kitty = deal(rules, rng)
    state = HandState(rules, seed % rules.players, hands, kitty)
    while state.phase == AUCTION:
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            assert state.ends_auction(action) == (after.phase != AUCTION), rules.action_names[action]
        state.apply_action(rng.choice(state.legal_actions()))

"""The per-action API's fast paths give what the general ones give.

``HandState.legal_actions`` lists a card play's legal cards itself (a slice of the
sorted hand where the suit led is one run of card ids, :func:`runtime.hand._follow_spans`)
and ``apply_action`` plays a card that neither ends a trick nor may renege without
``_play``'s call.  These tests check, at every step of random hands in every shipped
variant and the house rules that change what may follow, that the list is the one
``_compute_legal`` (the general rule) works out, and that the hands end as the fused
random playout (a separate implementation) leaves them.
"""

import random
from dataclasses import fields, replace
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from runtime.game import deal
from runtime.hand import HandState, _follow_spans, _suit_runs
from runtime.ruleset import NO_SUIT

VARIANTS = Path(__file__).resolve().parents[1] / "variants"
SPECS = sorted(p.stem for p in VARIANTS.glob("*.yaml") if "\nkind: house" not in p.read_text()) + [
    "standard+renege-penalty", "standard+jokers-free-in-notrump", "standard+jokers-out-in-notrump",
    "standard+low-beats-high", "standard+big-joker-notrump"]


@pytest.mark.parametrize("spec", SPECS)
def test_legal_actions_are_the_general_rule_at_every_step(spec):
    rules = load_ruleset(spec)
    rng = random.Random(f"legal:{spec}")
    follows = 0
    for _ in range(40):
        dealt, kitty = deal(rules, rng)
        state = HandState(rules, rng.randrange(rules.players), dealt, kitty)
        seed = rng.getrandbits(32)
        loop_rng, playout_rng = random.Random(seed), random.Random(seed)
        twin = state.clone()
        while not state.is_terminal():
            expected = state._compute_legal()
            got = state.legal_actions()
            assert got == expected, (spec, state.phase_name, state.trick)
            follows += state.led != NO_SUIT and bool(state.trick)
            state.apply_action(loop_rng.choice(got))
        twin.play_random(playout_rng)
        assert (state.score, state.books, state.tricks, state.hands) == \
               (twin.score, twin.books, twin.tricks, twin.hands)
    assert follows > 0  # the fast path was taken


def test_a_legal_list_is_the_callers_own():
    """Changing the list returned does not change the hand (it is a slice, not the hand itself)."""
    rules = load_ruleset("standard")
    rng = random.Random(3)
    dealt, kitty = deal(rules, rng)
    state = HandState(rules, 0, dealt, kitty)
    while not (state.phase_name == "play" and state.trick):
        state.apply_action(rng.choice(state.legal_actions()))
    held = list(state.hands[state.seat])
    state.legal_actions().clear()
    assert state.hands[state.seat] == held


def test_follow_spans_are_exactly_the_suits_cards():
    """Each span holds exactly the cards that follow its suit; a suit whose cards are not one run has none."""
    rules = load_ruleset("standard")
    spans = _follow_spans(rules)
    assert set(spans) == set(rules.tables)
    nones = 0
    for key, table in rules.tables.items():
        for suit, span in enumerate(spans[key]):
            cards = [c for c, s in enumerate(table.suit_of) if s == suit]
            if span is None:
                nones += 1
                assert cards != list(range(cards[0], cards[-1] + 1))
            else:
                assert list(range(*span)) == cards
    assert nones > 0  # a trump suit with the jokers beside it is not one run in standard's deck


@pytest.mark.parametrize("spec", ["standard", "standard+no-jokers", "standard+jokers-and-deuce"])
def test_suit_runs_are_exactly_the_suits_cards(spec):
    """The random playout's runs (:func:`runtime.hand._suit_runs`): each suit's one or two runs hold
    exactly the cards that follow it, in id order; a suit of more runs (or none) has None."""
    rules = load_ruleset(spec)
    runs_of = _suit_runs(rules)
    assert set(runs_of) == set(rules.tables)
    two = 0
    for key, table in rules.tables.items():
        for suit, runs in enumerate(runs_of[key]):
            cards = [c for c, s in enumerate(table.suit_of) if s == suit]
            if runs is None:
                assert cards == [] or sum(1 for i, c in enumerate(cards) if i == 0 or cards[i - 1] != c - 1) > 2
                continue
            lo, hi, lo2, hi2 = runs
            assert list(range(lo, hi)) + (list(range(lo2, hi2)) if lo2 >= 0 else []) == cards
            assert lo2 < 0 or hi < lo2
            two += lo2 >= 0
    if spec == "standard":
        assert two > 0  # a trump suit with the jokers beside it: two runs in standard's deck


# Every house rule on the base game, and combinations where the rules of following meet
# (trumps that are no run of ids, cards free of following, reneges that stand).
HOUSE = sorted(p.stem for p in VARIANTS.glob("*.yaml") if "\nkind: house" in p.read_text())
MIXED = ["standard+jokers-free-in-notrump+renege-penalty", "standard+deuce-of-spades+low-beats-high",
         "standard+jokers-and-deuce+jokers-free-in-notrump", "standard+jokers-and-deuce+renege-penalty",
         "standard+big-joker-notrump+renege-penalty", "standard+no-jokers+renege-penalty",
         "oregon+renege-penalty", "two-handed+renege-penalty",
         "hawaii+renege-penalty", "northeast52+renege-penalty", "rhode-island+renege-penalty",
         "standard+jokers-out-in-notrump+renege-penalty", "standard+one-joker+jokers-free-in-notrump"]
_SKIP = {"_legal", "_spans"}  # the caches the fast paths fill


def _snapshot(state: HandState) -> dict:
    """Every slot of ``state`` but the caches: plain values as they are, other objects by identity."""
    out = {}
    for name in HandState.__slots__:
        if name in _SKIP:
            continue
        v = getattr(state, name)
        out[name] = v if isinstance(v, (int, float, str, list, tuple, dict, type(None))) else id(v)
    return out


def _slow_apply(state: HandState, action: int) -> None:
    """apply_action as it was before its fast path: the general list, then _apply (which plays by _play)."""
    assert action in state._compute_legal()
    state._apply(action)


# House rules that change only when the game ends (Ruleset.game_end, which no hand reads:
# test_game_end_rules_change_nothing_a_hand_reads): laid over standard, the step-for-step test
# would play standard's case again on other deals, so it leaves them out.
GAME_END_ONLY = ("boston-wins", "seven-set-loses", "ten-hands", "to-5", "to-9", "two-sets")
# Each combination once: SPECS already names five of the house rules on standard, and a case
# is the same hands again under the same name (its seed is its name).
STEPS = [spec for spec in dict.fromkeys(SPECS + [f"standard+{h}" for h in HOUSE] + MIXED)
         if spec.removeprefix("standard+") not in GAME_END_ONLY]


class _Unread:
    """A part of a ruleset that no hand may read: any look at it fails the test."""

    def __getattr__(self, name):
        raise AssertionError(f"a hand read the game's end ({name})")


def test_game_end_rules_change_nothing_a_hand_reads():
    """The rules of GAME_END_ONLY differ from standard in game_end alone, and hands played step
    for step (heuristic and random play, reneges) with standard's game_end unreadable never read it."""
    standard = load_ruleset("standard")
    assert {rule for rule in HOUSE if rule in GAME_END_ONLY} == set(GAME_END_ONLY)
    for rule in GAME_END_ONLY:
        rules = load_ruleset("standard", (rule,))
        assert [f.name for f in fields(rules) if repr(getattr(rules, f.name)) != repr(getattr(standard, f.name))] \
            == ["game_end"], rule
    _step_for_step("standard, its game's end unread", replace(standard, game_end=_Unread()))


@pytest.mark.parametrize("spec", STEPS)
def test_fast_paths_step_for_step_with_heuristic_play_and_reneges(spec):
    """At every step of hands played by the heuristic bot, at random and (where reneges stand)
    with deliberate reneges, the legal list is the general one and apply_action leaves the state
    (reneges, their plays and penalties included) as the general _apply does."""
    _step_for_step(spec, load_ruleset(spec))


def _step_for_step(spec: str, rules) -> None:
    """The step-for-step test's hands, dealt from a generator seeded by ``spec``, under ``rules``."""
    from runtime.bots.heuristic import HeuristicBot

    rng = random.Random(f"steps:{spec}")
    bot = HeuristicBot(random.Random(1))
    may_renege = reneged = 0
    for hand_no in range(6):
        dealt, kitty = deal(rules, rng)
        dealer = rng.randrange(rules.players)
        fast = HandState(rules, dealer, [list(h) for h in dealt], list(kitty))
        slow = HandState(rules, dealer, [list(h) for h in dealt], list(kitty))
        while not fast.is_terminal():
            got = fast.legal_actions()
            assert got == fast._compute_legal() == slow._compute_legal(), (spec, fast.trick)
            if hand_no % 2 == 0:
                action = bot.choose(fast)
            else:
                action = rng.choice(got)
            if fast.phase_name == "play" and fast.trick and not fast._refuse and rng.random() < 0.5:
                follow = [c for c in got if fast.table is not None and fast.table.suit_of[c] == fast.led]
                off = [c for c in got if c not in follow]
                may_renege += 1
                if follow and off:  # a renege that stands, to be noted
                    action = rng.choice(off)
            fast.apply_action(action)
            _slow_apply(slow, action)
            assert _snapshot(fast) == _snapshot(slow), (spec, action)
        assert fast.score == slow.score and fast.reneges == slow.reneges
        reneged += len(fast.renege_plays)
    assert reneged or not may_renege  # where reneges stand, some were played and noted

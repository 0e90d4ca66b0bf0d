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
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from runtime.game import deal
from runtime.hand import HandState, _follow_spans
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

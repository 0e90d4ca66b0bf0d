"""The engine's and the hands driver's memos change no result, in every variant and house rule.

``HandState._finish`` remembers a hand's score and ``made`` per ruleset by (declaring
side, bid, notrump, books), and ``run_chunk`` a hand key's outcome per ruleset across
chunks (``metrics.hand_key``).  These tests check that what the memos give is what the
plain computation gives (``scoring._score`` of the hand's contract; ``metrics.outcome_of``
with nothing remembered), that the memos stay within their bounds, and that a run's
figures are the same with the memos off, cold, or filled by other chunks of the run.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from runtime import hand as hand_module
from runtime import metrics, simulate
from runtime.game import deal
from runtime.kitty import swept
from runtime.hand import HandState
from runtime.scoring import _score
from runtime.simulate import RunSpec, run_chunk

VARIANTS = Path(__file__).resolve().parents[1] / "variants"
_TEXTS = {p.stem: p.read_text() for p in VARIANTS.glob("*.yaml")}
BASES = sorted(name for name, text in _TEXTS.items() if "\nkind: house" not in text)
HOUSE_RULES = sorted(name for name, text in _TEXTS.items() if "\nkind: house" in text)
SPECS = BASES + [f"standard+{rule}" for rule in HOUSE_RULES]


def fresh_rules(spec: str):
    """``spec``'s Ruleset with nothing remembered yet: a copy (pickles leave the memos out),
    as load_ruleset gives the same object, memos and all, to every test of a process."""
    return pickle.loads(pickle.dumps(load_ruleset(spec)))


def random_hands(rules, count: int, seed: int):
    """``count`` hands of ``rules`` played to the end by random play, each from its own deal."""
    rng = random.Random(seed)
    for i in range(count):
        dealt, kitty = deal(rules, rng)
        state = HandState(rules, i % rules.players, dealt, kitty)
        state.play_random(random.Random(rng.getrandbits(32)))
        yield state


@pytest.mark.parametrize("spec", SPECS)
def test_a_remembered_score_is_the_one_scoring_gives(spec):
    """Every hand without reneges ends with the score and ``made`` that scoring works out
    afresh for its contract and books, whether ``_finish`` found them in its memo or not."""
    rules = fresh_rules(spec)
    scored = 0
    for state in random_hands(rules, 60, 11):
        if state.declarer < 0 or state.reneges:
            continue
        fresh = _score(rules, state.contract_value, list(state.books))
        assert (state.score, state.made) == (fresh.score, fresh.made), spec
        scored += 1
    memo = rules.derived("finish_memo", hand_module._new_store)
    assert len(memo) <= scored  # (renege-penalty's random hands renege: they never reach the memo)


def test_the_score_memo_keeps_within_its_bound(monkeypatch):
    """Past the bound nothing more is remembered, and the hands still score as scoring says."""
    monkeypatch.setattr(hand_module, "_FINISH_MEMO_CAP", 3)
    rules = fresh_rules("standard")
    for state in random_hands(rules, 80, 12):
        fresh = _score(rules, state.contract_value, list(state.books))
        assert (state.score, state.made) == (fresh.score, fresh.made)
    assert len(rules.derived("finish_memo", hand_module._new_store)) == 3


def reference_outcome(state, strains) -> tuple:
    """A finished hand's outcome read off the hand itself (metrics.hand_outcome's
    definition before hands were counted by their keys)."""
    score = tuple(state.score)
    if state.declarer < 0:
        return (score, -1, None, None, None, None)
    side = state.rules.side_of[state.declarer]
    kind = strains.of_hand(state) if strains is not None and strains.of_table is not None else None
    return (score, state.bid, 1 if state.made else 0, 1 if any(swept(state.rules, state.books, side)) else 0,
            score[side], kind)


@pytest.mark.parametrize("spec", ["standard", "rhode-island", "northeast52", "cutthroat", "two-handed",
                                  "standard+renege-penalty", "standard+boston-x4", "standard+defenders-score"])
def test_a_hand_keys_outcome_is_the_hands_own(spec):
    """metrics.outcome_of of a hand's key, and hand_outcome, are the outcome read off the
    hand itself (the declared kind too, where the bid does not say it)."""
    rules = load_ruleset(spec)
    strains = metrics.strain_ladder(rules)
    for state in random_hands(rules, 60, 13):
        expected = reference_outcome(state, strains)
        assert metrics.outcome_of(rules, metrics.hand_key(state), strains) == expected
        assert metrics.hand_outcome(state, strains) == expected


def _chunk_figures(result) -> tuple:
    return ({k: list(m.sums) for k, m in result.moments.items()},
            {k: list(h.items()) for k, h in result.histograms.items()}, result.records)


@pytest.mark.parametrize("spec", ["standard", "northeast52", "standard+renege-penalty", "standard+sport-kitty"])
def test_a_chunk_is_the_same_with_the_outcome_memo_off_cold_or_filled(spec, monkeypatch):
    """run_chunk's figures (in their order) do not hang on what the outcome memo holds: off
    (bound 0), cold (a ruleset of its own) and filled by the run's other chunks."""
    spec_run = RunSpec("hands", 300, 21, ("random",), chunk_size=100, records=(spec, ()))
    cold = _chunk_figures(run_chunk(fresh_rules(spec), spec_run, 2))
    warm_rules = fresh_rules(spec)
    run_chunk(warm_rules, spec_run, 0)
    run_chunk(warm_rules, spec_run, 1)
    assert warm_rules.derived("hand_outcomes", simulate._new_outcome_memo)  # filled by other chunks
    warm = _chunk_figures(run_chunk(warm_rules, spec_run, 2))
    monkeypatch.setattr(simulate, "_OUTCOME_MEMO_CAP", 0)
    monkeypatch.setattr(hand_module, "_FINISH_MEMO_CAP", 0)
    off_rules = fresh_rules(spec)
    off = _chunk_figures(run_chunk(off_rules, spec_run, 2))
    assert not off_rules.derived("hand_outcomes", simulate._new_outcome_memo)
    assert cold == warm == off
